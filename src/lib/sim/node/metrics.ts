/**
 * The kubelet's /metrics (:10250) for what the simulation models (pkg/kubelet/metrics/metrics.go):
 * the node it runs as, the pods with a running sandbox and the containers by state.
 */
import type { Family } from '../metrics/exposition';
import type { Kubelet } from './kubelet';

const CONTAINER_STATES: Record<string, string> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_UNKNOWN: 'unknown'
};

export function kubeletFamilies(node: string, kubelet: Kubelet): Family[] {
  const rt = kubelet.runtime.state;
  const byState: Record<string, number> = {};
  for (const c of rt.containers) {
    const s = CONTAINER_STATES[c.state] ?? 'unknown';
    byState[s] = (byState[s] ?? 0) + 1;
  }
  return [
    {
      name: 'kubelet_node_name',
      help: "[ALPHA] The node's name. The count is always 1.",
      type: 'gauge',
      samples: [{ labels: { node }, value: 1 }]
    },
    {
      name: 'kubelet_running_pods',
      help: '[ALPHA] Number of pods that have a running pod sandbox',
      type: 'gauge',
      samples: [{ labels: {}, value: rt.sandboxes.filter((s) => s.state === 'SANDBOX_READY').length }]
    },
    {
      name: 'kubelet_running_containers',
      help: '[ALPHA] Number of containers currently running',
      type: 'gauge',
      samples: Object.entries(byState).map(([container_state, value]) => ({
        labels: { container_state },
        value
      }))
    }
  ];
}
