/**
 * Time-travel snapshots: `cluster.snapshot()` and `Cluster.restore()` wall time, and size, for
 * 20 nodes / 600 pods (the lab at 60×) and 100 nodes / 3,000 pods, a minute after every pod is
 * Running, one every 10 virtual seconds as the lab takes them. "Copied state" is the JSON of what
 * the first snapshot copied of mutable state; frozen data (stored API objects, journal entries,
 * container logs) is shared with the live cluster and counted only in "as JSON". "New" is what a
 * snapshot holds that the one before it did not (what a snapshot adds to the lab's ring).
 * Run alone: `npx tsx bench/snapshot.ts [nodes pods]`.
 */
import { Cluster } from '../src/lib/sim/cluster';
import { isSnapshotCopy } from '../src/lib/sim/api/types';
import { cpuSeconds, settledCluster } from './workload';

/**
 * JSON length of what `v` holds by itself: the copies a snapshot made of mutable state, without
 * frozen data shared with the live cluster and without anything in `seen` (the previous
 * snapshot's objects, when counting what a snapshot added).
 */
function ownBytes(v: unknown, seen?: Set<object>): number {
  let root = true;
  return JSON.stringify(v, (_k, x) => {
    if (!root && x !== null && typeof x === 'object') {
      if (seen?.has(x)) return 0;
      if (Object.isFrozen(x) && !isSnapshotCopy(x)) return 0;
    }
    root = false;
    return x;
  }).length;
}

/** Every object reachable from `v`. */
function reachable(v: unknown, out = new Set<object>()): Set<object> {
  if (v === null || typeof v !== 'object' || out.has(v)) return out;
  out.add(v);
  for (const x of Object.values(v)) reachable(x, out);
  return out;
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
  const t0 = cluster.now;
  const first = cluster.snapshot();
  let prev = first;
  let snap = first;
  const takes: number[] = [];
  const restores: number[] = [];
  const added: number[] = [];
  let cpuTake = 0;
  let cpuRestore = 0;
  // As the lab takes them: one snapshot every 10 virtual seconds, each sharing with the last.
  for (let i = 0; i < 5; i++) {
    cluster.advance(10_000);
    const c0 = cpuSeconds();
    takes.push(ms(() => (snap = cluster.snapshot())));
    const c1 = cpuSeconds();
    restores.push(ms(() => Cluster.restore(snap)));
    cpuTake += c1 - c0;
    cpuRestore += cpuSeconds() - c1;
    added.push(ownBytes(snap, reachable(prev)));
    prev = snap;
  }
  let json = '';
  const stringify = ms(() => (json = JSON.stringify(snap)));
  const parsed = JSON.parse(json);
  const fromJson = ms(() => Cluster.restore(parsed));
  const parts = Object.entries(first)
    .map(([k, v]) => [k, ownBytes(v)] as const)
    .filter(([, n]) => n > 50_000)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${mb(n)}`);
  return [
    `${nodes} nodes / ${pods} pods from t=${t0 / 1000}s, one every 10 virtual s: snapshot ${median(takes).toFixed(1)} ms, restore ${median(restores).toFixed(1)} ms wall (median of 5; CPU ${((cpuTake * 1000) / 5).toFixed(0)} + ${((cpuRestore * 1000) / 5).toFixed(0)} ms, mean)`,
    `  size: copied state ${mb(ownBytes(first))} in the first (${parts.join(', ')}), new in each next one ${mb(median(added))} (median); as JSON ${mb(json.length)} (stringify ${stringify.toFixed(0)} ms, restore from parsed JSON ${fromJson.toFixed(0)} ms)`
  ];
}

export async function run(): Promise<string[]> {
  return [...(await measure(20, 600)), ...(await measure(100, 3000))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, p] = process.argv.slice(2).map(Number);
  for (const l of n ? await measure(n, p || n * 30) : await run()) console.log(l);
}
