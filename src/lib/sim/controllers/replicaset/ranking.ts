/**
 * Which pods a ReplicaSet deletes first when scaling down (pkg/controller/controller_utils.go
 * ActivePodsWithRanks.Less, with LogarithmicScaleDown on by default since v1.22).
 */
import type { ContainerStatus, KubeObject } from '../../api/types';
import { isPodReady, podCondition } from '../util/pods';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

function restarts(p: KubeObject): number {
  let max = 0;
  for (const s of (p.status?.containerStatuses ?? []) as ContainerStatus[])
    max = Math.max(max, s.restartCount ?? 0);
  return max;
}

function cost(p: KubeObject): number {
  const v = parseInt(p.metadata.annotations?.[DELETION_COST] ?? '0', 10);
  return Number.isFinite(v) ? v : 0;
}

/** floor(log2(age)) buckets in seconds, so pods of similar age rank the same. */
function logRank(tMs: number, nowMs: number): number {
  const d = (nowMs - tMs) / 1000;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

export interface RankedPod {
  pod: KubeObject;
  /** How many related pods share its node: doubled-up pods go first. */
  rank: number;
}

/** Negative when `a` should be deleted before `b`. */
export function compareForDeletion(
  a: RankedPod,
  b: RankedPod,
  nowMs: number,
  timeOf: (ts: string) => number
): number {
  const p1 = a.pod;
  const p2 = b.pod;
  const n1 = p1.spec?.nodeName ?? '';
  const n2 = p2.spec?.nodeName ?? '';
  if (n1 !== n2 && (!n1 || !n2)) return !n1 ? -1 : 1;
  const ph1 = PHASE_ORDINAL[p1.status?.phase ?? 'Pending'] ?? 0;
  const ph2 = PHASE_ORDINAL[p2.status?.phase ?? 'Pending'] ?? 0;
  if (ph1 !== ph2) return ph1 - ph2;
  const r1 = isPodReady(p1);
  const r2 = isPodReady(p2);
  if (r1 !== r2) return r1 ? 1 : -1;
  if (cost(p1) !== cost(p2)) return cost(p1) - cost(p2);
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (r1 && r2) {
    const t1 = timeOf(podCondition(p1, 'Ready')?.lastTransitionTime ?? '');
    const t2 = timeOf(podCondition(p2, 'Ready')?.lastTransitionTime ?? '');
    const d = logRank(t1, nowMs) - logRank(t2, nowMs);
    if (d !== 0) return d;
  }
  if (restarts(p1) !== restarts(p2)) return restarts(p2) - restarts(p1);
  const c1 = timeOf(p1.metadata.creationTimestamp ?? '');
  const c2 = timeOf(p2.metadata.creationTimestamp ?? '');
  const d = logRank(c1, nowMs) - logRank(c2, nowMs);
  if (d !== 0) return d;
  return (p1.metadata.uid ?? '') < (p2.metadata.uid ?? '') ? -1 : 1;
}
