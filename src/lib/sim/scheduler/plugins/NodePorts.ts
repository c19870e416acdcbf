/** NodePorts (PreFilter, Filter): host ports must be free on the node (HostPortInfo.CheckConflict). */
import type { KubeObject } from '../../api/types';
import type { QueueingHint } from '../events';
import { newPodInfo } from '../nodeinfo';
import { status, type Plugin, type PodInfo } from '../types';

export const Name = 'NodePorts';
export const ErrReason = "node(s) didn't have free ports for the requested pod ports";

const ANY = '0.0.0.0';

type HostPort = PodInfo['hostPorts'][number];

/** HostPortInfo.CheckConflict for each wanted port: 0.0.0.0 conflicts with every address. */
function fitsPorts(want: readonly HostPort[], inUse: readonly HostPort[]): boolean {
  for (const w of want) {
    for (const used of inUse) {
      if (used.port !== w.port || used.protocol !== w.protocol) continue;
      if (w.hostIP === ANY || used.hostIP === ANY || used.hostIP === w.hostIP) return false;
    }
  }
  return true;
}

/** isSchedulableAfterPodDeleted: the deleted pod was on a node (or nominated) and held a port the pod wants. */
export function isSchedulableAfterPodDeleted(pod: KubeObject, deleted: KubeObject | undefined): QueueingHint {
  if (!deleted || (!deleted.spec?.nodeName && !deleted.status?.nominatedNodeName)) return 'QueueSkip';
  const freed = newPodInfo(deleted).hostPorts;
  if (!freed.length) return 'QueueSkip';
  return fitsPorts(newPodInfo(pod).hostPorts, freed) ? 'QueueSkip' : 'Queue';
}

export function create(): Plugin {
  return {
    name: Name,
    // Ports are immutable, so no Pod update; a Node Add always queues (no hint).
    eventsToRegister: () => [
      { events: ['AssignedPodDelete'], hint: isSchedulableAfterPodDeleted },
      { events: ['NodeAdd'] }
    ],
    preFilter(_s, pod) {
      return pod.hostPorts.length ? null : status('Skip');
    },
    filter(_s, pod, node) {
      return fitsPorts(pod.hostPorts, node.usedPorts) ? null : status('Unschedulable', ErrReason);
    }
  };
}
