/**
 * A lab that opens on a cluster already up: the scenario's start is played quietly, a second at a
 * time, until every kubelet's Node is Ready and no pod is still Pending — or the cap is reached
 * (a scenario may be broken on purpose: a node without a CNI never becomes Ready).
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';

/** Wall ms the quiet start may take before the lab opens anyway (200 nodes take minutes). */
export const WARMUP_WALL_MS = 10_000;

/** Every kubelet has registered a Ready Node and no pod waits to be scheduled or started. */
export function clusterUp(cluster: Cluster): boolean {
  const nodes = new Map(cluster.api.list<KubeObject>('Node').map((n) => [n.metadata.name, n]));
  for (const host of cluster.nodeHosts()) {
    const node = nodes.get(host.name);
    const ready = node?.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');
    if (ready?.status !== 'True') return false;
  }
  return !cluster.api.list<KubeObject>('Pod').some((p) => (p.status?.phase ?? 'Pending') === 'Pending');
}

/**
 * Run `cluster` forward in one-second steps until it is up, at most `capMs`; `afterStep` runs after
 * each second (the lesson's setup steps apply at their own times). Returns the virtual ms it ran.
 */
export function warmUp(
  advance: (ms: number) => void,
  cluster: () => Cluster,
  capMs: number,
  afterStep?: () => void,
  /** True once the learner has waited long enough (wall time): a large cluster opens still booting. */
  outOfTime: () => boolean = () => false
): number {
  const start = cluster().now;
  while (cluster().now - start < capMs) {
    advance(1000);
    afterStep?.();
    if (clusterUp(cluster()) || outOfTime()) break;
  }
  return cluster().now - start;
}
