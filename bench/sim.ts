/**
 * Whole-cluster simulation speed: virtual seconds per wall second in steady state, for
 * 100 nodes / 3,000 pods and 1,000 nodes / 30,000 pods (kubelets with Leases and NodeStatus,
 * kube-controller-manager, kube-scheduler, networking). The cluster is built from a scenario,
 * run until every pod is Running (not timed as steady state), then timed over a virtual window.
 * Run alone: `npx tsx bench/sim.ts [nodes pods windowSeconds]`.
 */
import '../src/lib/sim/scenario/components';
import { createCluster } from '../src/lib/sim/scenario/bootstrap';
import type { KubeObject } from '../src/lib/sim/api/types';

function scenario(nodes: number, pods: number): string {
  const perDeployment = 100;
  const deployments = Math.ceil(pods / perDeployment);
  const docs = [
    `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: bench-${nodes}
spec:
  seed: 1
  nodePools:
    - name: worker
      count: ${nodes}
      capacity: { cpu: "32", memory: 128Gi }
      maxPods: 110
      images: [nginx:1.27]`
  ];
  for (let d = 0; d < deployments; d++) {
    const replicas = Math.min(perDeployment, pods - d * perDeployment);
    docs.push(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${d}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: app-${d} }
  template:
    metadata:
      labels: { app: app-${d} }
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources:
            requests: { cpu: 100m, memory: 128Mi }`);
  }
  return docs.join('\n---\n');
}

function runningPods(pods: KubeObject[]): number {
  return pods.filter((p) => p.status?.phase === 'Running').length;
}

export async function measure(nodes: number, pods: number, windowSeconds: number): Promise<string[]> {
  const t0 = process.hrtime.bigint();
  const { cluster } = createCluster(scenario(nodes, pods), { fileName: `bench-${nodes}.yaml` });
  const built = Number(process.hrtime.bigint() - t0) / 1e9;
  // Settle: run until every pod is Running (or 10 virtual minutes).
  const s0 = process.hrtime.bigint();
  for (let t = 10_000; t <= 600_000; t += 10_000) {
    cluster.runUntil(t);
    if (runningPods(cluster.api.list('Pod')) >= pods) break;
  }
  const settled = Number(process.hrtime.bigint() - s0) / 1e9;
  const settledAt = cluster.now;
  const running = runningPods(cluster.api.list('Pod'));
  const e0 = cluster.engine.processed;
  const w0 = process.hrtime.bigint();
  cluster.runUntil(settledAt + windowSeconds * 1000);
  const wall = Number(process.hrtime.bigint() - w0) / 1e9;
  const events = cluster.engine.processed - e0;
  const heap = process.memoryUsage();
  return [
    `${nodes} nodes / ${pods} pods: built in ${built.toFixed(1)} s; ${running} pods Running at t=${settledAt / 1000}s after ${settled.toFixed(1)} s wall`,
    `  steady state: ${windowSeconds} virtual s in ${wall.toFixed(2)} s wall = ${(windowSeconds / wall).toFixed(1)} virtual s per wall s (${Math.round(events / wall)} engine events/s)`,
    `  memory: heap ${(heap.heapUsed / 2 ** 20).toFixed(0)} MiB, rss ${(heap.rss / 2 ** 20).toFixed(0)} MiB`
  ];
}

export async function run(): Promise<string[]> {
  const lines = await measure(100, 3000, 600);
  // Settling 30,000 pods through the scheduler and kubelets takes far longer than the other
  // benchmarks today; it runs only when asked for.
  if (process.env.BENCH_LARGE) return [...lines, ...(await measure(1000, 30000, 120))];
  return [...lines, '1000 nodes / 30000 pods: not run (BENCH_LARGE=1 npm run bench -- sim runs it; slow)'];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, p, w] = process.argv.slice(2).map(Number);
  const lines = n ? await measure(n, p || n * 30, w || 300) : await run();
  for (const l of lines) console.log(l);
}
