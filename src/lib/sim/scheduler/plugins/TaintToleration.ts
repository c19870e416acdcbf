/**
 * TaintToleration (Filter, PreScore, Score): NoSchedule/NoExecute taints must be tolerated; the
 * score counts untolerated PreferNoSchedule taints, normalized in reverse.
 */
import type { KubeObject, Taint, Toleration } from '../../api/types';
import type { QueueingHint } from '../events';
import { normalizeByMax } from '../helpers';
import { tolerationsTolerateTaint } from '../../api/corev1/taints';
import { FLAG_TAINTED as TAINTED } from '../columns';
import { status, type NodeInfo, type Plugin, type Status } from '../types';

export const Name = 'TaintToleration';
/** v1.35 dropped the taint from the reason (the value may be sensitive, PR#134740). */
export const ErrReasonNotMatch = 'node(s) had untolerated taint(s)';

export function untoleratedReason(taint: Taint, minor: number): string {
  if (minor >= 35) return ErrReasonNotMatch;
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

const preScoreKey = 'PreScore' + Name;

/** FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc: a NoSchedule/NoExecute taint not tolerated. */
function hasUntoleratedTaint(node: KubeObject, tols: Toleration[] | undefined): boolean {
  for (const t of (node.spec?.taints ?? []) as Taint[]) {
    if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
    if (!tolerationsTolerateTaint(tols, t)) return true;
  }
  return false;
}

/** isSchedulableAfterNodeChange: the node had (or, added, has) no untolerated taint now, and had one before. */
export function isSchedulableAfterNodeChange(
  pod: KubeObject,
  oldNode: KubeObject | undefined,
  newNode: KubeObject | undefined
): QueueingHint {
  if (!newNode) return 'QueueSkip';
  const tols = pod.spec?.tolerations as Toleration[] | undefined;
  const wasUntolerated = oldNode ? hasUntoleratedTaint(oldNode, tols) : true;
  return wasUntolerated && !hasUntoleratedTaint(newNode, tols) ? 'Queue' : 'QueueSkip';
}

/** isSchedulableAfterPodTolerationChange: the waiting pod itself got a toleration. */
export const isSchedulableAfterPodTolerationChange = (): QueueingHint => 'Queue';

export function create(_args: unknown, ctx: { minor: number }): Plugin {
  const filter = (tols: Toleration[] | undefined, node: NodeInfo): Status | null => {
    const taints = node.taints;
    for (let i = 0; i < taints.length; i++) {
      const t = taints[i];
      if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
      if (!tolerationsTolerateTaint(tols, t)) {
        return status('UnschedulableAndUnresolvable', untoleratedReason(t, ctx.minor));
      }
    }
    return null;
  };
  const score = (tols: Toleration[], node: NodeInfo): number => {
    const taints = node.taints;
    let n = 0;
    for (let i = 0; i < taints.length; i++) {
      const t = taints[i];
      if (t.effect !== 'PreferNoSchedule') continue;
      if (!tolerationsTolerateTaint(tols, t)) n++;
    }
    return n;
  };
  return {
    name: Name,
    // With queueing hints: Node Add | UpdateNodeTaint, and the pod's own UpdatePodToleration.
    eventsToRegister: () => [
      { events: ['NodeAdd', 'NodeUpdateNodeTaint'], hint: isSchedulableAfterNodeChange },
      { events: ['UnschedulablePodUpdate'], hint: isSchedulableAfterPodTolerationChange }
    ],
    filter: (_s, pod, node) => filter(pod.pod.spec?.tolerations, node),
    filterAll(_s, pod, nodes, out, h, at) {
      const tols = pod.pod.spec?.tolerations as Toleration[] | undefined;
      const flags = at && h.columns ? h.columns.flags : null;
      let failed = 0;
      for (let k = 0; k < nodes.length; k++) {
        if (out[k] !== null) continue;
        if (flags ? (flags[at![k]] & TAINTED) === 0 : nodes[k].taints.length === 0) continue;
        const st = filter(tols, nodes[k]);
        if (st) {
          out[k] = st;
          failed++;
        }
      }
      return failed;
    },
    preScore(state, pod) {
      const tols = ((pod.pod.spec?.tolerations ?? []) as Toleration[]).filter(
        (t) => !t.effect || t.effect === 'PreferNoSchedule'
      );
      state.set(preScoreKey, tols);
      return null;
    },
    score: (state, _pod, node) => score((state.get(preScoreKey) ?? []) as Toleration[], node),
    scoreAll(state, _pod, nodes, out, h, at) {
      const tols = (state.get(preScoreKey) ?? []) as Toleration[];
      const flags = at && h.columns ? h.columns.flags : null;
      for (let i = 0; i < nodes.length; i++) {
        const tainted = flags ? (flags[at![i]] & TAINTED) !== 0 : nodes[i].taints.length > 0;
        out[i] = tainted ? score(tols, nodes[i]) : 0;
      }
    },
    normalizeScore(_s, _p, scores) {
      normalizeByMax(scores, true);
    }
  };
}
