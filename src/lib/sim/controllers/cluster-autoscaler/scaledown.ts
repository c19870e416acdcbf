/**
 * Scale-down eligibility (cluster-autoscaler core/scaledown and utils/drain): a node is unneeded
 * when its CPU and memory requests are each below the utilization threshold and every pod on it
 * can move: no blocking pod, and the pods fit on the other nodes.
 */
import type { Cluster } from '../../cluster';
import type { KubeObject } from '../../api/types';
import { parseQuantity } from '../../api/quantity';
import { podDisruptionBudgetsFor } from '../../api/eviction';
import { simulateScheduling } from '../../scheduler/simulate';
import { getResource, podRequests } from '../../scheduler/resources';
import { controllerRef, podKey } from '../util/pods';

/** --scale-down-utilization-threshold */
export const UTILIZATION_THRESHOLD = 0.5;
export const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';
export const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
export const SCALE_DOWN_DISABLED = 'cluster-autoscaler.kubernetes.io/scale-down-disabled';
const MIRROR = 'kubernetes.io/config.mirror';

export interface Utilization {
  cpu: number;
  memory: number;
}

export function isDaemonSetPod(p: KubeObject): boolean {
  return controllerRef(p)?.kind === 'DaemonSet';
}

function isMirror(p: KubeObject): boolean {
  return !!p.metadata.annotations?.[MIRROR];
}

function activePods(cluster: Cluster, node: string): KubeObject[] {
  return cluster.api
    .podsOnNode<KubeObject>(node)
    .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** Requests over allocatable for cpu and memory, DaemonSet and mirror pods included. */
export function utilization(cluster: Cluster, node: KubeObject): Utilization {
  const alloc = (node.status?.allocatable ?? {}) as Record<string, string>;
  let cpu = 0;
  let memory = 0;
  for (const p of activePods(cluster, node.metadata.name)) {
    const r = podRequests(p);
    cpu += getResource(r, 'cpu');
    memory += getResource(r, 'memory');
  }
  const ac = parseQuantity(alloc.cpu ?? '0');
  const am = parseQuantity(alloc.memory ?? '0');
  return { cpu: ac ? cpu / ac : 0, memory: am ? memory / am : 0 };
}

/**
 * Why a pod keeps its node (drain.GetPodsForDeletionOnNodeDrain with CA's rules), or undefined
 * when it can be evicted. Messages are the ones CA logs for unremovable nodes.
 */
export function blockingReason(cluster: Cluster, p: KubeObject): string | undefined {
  const name = `${p.metadata.namespace}/${p.metadata.name}`;
  const safe = p.metadata.annotations?.[SAFE_TO_EVICT];
  if (safe === 'false') return `pod annotated as not safe to evict present: ${p.metadata.name}`;
  const pdbs = podDisruptionBudgetsFor(cluster, p);
  if (safe !== 'true') {
    if (!controllerRef(p)) return `${name} is not replicated`;
    if (p.metadata.namespace === 'kube-system' && !pdbs.length)
      return `non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: ${p.metadata.name}`;
    const local = ((p.spec?.volumes ?? []) as { hostPath?: unknown; emptyDir?: { medium?: string } }[]).some(
      (v) => v.hostPath || (v.emptyDir && v.emptyDir.medium !== 'Memory')
    );
    if (local) return `pod with local storage present: ${p.metadata.name}`;
  }
  for (const b of pdbs) {
    if ((b.status?.disruptionsAllowed ?? 0) < 1) return `not enough pod disruption budget to move ${name}`;
  }
  return undefined;
}

export interface NodeVerdict {
  unneeded: boolean;
  reason?: string;
  utilization: Utilization;
  /** Pods that must be rescheduled elsewhere (not DaemonSet or mirror pods). */
  podsToMove: string[];
}

/**
 * Decide for one node. `elsewhere` are the nodes its pods may move to (not the node itself, not
 * nodes being deleted).
 */
export function checkNode(cluster: Cluster, node: KubeObject, elsewhere: KubeObject[]): NodeVerdict {
  const u = utilization(cluster, node);
  const verdict = (reason: string): NodeVerdict => ({
    unneeded: false,
    reason,
    utilization: u,
    podsToMove: []
  });
  if (node.metadata.annotations?.[SCALE_DOWN_DISABLED] === 'true')
    return verdict('ScaleDownDisabledAnnotation');
  if (Math.max(u.cpu, u.memory) >= UTILIZATION_THRESHOLD) return verdict('NotUnderutilized');
  const pods = activePods(cluster, node.metadata.name).filter(
    (p) => !isDaemonSetPod(p) && !isMirror(p) && !p.metadata.deletionTimestamp
  );
  for (const p of pods) {
    const r = blockingReason(cluster, p);
    if (r) return verdict(r);
  }
  if (pods.length) {
    const others = new Set(elsewhere.map((n) => n.metadata.name));
    const bound = cluster.api
      .list<KubeObject>('Pod')
      .filter((p) => p.spec?.nodeName && others.has(p.spec.nodeName));
    const moving = pods.map((p) => {
      const c = structuredClone(p) as KubeObject;
      delete c.spec.nodeName;
      return c;
    });
    const res = simulateScheduling({
      nodes: elsewhere.filter((n) => !n.spec?.unschedulable),
      pods: [...bound, ...moving],
      explain: false
    });
    const stuck = res.pods.find((r) => !r.selectedNode);
    if (stuck) return verdict(`NoPlaceToMovePods: ${stuck.pod}`);
  }
  return { unneeded: true, utilization: u, podsToMove: pods.map(podKey) };
}
