/**
 * Steady-state cost per engine handler: settle the benchmark cluster, then time (CPU, user + system) every event the
 * engine dispatches over a virtual window, grouped by component kind and event type (a kubelet's
 * `kubelet/worker-7` counts as `kubelet`; kube-controller-manager's events keep their
 * `<controller>:<type>` name). Watch handlers run inside the write that fires them, so their cost
 * is the writer's. Prints CPU ms per handler, its share, its count, and µs per node per period
 * (the handler's total over nodes × how many times it ran).
 * Run: `npx tsx bench/handlers.ts [nodes pods windowSeconds]`.
 */
import { performance } from 'node:perf_hooks';
import type { SimEvent } from '../src/lib/sim/engine/engine';
import { cpuSeconds, settledCluster } from './workload';

const [n = 100, p = n * 30, w = 120] = process.argv.slice(2).map(Number);
const { cluster } = settledCluster(n, p);
const engine = cluster.engine as unknown as { dispatch(ev: SimEvent): void };
const dispatch = engine.dispatch.bind(engine);
const byKey = new Map<string, { ms: number; count: number }>();
let total = 0;
/** Components with one instance per node (their target names the node): a period is already per node. */
const perNode = new Set<string>();
engine.dispatch = (ev: SimEvent) => {
  const t0 = process.cpuUsage();
  dispatch(ev);
  const d = process.cpuUsage(t0);
  const dt = (d.user + d.system) / 1000;
  total += dt;
  const slash = ev.target.indexOf('/');
  const key = `${slash < 0 ? ev.target : ev.target.slice(0, slash)} ${ev.type}`;
  if (slash >= 0) perNode.add(key.split(' ')[0]);
  const e = byKey.get(key) ?? { ms: 0, count: 0 };
  e.ms += dt;
  e.count++;
  byKey.set(key, e);
};
const start = cluster.now;
const c0 = cpuSeconds();
const w0 = performance.now();
cluster.runUntil(start + w * 1000);
const cpu = cpuSeconds() - c0;
const wall = performance.now() - w0;
console.log(
  `${n} nodes / ${p} pods, ${w} virtual s: ${cpu.toFixed(2)} s CPU (${(w / cpu).toFixed(0)} virtual s per CPU s), ` +
    `${wall.toFixed(0)} ms wall, ${total.toFixed(0)} ms in handlers`
);
const rows = [...byKey.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30);
for (const [key, { ms, count }] of rows) {
  console.log(
    `${key.padEnd(64)} ${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}% ` +
      `${String(count).padStart(7)}× ${((1000 * ms) / count).toFixed(1).padStart(9)} µs each ` +
      `${((1000 * ms) / count / (perNode.has(key.split(' ')[0]) ? 1 : n)).toFixed(2).padStart(8)} µs per node per period`
  );
}
