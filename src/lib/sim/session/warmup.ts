/**
 * A lab that opens on a cluster already up: the scenario's start is played quietly, a second at a
 * time, until every kubelet's Node is Ready, no pod is still Pending and every Deployment and
 * DaemonSet has rolled out as `kubectl rollout status` sees it (kube-controller-manager creates 20
 * pods a second: between two batches no pod may be Pending while thousands are still to come).
 *
 * A scenario may be broken on purpose (a node without a CNI never becomes Ready, an image that
 * does not exist never pulls): the quiet start stops at its cap. Past the cap it goes on only while
 * the cluster is still coming up — a Node turned Ready, a pod started or a workload rolled out in
 * the last {@link PROGRESS_WINDOW_MS} — as a large cluster does for minutes, up to
 * {@link WARMUP_LIMIT_MS}.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { BootProgress } from './protocol';
import { rolloutStatus } from '../kubectl/commands/rollout';
import { readyCondition } from '../controllers/nodelifecycle/node_health';

/** Wall ms the quiet start may take before the lab opens anyway, still booting. */
export const WARMUP_WALL_MS = 20_000;
/** Past the cap, the quiet start goes on while the cluster progressed within this many virtual ms. */
export const PROGRESS_WINDOW_MS = 10_000;
/** The longest quiet start, however the cluster progresses (virtual ms). */
export const WARMUP_LIMIT_MS = 600_000;

export function bootProgress(cluster: Cluster): BootProgress {
  const nodes = new Map(cluster.api.list<KubeObject>('Node').map((n) => [n.metadata.name, n]));
  let nodesReady = 0;
  let count = 0;
  for (const host of cluster.nodeHosts()) {
    count++;
    const node = nodes.get(host.name);
    if (node && readyCondition(node)?.status === 'True') nodesReady++;
  }
  let podsStarted = 0;
  let podsPending = 0;
  for (const p of cluster.api.list<KubeObject>('Pod')) {
    const phase = p.status?.phase ?? 'Pending';
    if (phase === 'Pending') podsPending++;
    else if (phase === 'Running' || phase === 'Succeeded') podsStarted++;
  }
  let workloads = 0;
  let workloadsRolledOut = 0;
  for (const kind of ['Deployment', 'DaemonSet'])
    for (const w of cluster.api.list<KubeObject>(kind)) {
      workloads++;
      // A rollout past its progress deadline is done too (with an error): it waits no longer.
      if (rolloutStatus(w).done) workloadsRolledOut++;
    }
  return {
    now: cluster.now,
    nodes: count,
    nodesReady,
    podsStarted,
    podsPending,
    workloads,
    workloadsRolledOut
  };
}

/**
 * Every kubelet has registered a Ready Node, no pod waits to be scheduled or started and every
 * Deployment and DaemonSet has rolled out.
 */
export function clusterUp(cluster: Cluster): boolean {
  return isUp(bootProgress(cluster));
}

function isUp(p: BootProgress): boolean {
  return p.nodesReady === p.nodes && p.podsPending === 0 && p.workloadsRolledOut === p.workloads;
}

export interface WarmUpOptions {
  /** Runs after each second (the lesson's setup steps apply at their own times). */
  afterStep?: () => void;
  /** True once the learner has waited long enough (wall time): a large cluster opens still booting. */
  outOfTime?: () => boolean;
  /** Told how far the cluster has come, after each second. */
  progress?: (p: BootProgress) => void;
}

/**
 * Run `cluster` forward in one-second steps until it is up: at most `capMs`, or longer while it
 * still comes up (see the module's note). Returns the virtual ms it ran.
 */
export function warmUp(
  advance: (ms: number) => void,
  cluster: () => Cluster,
  capMs: number,
  opts: WarmUpOptions = {}
): number {
  const start = cluster().now;
  // The most Ready nodes, started pods and rolled-out workloads seen, and when that last grew.
  let best = -1;
  let grewAt = start;
  for (;;) {
    advance(1000);
    opts.afterStep?.();
    const p = bootProgress(cluster());
    opts.progress?.(p);
    if (isUp(p) || opts.outOfTime?.()) break;
    const reached = p.nodesReady + p.podsStarted + p.workloadsRolledOut;
    if (reached > best) {
      best = reached;
      grewAt = p.now;
    }
    const ran = p.now - start;
    if (ran >= WARMUP_LIMIT_MS) break;
    if (ran >= capMs && p.now - grewAt >= PROGRESS_WINDOW_MS) break;
  }
  return cluster().now - start;
}
