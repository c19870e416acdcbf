/** NodeUnschedulable (Filter): `spec.unschedulable` nodes, unless the pod tolerates the unschedulable taint. */
import { tolerationsTolerateTaint } from '../helpers';
import { status, type Plugin } from '../types';

export const Name = 'NodeUnschedulable';
export const ErrReasonUnschedulable = 'node(s) were unschedulable';
const unschedulableTaint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export function create(): Plugin {
  return {
    name: Name,
    filter(_s, pod, node) {
      if (!node.node.spec?.unschedulable) return null;
      if (tolerationsTolerateTaint(pod.pod.spec?.tolerations, unschedulableTaint)) return null;
      return status('UnschedulableAndUnresolvable', ErrReasonUnschedulable);
    }
  };
}
