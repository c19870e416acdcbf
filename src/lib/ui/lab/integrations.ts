/**
 * The scenario bootstrap and the example scenarios, loaded by path: `import.meta.glob` lets the
 * lab build (and fall back to a labelled placeholder cluster) when they are not in this build.
 */
import type { Cluster } from '$lib/sim/cluster';

export interface ScenarioFile {
  fileName: string;
  text: string;
}

type Loader = () => Promise<unknown>;

const bootstrapModules = import.meta.glob('/src/lib/sim/scenario/bootstrap.ts') as Record<string, Loader>;
const scenarioTexts = import.meta.glob('/scenarios/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true
}) as Record<string, string>;

async function first<T>(mods: Record<string, Loader>): Promise<T | undefined> {
  const key = Object.keys(mods).sort()[0];
  return key ? ((await mods[key]()) as T) : undefined;
}

/** Example scenarios shipped in `scenarios/`, sorted by file name. */
export function exampleScenarios(): ScenarioFile[] {
  return Object.entries(scenarioTexts)
    .map(([path, text]) => ({ fileName: path.split('/').pop() ?? path, text }))
    .sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
}

export type CreateCluster = (text: string, opts: { fileName: string }) => { cluster: Cluster };

export async function loadBootstrap(): Promise<CreateCluster | undefined> {
  const m = await first<{ createCluster?: CreateCluster }>(bootstrapModules);
  return m?.createCluster;
}
