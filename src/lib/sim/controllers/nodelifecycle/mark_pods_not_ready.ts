/**
 * controllerutil.MarkPodsNotReady: every pod on the node with a Ready condition gets Ready=False
 * and a Warning NodeNotReady event. Returns false when some update failed (retried next pass).
 */
import type { KubeObject, NodeCondition } from '../../api/types';
import { clone } from '../../api/types';
import type { ControllerHost } from '../controller';
import { podKey, updatePodCondition } from '../util/pods';

const SOURCE = { component: 'node-controller' };

export function markPodsNotReady(host: ControllerHost, nodeName: string, only?: string): boolean {
  const api = host.cluster.api;
  let ok = true;
  for (const pod of api.podsOnNode<KubeObject>(nodeName)) {
    if (only !== undefined && podKey(pod) !== only) continue;
    const ready = (pod.status?.conditions ?? []).find((c: NodeCondition) => c.type === 'Ready');
    if (!ready) continue;
    const upd = clone(pod);
    if (!updatePodCondition(upd.status, { ...ready, status: 'False' }, api.timestamp())) continue;
    try {
      api.update(upd, host.ctx, { subresource: 'status' });
    } catch (err) {
      if (api.tryGet('Pod', pod.metadata.namespace, pod.metadata.name)) {
        host.logError(`unable to mark pod ${podKey(pod)} NotReady`, err);
        ok = false;
      }
      continue;
    }
    host.cluster.recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready', SOURCE, host.ctx);
  }
  return ok;
}
