/** NodeName (Filter): a pod that names a node fits only that node. */
import { status, type NodeInfo, type Plugin, type PodInfo, type Status } from '../types';

export const Name = 'NodeName';
export const ErrReason = "node(s) didn't match the requested node name";

export function create(): Plugin {
  const filter = (pod: PodInfo, node: NodeInfo): Status | null => {
    const want = pod.pod.spec?.nodeName;
    if (!want || want === node.name) return null;
    return status('UnschedulableAndUnresolvable', ErrReason);
  };
  return {
    name: Name,
    filter: (_s, pod, node) => filter(pod, node),
    filterAll(_s, pod, nodes, out) {
      if (!pod.pod.spec?.nodeName) return 0;
      let failed = 0;
      for (let k = 0; k < nodes.length; k++) {
        if (out[k] !== null) continue;
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
