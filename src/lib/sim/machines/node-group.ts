/**
 * A Cluster Autoscaler node group's activity, as its status ConfigMap
 * (`kube-system/cluster-autoscaler-status`) reports it per group: no activity, a scale-up in
 * progress, a backoff after a failed scale-up, scale-down candidates, nodes being deleted.
 *
 * The autoscaler (controllers/cluster-autoscaler/autoscaler.ts) steps one machine per node group
 * at the points of its loop where it decides: it asked the cloud for nodes (ScaledUpGroup), the
 * scale-up request is done (every new node registered) or timed out after
 * `--max-node-provision-time` (15 min: ScaleUpTimedOut, the group backs off 5 min, doubling to at
 * most 30 min, forgotten after 3 h of no failure), the backoff ran out, a node became unneeded,
 * a node was unneeded for `--scale-down-unneeded-time` (10 min) and its deletion started, the
 * deleted nodes are gone. Stepping only records; the loop decides as it did without it.
 */
import { setup } from 'xstate';

export type NodeGroupEvent =
  /** The loop raised the group's target size for unschedulable pods (ScaledUpGroup). */
  | { type: 'SCALE_UP' }
  /** Every node of the scale-up request has registered (clusterstate: the request is done). */
  | { type: 'NODES_REGISTERED' }
  /** The request is older than --max-node-provision-time: ScaleUpTimedOut, the group backs off. */
  | { type: 'SCALE_UP_TIMED_OUT' }
  /** The backoff's end passed: the group can be scaled up again. */
  | { type: 'BACKOFF_EXPIRED' }
  /** A node of the group is unneeded (under the utilization threshold, its pods fit elsewhere). */
  | { type: 'NODE_UNNEEDED' }
  /** No node of the group is unneeded any more. */
  | { type: 'NODES_NEEDED' }
  /** A node was unneeded for --scale-down-unneeded-time: tainted ToBeDeletedByClusterAutoscaler, drained, deleted. */
  | { type: 'SCALE_DOWN' }
  /** The nodes being deleted are gone. */
  | { type: 'NODES_DELETED' };

export type NodeGroupValue = 'idle' | 'scaleUpInFlight' | 'backoff' | 'scaleDownCandidate' | 'deleting';

export const nodeGroupMachine = setup({
  types: { events: {} as NodeGroupEvent }
}).createMachine({
  id: 'nodeGroup',
  initial: 'idle',
  states: {
    idle: {
      description: 'No activity: scaleUp NoActivity, scaleDown NoCandidates in the status ConfigMap.',
      on: { SCALE_UP: 'scaleUpInFlight', NODE_UNNEEDED: 'scaleDownCandidate' }
    },
    scaleUpInFlight: {
      description:
        'scaleUp InProgress: the cloud provider was asked for nodes; the loop waits for them to register (at most --max-node-provision-time, 15 min).',
      on: { NODES_REGISTERED: 'idle', SCALE_UP_TIMED_OUT: 'backoff' }
    },
    backoff: {
      description:
        'scaleUp Backoff: the scale-up failed; the group is skipped for 5 min, doubling with each failure to at most 30 min.',
      on: { BACKOFF_EXPIRED: 'idle' }
    },
    scaleDownCandidate: {
      description:
        'scaleDown CandidatesPresent: a node is unneeded; after --scale-down-unneeded-time (10 min) it is deleted.',
      on: { SCALE_UP: 'scaleUpInFlight', NODES_NEEDED: 'idle', SCALE_DOWN: 'deleting' }
    },
    deleting: {
      description:
        'A node is tainted ToBeDeletedByClusterAutoscaler, drained through the Eviction API and deleted.',
      on: { NODES_DELETED: 'idle', SCALE_UP: 'scaleUpInFlight' }
    }
  }
});
