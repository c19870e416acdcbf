/**
 * Whole-cluster simulation speed: virtual seconds per wall second in steady state, for
 * 100 nodes / 3,000 pods and 1,000 nodes / 30,000 pods (kubelets with Leases and NodeStatus,
 * kube-controller-manager, kube-scheduler, networking). The cluster is built from a scenario,
 * run until every pod is Running (settling: reported, not part of the steady-state figure), then
 * timed over a virtual window.
 * Run alone: `npx tsx bench/sim.ts [nodes pods windowSeconds]`.
 */
import { cpuSeconds, runningPods, settledCluster } from './workload';

export async function measure(nodes: number, pods: number, windowSeconds: number): Promise<string[]> {
  const { cluster, buildS, settleS, settleCpuS } = settledCluster(nodes, pods);
  const settledAt = cluster.now;
  const running = runningPods(cluster);
  const e0 = cluster.engine.processed;
  const w0 = process.hrtime.bigint();
  const c0 = cpuSeconds();
  cluster.runUntil(settledAt + windowSeconds * 1000);
  const wall = Number(process.hrtime.bigint() - w0) / 1e9;
  const cpu = cpuSeconds() - c0;
  const events = cluster.engine.processed - e0;
  const heap = process.memoryUsage();
  return [
    `${nodes} nodes / ${pods} pods: built in ${buildS.toFixed(1)} s; settled (${running} pods Running at t=${settledAt / 1000}s) in ${settleS.toFixed(1)} s wall (${settleCpuS.toFixed(1)} s CPU)`,
    `  steady state: ${windowSeconds} virtual s in ${wall.toFixed(2)} s wall = ${(windowSeconds / wall).toFixed(1)} virtual s per wall s (${(windowSeconds / cpu).toFixed(1)} per CPU s; ${Math.round(events / wall)} engine events/s)`,
    `  memory: heap used ${(heap.heapUsed / 2 ** 20).toFixed(0)} MiB, rss ${(heap.rss / 2 ** 20).toFixed(0)} MiB`
  ];
}

export async function run(): Promise<string[]> {
  const lines = await measure(100, 3000, 600);
  // Settling 30,000 pods on 1,000 nodes schedules them one by one with explanations over
  // hundreds of nodes each: minutes of CPU, far more than the other benchmarks. Opt in.
  if (process.env.BENCH_LARGE) return [...lines, ...(await measure(1000, 30000, 120))];
  return [
    ...lines,
    '1000 nodes / 30000 pods: not run (BENCH_LARGE=1 npm run bench -- sim runs it; settling takes minutes)'
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, p, w] = process.argv.slice(2).map(Number);
  const lines = n ? await measure(n, p || n * 30, w || 300) : await run();
  for (const l of lines) console.log(l);
}
