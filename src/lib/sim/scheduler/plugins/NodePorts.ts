/** NodePorts (PreFilter, Filter): host ports must be free on the node (HostPortInfo.CheckConflict). */
import { status, type Plugin } from '../types';

export const Name = 'NodePorts';
export const ErrReason = "node(s) didn't have free ports for the requested pod ports";

const ANY = '0.0.0.0';

export function create(): Plugin {
  return {
    name: Name,
    preFilter(_s, pod) {
      return pod.hostPorts.length ? null : status('Skip');
    },
    filter(_s, pod, node) {
      for (const want of pod.hostPorts) {
        for (const used of node.usedPorts) {
          if (used.port !== want.port || used.protocol !== want.protocol) continue;
          if (want.hostIP === ANY || used.hostIP === ANY || used.hostIP === want.hostIP) {
            return status('Unschedulable', ErrReason);
          }
        }
      }
      return null;
    }
  };
}
