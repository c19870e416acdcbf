/** NodeName (Filter): a pod that names a node fits only that node. */
import { status, type Plugin } from '../types';

export const Name = 'NodeName';
export const ErrReason = "node(s) didn't match the requested node name";

export function create(): Plugin {
  return {
    name: Name,
    filter(_s, pod, node) {
      const want = pod.pod.spec?.nodeName;
      if (!want || want === node.name) return null;
      return status('UnschedulableAndUnresolvable', ErrReason);
    }
  };
}
