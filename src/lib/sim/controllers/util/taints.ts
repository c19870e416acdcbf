/**
 * Taints and tolerations as the controllers judge them (k8s.io/api/core/v1 toleration.go and
 * pkg/util/taints), and the node-controller taint keys (well_known_taints.go).
 */
import type { Taint, Toleration } from '../../api/types';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

/** Toleration.ToleratesTaint: effect (empty = all), key (empty + Exists = all), operator. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tols: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tols ?? []).some((t) => toleratesTaint(t, taint));
}

/**
 * v1helper.GetMatchingTolerations: every taint must be tolerated; returns the first tolerating
 * toleration of each taint.
 */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tols: readonly Toleration[] | undefined
): { allTolerated: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = (tols ?? []).find((x) => toleratesTaint(x, taint));
    if (!t) return { allTolerated: false, used: [] };
    used.push(t);
  }
  return { allTolerated: true, used };
}

export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function taintExists(taints: readonly Taint[] | undefined, t: Taint): boolean {
  return (taints ?? []).some((x) => sameTaint(x, t));
}
