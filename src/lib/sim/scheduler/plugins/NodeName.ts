/** NodeName (Filter): a pod that names a node fits only that node. */
import type { KubeObject } from '../../api/types';
import type { QueueingHint } from '../events';
import { status, type NodeInfo, type Plugin, type PodInfo, type Status } from '../types';

export const Name = 'NodeName';
export const ErrReason = "node(s) didn't match the requested node name";

/** isSchedulableAfterNodeAdd: the added node is the one the pod names. */
export function isSchedulableAfterNodeAdd(
  pod: KubeObject,
  _old: KubeObject | undefined,
  added: KubeObject | undefined
): QueueingHint {
  const want = pod.spec?.nodeName;
  return !want || want === added?.metadata.name ? 'Queue' : 'QueueSkip';
}

export function create(): Plugin {
  const filter = (pod: PodInfo, node: NodeInfo): Status | null => {
    const want = pod.pod.spec?.nodeName;
    if (!want || want === node.name) return null;
    return status('UnschedulableAndUnresolvable', ErrReason);
  };
  return {
    name: Name,
    eventsToRegister: () => [{ events: ['NodeAdd'], hint: isSchedulableAfterNodeAdd }],
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
