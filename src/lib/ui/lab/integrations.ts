/**
 * The simulator modules the lab drives, loaded by path. Bootstrap, scheduler explanations,
 * manifests, schemas and persistence are separate modules; `import.meta.glob` lets the lab build
 * (and show a labelled empty state) whether or not a module is present in this build.
 */
import type { Cluster } from '$lib/sim/cluster';

export interface ScenarioFile {
  fileName: string;
  text: string;
}

/** One scheduling attempt as the scheduler's explanations describe it (the CLI's JSON shape). */
export interface SchedulingAttempt {
  t?: number;
  pod?: string;
  selectedNode?: string | null;
  message?: string;
  nodes?: Record<
    string,
    {
      filter?: Record<string, { code: string; reasons?: string[] }>;
      score?: Record<string, number>;
      weighted?: Record<string, number>;
      finalScore?: number;
    }
  >;
}

export interface ManifestIssue {
  file?: string;
  line?: number;
  column?: number;
  path?: string;
  message: string;
}

type Loader = () => Promise<unknown>;

const bootstrapModules = import.meta.glob('/src/lib/sim/scenario/bootstrap.ts') as Record<string, Loader>;
const schedulerModules = import.meta.glob('/src/lib/sim/scheduler/index.ts') as Record<string, Loader>;
const manifestModules = import.meta.glob('/src/lib/sim/manifests/index.ts') as Record<string, Loader>;
const schemaModules = import.meta.glob('/src/lib/sim/schemas/index.ts') as Record<string, Loader>;
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

export type SchedulingHistory = (cluster: Cluster, podKey: string) => SchedulingAttempt[];

export async function loadSchedulingHistory(): Promise<SchedulingHistory | undefined> {
  const m = await first<{ getSchedulingHistory?: SchedulingHistory }>(schedulerModules);
  return m?.getSchedulingHistory;
}

export interface ManifestsModule {
  parseManifests(text: string, fileName: string): { objects: { obj: unknown; line?: number }[] };
  applyManifests(cluster: Cluster, objects: unknown, ctx: { component: string }): unknown;
}

export async function loadManifests(): Promise<ManifestsModule | undefined> {
  const m = await first<Partial<ManifestsModule>>(manifestModules);
  return m?.parseManifests && m.applyManifests ? (m as ManifestsModule) : undefined;
}

/** JSON Schemas by kind for monaco-yaml, when the schemas module exports them. */
export async function loadSchemas(): Promise<Record<string, object>> {
  const m = await first<Record<string, unknown>>(schemaModules);
  if (!m) return {};
  const bag = (m.schemas ?? m.default ?? m) as Record<string, unknown>;
  const out: Record<string, object> = {};
  for (const [k, v] of Object.entries(bag)) if (v && typeof v === 'object') out[k] = v as object;
  return out;
}
