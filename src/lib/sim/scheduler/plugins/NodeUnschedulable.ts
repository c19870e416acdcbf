/** NodeUnschedulable (Filter): `spec.unschedulable` nodes, unless the pod tolerates the unschedulable taint. */
import { TAINT_UNSCHEDULABLE, tolerationsTolerateTaint } from '../../api/corev1/taints';
import { FLAG_UNSCHEDULABLE as UNSCHEDULABLE } from '../columns';
import type { KubeObject } from '../../api/types';
import type { QueueingHint } from '../events';
import { status, type NodeInfo, type Plugin, type PodInfo, type Status } from '../types';

export const Name = 'NodeUnschedulable';
export const ErrReasonUnschedulable = 'node(s) were unschedulable';
const unschedulableTaint = { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' };

/** isSchedulableAfterNodeChange: a node uncordoned, or added schedulable. */
export function isSchedulableAfterNodeChange(
  _pod: KubeObject,
  oldNode: KubeObject | undefined,
  newNode: KubeObject | undefined
): QueueingHint {
  if (!newNode) return 'QueueSkip';
  const was = !!oldNode?.spec?.unschedulable;
  const is = !!newNode.spec?.unschedulable;
  return (oldNode && was && !is) || (!oldNode && !is) ? 'Queue' : 'QueueSkip';
}

/** isSchedulableAfterPodTolerationChange: the waiting pod now tolerates the unschedulable taint. */
export function isSchedulableAfterPodTolerationChange(
  _pod: KubeObject,
  _old: KubeObject | undefined,
  newPod: KubeObject | undefined
): QueueingHint {
  return tolerationsTolerateTaint(newPod?.spec?.tolerations, unschedulableTaint) ? 'Queue' : 'QueueSkip';
}

export function create(): Plugin {
  const filter = (pod: PodInfo, node: NodeInfo): Status | null => {
    if (!node.unschedulable) return null;
    if (tolerationsTolerateTaint(pod.pod.spec?.tolerations, unschedulableTaint)) return null;
    return status('UnschedulableAndUnresolvable', ErrReasonUnschedulable);
  };
  return {
    name: Name,
    // With queueing hints: Node Add | UpdateNodeTaint (uncordon is one), and UpdatePodToleration.
    eventsToRegister: () => [
      { events: ['NodeAdd', 'NodeUpdateNodeTaint'], hint: isSchedulableAfterNodeChange },
      { events: ['UnschedulablePodUpdate'], hint: isSchedulableAfterPodTolerationChange }
    ],
    filter: (_s, pod, node) => filter(pod, node),
    filterAll(_s, pod, nodes, out, h, at) {
      const flags = at && h.columns ? h.columns.flags : null;
      let failed = 0;
      for (let k = 0; k < nodes.length; k++) {
        if (out[k] !== null) continue;
        if (flags ? (flags[at![k]] & UNSCHEDULABLE) === 0 : !nodes[k].unschedulable) continue;
        const st = filter(pod, nodes[k]);
        if (st) {
          out[k] = st;
          failed++;
        }
      }
      return failed;
    }
  };
}
