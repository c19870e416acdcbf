/**
 * Time-travel snapshots: `cluster.snapshot()` and `Cluster.restore()` wall time, and size, for
 * 20 nodes / 600 pods (the lab at 60×) and 100 nodes / 3,000 pods, taken a minute after every pod
 * is Running. "Own" is the JSON of what a snapshot holds by itself; frozen data (stored API objects,
 * journal entries, container logs) is shared with the live cluster and counted only in "as JSON".
 * Run alone: `npx tsx bench/snapshot.ts [nodes pods]`.
 */
import { Cluster } from '../src/lib/sim/cluster';
import { cpuSeconds, settledCluster } from './workload';

/** JSON length of `v` without the frozen (shared) objects inside it. */
function ownBytes(v: unknown): number {
  let root = true;
  return JSON.stringify(v, (_k, x) => {
    if (!root && x !== null && typeof x === 'object' && Object.isFrozen(x)) return 0;
    root = false;
    return x;
  }).length;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function ms(f: () => void): number {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

export async function measure(nodes: number, pods: number): Promise<string[]> {
  const { cluster } = settledCluster(nodes, pods);
  cluster.advance(60_000);
  let snap = cluster.snapshot();
  const takes: number[] = [];
  const restores: number[] = [];
  const c0 = cpuSeconds();
  for (let i = 0; i < 5; i++) {
    takes.push(ms(() => (snap = cluster.snapshot())));
    restores.push(ms(() => Cluster.restore(snap)));
  }
  const cpuPerPair = ((cpuSeconds() - c0) * 1000) / 5;
  let json = '';
  const stringify = ms(() => (json = JSON.stringify(snap)));
  const parsed = JSON.parse(json);
  const fromJson = ms(() => Cluster.restore(parsed));
  const parts = Object.entries(snap)
    .map(([k, v]) => [k, ownBytes(v)] as const)
    .filter(([, n]) => n > 50_000)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${mb(n)}`);
  return [
    `${nodes} nodes / ${pods} pods at t=${cluster.now / 1000}s: snapshot ${median(takes).toFixed(1)} ms, restore ${median(restores).toFixed(1)} ms wall (median of 5; ${cpuPerPair.toFixed(0)} ms CPU per snapshot + restore)`,
    `  size: own ${mb(ownBytes(snap))} (${parts.join(', ')}); as JSON ${mb(json.length)} (stringify ${stringify.toFixed(0)} ms, restore from parsed JSON ${fromJson.toFixed(0)} ms)`
  ];
}

export async function run(): Promise<string[]> {
  return [...(await measure(20, 600)), ...(await measure(100, 3000))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, p] = process.argv.slice(2).map(Number);
  for (const l of n ? await measure(n, p || n * 30) : await run()) console.log(l);
}
