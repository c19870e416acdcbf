/**
 * kube-controller-manager's /metrics (:10257) for what the simulation models: each controller's
 * work queue (client-go's workqueue metrics, staging/src/k8s.io/client-go/util/workqueue and
 * component-base/metrics/prometheus/workqueue), the node lifecycle controller's evictions
 * (pkg/controller/nodelifecycle/metrics.go) and leader election
 * (component-base/metrics/prometheus/clientgo/leaderelection).
 */
import type { Family } from '../metrics/exposition';
import type { KubeControllerManager } from './kube-controller-manager';
import type { NodeLifecycleController } from './nodelifecycle/node_lifecycle_controller';

/** The name each controller gives its work queue upstream (workqueue.NewTypedRateLimitingQueueWithConfig). */
export const WORKQUEUE_NAMES: Readonly<Record<string, string>> = {
  'daemonset-controller': 'daemonset',
  'deployment-controller': 'deployment',
  'disruption-controller': 'disruption',
  'endpoints-controller': 'endpoint',
  'endpointslice-controller': 'endpoint_slice',
  'garbage-collector-controller': 'garbage_collector_attempt_to_delete',
  'node-lifecycle-controller': 'node_lifecycle_controller',
  'replicaset-controller': 'replicaset',
  'taint-eviction-controller': 'noexec_taint_pod'
};

export function leaderElectionFamily(lease: string, leading: boolean): Family {
  return {
    name: 'leader_election_master_status',
    help: "[ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
    type: 'gauge',
    samples: [{ labels: { name: lease }, value: leading ? 1 : 0 }]
  };
}

/**
 * The families one kube-controller-manager instance serves. A standby (not leading) has started
 * no controllers, so it reports only its leader-election status.
 */
export function controllerManagerFamilies(kcm: KubeControllerManager, leading: boolean): Family[] {
  const families: Family[] = [leaderElectionFamily('kube-controller-manager', leading)];
  if (!leading) return families;
  const queues = kcm.workQueues().filter((q) => WORKQUEUE_NAMES[q.controller]);
  families.push(
    {
      name: 'workqueue_depth',
      help: '[ALPHA] Current depth of workqueue',
      type: 'gauge',
      samples: queues.map((q) => ({ labels: { name: WORKQUEUE_NAMES[q.controller] }, value: q.depth }))
    },
    {
      name: 'workqueue_adds_total',
      help: '[ALPHA] Total number of adds handled by workqueue',
      type: 'counter',
      samples: queues.map((q) => ({ labels: { name: WORKQUEUE_NAMES[q.controller] }, value: q.adds }))
    }
  );
  const nlc = kcm.controllers.find((c) => c.name === 'node-lifecycle-controller') as
    NodeLifecycleController | undefined;
  const evictions = nlc?.evictionCounts() ?? {};
  families.push({
    name: 'node_collector_evictions_total',
    help: '[STABLE] Number of Node evictions that happened since current instance of NodeController started.',
    type: 'counter',
    samples: Object.entries(evictions).map(([zone, value]) => ({ labels: { zone }, value }))
  });
  return families;
}
