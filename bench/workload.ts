/**
 * The benchmark cluster: one node pool of identical workers and Deployments of 100 replicas
 * (100m CPU, 128Mi each) until the pod count is reached. Shared by bench/sim.ts and bench/snapshot.ts.
 */
import type { Cluster } from '../src/lib/sim/cluster';
import { createCluster } from '../src/lib/sim/scenario/bootstrap';
import type { KubeObject } from '../src/lib/sim/api/types';

/**
 * The pod network for `nodes` nodes: kubeadm's `--pod-network-cidr` must hold a /24 per node
 * (node-ipam-controller's `--node-cidr-mask-size`), so past 256 nodes the bench widens the default
 * 10.244.0.0/16, as an operator sizing a cluster that large would; without it every node past the
 * 256th gets CIDRNotAvailable on each of its status updates.
 */
export function podNetwork(nodes: number): string {
  if (nodes <= 256) return '';
  const prefix = 24 - Math.ceil(Math.log2(nodes));
  return `
  network:
    clusterCIDR: 10.0.0.0/${prefix}`;
}

/** A scenario's pool holds at most this many nodes. */
const POOL_MAX = 1000;

/** One pool of identical workers (`worker`); past 1,000 nodes, pools of 1,000 (`worker-a`, `worker-b`, …). */
function pools(nodes: number): string {
  const pool = (name: string, count: number) => `
    - name: ${name}
      count: ${count}
      capacity: { cpu: "32", memory: 128Gi }
      maxPods: 110
      images: [nginx:1.27]`;
  if (nodes <= POOL_MAX) return pool('worker', nodes);
  const out: string[] = [];
  for (let i = 0; i * POOL_MAX < nodes; i++)
    out.push(pool(`worker-${String.fromCharCode(97 + i)}`, Math.min(POOL_MAX, nodes - i * POOL_MAX)));
  return out.join('');
}

export function scenario(nodes: number, pods: number): string {
  const perDeployment = 100;
  const deployments = Math.ceil(pods / perDeployment);
  const docs = [
    `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: bench-${nodes}
spec:
  seed: 1
  nodePools:${pools(nodes)}${podNetwork(nodes)}`
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

/** The bench's own pods (its Deployments', in `default`) that are Running; kube-system's are not counted. */
export function runningPods(cluster: Cluster): number {
  return cluster.api
    .list<KubeObject>('Pod', { namespace: 'default' })
    .filter((p) => p.status?.phase === 'Running').length;
}

/**
 * Build the cluster and run it until every pod is Running, or until a horizon: 10 virtual minutes,
 * or longer for a large cluster — kube-controller-manager creates pods at its client's 20 requests
 * per second, so 30,000 pods need 1,500 virtual seconds — plus 5 minutes.
 */
export function settledCluster(
  nodes: number,
  pods: number
): { cluster: Cluster; buildS: number; settleS: number; settleCpuS: number } {
  const t0 = process.hrtime.bigint();
  const { cluster } = createCluster(scenario(nodes, pods), { fileName: `bench-${nodes}.yaml` });
  const buildS = Number(process.hrtime.bigint() - t0) / 1e9;
  const s0 = process.hrtime.bigint();
  const c0 = cpuSeconds();
  const horizon = Math.max(600_000, (pods / 20) * 1000 + 300_000);
  // The bench's own pods that are Running, kept from a watch (listing 30,000 pods every 10 virtual
  // seconds would be the bench's cost, not the cluster's); checked against a list at the end.
  const running = new Set<string>();
  const unwatch = cluster.api.watch('Pod', (type, pod) => {
    if ((pod.metadata.namespace ?? 'default') !== 'default') return;
    const key = pod.metadata.name;
    if (type !== 'DELETED' && pod.status?.phase === 'Running') running.add(key);
    else running.delete(key);
  });
  for (let t = 10_000; t <= horizon; t += 10_000) {
    cluster.runUntil(t);
    if (running.size >= pods) break;
  }
  unwatch();
  if (running.size !== runningPods(cluster))
    throw new Error('bench: the watched Running count drifted from a list');
  return {
    cluster,
    buildS,
    settleS: Number(process.hrtime.bigint() - s0) / 1e9,
    settleCpuS: cpuSeconds() - c0
  };
}

/** CPU time of this process (user + system): the figure to compare on a busy machine. */
export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
