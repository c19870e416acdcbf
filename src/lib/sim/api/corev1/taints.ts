/**
 * Taints and tolerations (k8s.io/api/core/v1 toleration.go ToleratesTaint, well_known_taints.go,
 * and pkg/apis/core/v1/helper GetMatchingTolerations). Every component that asks "does this pod
 * tolerate that taint?" calls these.
 */
import type { Taint, Toleration } from '../types';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

type TolerationLike = Pick<Toleration, 'key' | 'operator' | 'value' | 'effect'>;
type TaintLike = Pick<Taint, 'key' | 'value' | 'effect'>;

/**
 * Toleration.ToleratesTaint: an empty effect matches every effect, an empty key (with Exists)
 * every key; Equal (or no operator) compares values; any other operator tolerates nothing.
 */
export function toleratesTaint(t: TolerationLike, taint: TaintLike): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** v1helper.TolerationsTolerateTaint: some toleration tolerates the taint. */
export function tolerationsTolerateTaint(
  tols: readonly TolerationLike[] | undefined,
  taint: TaintLike
): boolean {
  if (!tols) return false;
  for (const t of tols) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** The first toleration that tolerates the taint, if any. */
export function firstTolerating<T extends TolerationLike>(
  tols: readonly T[] | undefined,
  taint: TaintLike
): T | undefined {
  for (const t of tols ?? []) if (toleratesTaint(t, taint)) return t;
  return undefined;
}

/**
 * v1helper.GetMatchingTolerations: every taint must be tolerated; returns the first tolerating
 * toleration of each taint.
 */
export function getMatchingTolerations<T extends TolerationLike>(
  taints: readonly TaintLike[],
  tols: readonly T[] | undefined
): { allTolerated: boolean; used: T[] } {
  const used: T[] = [];
  for (const taint of taints) {
    const t = firstTolerating(tols, taint);
    if (!t) return { allTolerated: false, used: [] };
    used.push(t);
  }
  return { allTolerated: true, used };
}

/** The taints of the given effects that no toleration tolerates (v1helper.FindMatchingUntoleratedTaint, all of them). */
export function untoleratedTaints<T extends TaintLike>(
  taints: readonly T[] | undefined,
  tols: readonly TolerationLike[] | undefined,
  effects: readonly string[]
): T[] {
  return (taints ?? []).filter((t) => effects.includes(t.effect) && !tolerationsTolerateTaint(tols, t));
}

/** The taints of a Node object with the given effects that a pod does not tolerate. */
export function podUntoleratedTaints(
  pod: { spec?: { tolerations?: readonly TolerationLike[] } },
  node: { spec?: { taints?: readonly Taint[] } },
  effects: readonly string[]
): Taint[] {
  return untoleratedTaints(node.spec?.taints, pod.spec?.tolerations, effects);
}

/** Taint.MatchTaint: the same key and effect (the value does not count). */
export function sameTaint(a: TaintLike, b: TaintLike): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** pkg/util/taints TaintExists. */
export function taintExists(taints: readonly TaintLike[] | undefined, t: TaintLike): boolean {
  return (taints ?? []).some((x) => sameTaint(x, t));
}
