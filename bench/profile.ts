/**
 * CPU profile of the benchmark cluster, in two parts: settling (build until every pod is Running)
 * and the steady state right after it. Writes `settle.cpuprofile` and `steady.cpuprofile` (open them in
 * Chrome DevTools) and `live.heapprofile` into the given directory and prints the top self-time functions of each, and
 * the allocation sites of the memory still live after the steady window.
 * Run: `npx tsx bench/profile.ts <dir> [nodes pods windowSeconds]`.
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { settledCluster } from './workload';

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(cf: CallFrame): string {
  const file = cf.url.replace(/^.*\/(src|node_modules|bench)\//, '$1/');
  return `${cf.functionName || '(anonymous)'} ${file}`.trim();
}

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

/**
 * The allocation sites holding the most live memory (the sampling heap profiler reports only
 * objects still alive when it stops), with their caller, as printable lines.
 */
export function topLive(head: HeapNode, n: number): string[] {
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, caller: string): void => {
    const here = label(node.callFrame);
    if (node.selfSize) {
      const key = `${here}  < ${caller}`;
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const c of node.children) walk(c, here);
  };
  walk(head, '');
  return [
    `  total ${(total / 2 ** 20).toFixed(0)} MiB live (sampled)`,
    ...[...sites]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, b]) =>
          `  ${(b / 2 ** 20).toFixed(1).padStart(7)} MiB ${((100 * b) / total).toFixed(1).padStart(5)}%  ${k}`
      )
  ];
}

/** The `n` functions with the most self time, as printable lines. */
export function topSelf(profile: Profile, n: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  // The profiler's own stop (serialising the profile) is sampled too: leave it out.
  const inInspector = (id: number): boolean => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      if (byId.get(cur)!.callFrame.url === 'node:inspector') return true;
    return false;
  };
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (inInspector(id)) return;
    const key = label(byId.get(id)!.callFrame);
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  return [
    `  total ${(total / 1e6).toFixed(2)} s sampled`,
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, t]) =>
          `  ${(t / 1e3).toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`
      )
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));

async function main(argv: string[]): Promise<void> {
  const [dir, ...rest] = argv;
  if (!dir) {
    console.error('usage: npx tsx bench/profile.ts <dir> [nodes pods windowSeconds]');
    process.exit(2);
  }
  const [nodes = 300, pods = nodes * 30, windowS = 60] = rest.map(Number);
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });

  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 32768 });
  await session.post('Profiler.start');
  const { cluster } = settledCluster(nodes, pods);
  const settle = (await session.post('Profiler.stop')).profile as unknown as Profile;
  writeFileSync(join(dir, 'settle.cpuprofile'), JSON.stringify(settle));

  // The steady window right after settling, before the full collection of the heap reading (as
  // bench/sim.ts measures it): that collection's aftermath is the bench's, not the cluster's.
  await session.post('Profiler.start');
  cluster.runUntil(cluster.now + windowS * 1000);
  const steady = (await session.post('Profiler.stop')).profile as unknown as Profile;
  writeFileSync(join(dir, 'steady.cpuprofile'), JSON.stringify(steady));

  await session.post('HeapProfiler.collectGarbage');
  const live = (await session.post('HeapProfiler.stopSampling')).profile as unknown as { head: HeapNode };
  writeFileSync(join(dir, 'live.heapprofile'), JSON.stringify(live));

  console.log(`${nodes} nodes / ${pods} pods, settle:`);
  for (const l of topSelf(settle, 15)) console.log(l);
  console.log(`live heap after the steady window, by allocation site:`);
  for (const l of topLive(live.head, 15)) console.log(l);
  console.log(`steady state, ${windowS} virtual s:`);
  for (const l of topSelf(steady, 15)) console.log(l);
}
