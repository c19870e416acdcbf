/** NodeUnschedulable (Filter): `spec.unschedulable` nodes, unless the pod tolerates the unschedulable taint. */
import { TAINT_UNSCHEDULABLE, tolerationsTolerateTaint } from '../../api/corev1/taints';
import { FLAG_UNSCHEDULABLE as UNSCHEDULABLE } from '../columns';
import { status, type NodeInfo, type Plugin, type PodInfo, type Status } from '../types';

export const Name = 'NodeUnschedulable';
export const ErrReasonUnschedulable = 'node(s) were unschedulable';
const unschedulableTaint = { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' };

export function create(): Plugin {
  const filter = (pod: PodInfo, node: NodeInfo): Status | null => {
    if (!node.unschedulable) return null;
    if (tolerationsTolerateTaint(pod.pod.spec?.tolerations, unschedulableTaint)) return null;
    return status('UnschedulableAndUnresolvable', ErrReasonUnschedulable);
  };
  return {
    name: Name,
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
