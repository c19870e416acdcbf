/**
 * A node's health as the node lifecycle controller sees it (pkg/controller/nodelifecycle,
 * monitorNodeHealth and processTaintBaseEviction). The controller steps this machine on every
 * monitor pass (`--node-monitor-period`, 5 s) and performs the actions the transition names:
 * the machine is where the decision "observed Ready status + the taints on the node → which
 * taint to add or swap" is written down, once.
 *
 * - `registered`: the controller saw the Node for the first time ("Registered Node … in Controller").
 * - `ready`: the kubelet posts Ready=True; both NoExecute taints are removed.
 * - `unknown`: no proof of life for `--node-monitor-grace-period` (50 s since v1.32), so the
 *   controller wrote Ready=Unknown (NodeStatusUnknown); the node waits in its zone's rate-limited
 *   tainting queue (`--node-eviction-rate` 0.1 per second).
 * - `unreachableEvicting`: `node.kubernetes.io/unreachable:NoExecute` is on the node; the taint
 *   eviction controller deletes the pods that do not tolerate it (default tolerationSeconds 300).
 * - `notReady`: the kubelet itself posts Ready=False; queued for the not-ready taint.
 * - `notReadyEvicting`: `node.kubernetes.io/not-ready:NoExecute` is on the node.
 */
import { setup } from 'xstate';
import { stepRecord, type MachineAction } from './record';

export type ReadyStatus = 'True' | 'False' | 'Unknown';

export type NodeHealthEvent =
  /** A monitor pass: the Ready status observed at its start and the NoExecute taints on the node. */
  | { type: 'OBSERVED'; status: string; unreachableTaint: boolean; notReadyTaint: boolean }
  /** The controller wrote Ready=Unknown: the grace period passed without a heartbeat or Lease renewal. */
  | { type: 'GRACE_EXPIRED' }
  /** The rate-limited tainting pass added a NoExecute taint. */
  | { type: 'TAINTED'; taint: 'unreachable' | 'not-ready' }
  /** Every zone is fully disrupted: the controller assumes its own network is broken and untaints. */
  | { type: 'ALL_ZONES_DISRUPTED' };

export type NodeHealthValue =
  'registered' | 'ready' | 'unknown' | 'unreachableEvicting' | 'notReady' | 'notReadyEvicting';

const observed =
  (status: ReadyStatus) =>
  ({ event }: { event: NodeHealthEvent }): boolean =>
    event.type === 'OBSERVED' && event.status === status;

/** Actions name the controller's functions (node_lifecycle_controller.go). */
const noop = () => {};

export const nodeHealthMachine = setup({
  types: { events: {} as NodeHealthEvent },
  guards: {
    observedReady: observed('True'),
    observedNotReadyWithUnreachableTaint: ({ event }) =>
      event.type === 'OBSERVED' && event.status === 'False' && event.unreachableTaint,
    observedNotReadyWithNotReadyTaint: ({ event }) =>
      event.type === 'OBSERVED' && event.status === 'False' && event.notReadyTaint,
    observedNotReady: observed('False'),
    observedUnknownWithNotReadyTaint: ({ event }) =>
      event.type === 'OBSERVED' && event.status === 'Unknown' && event.notReadyTaint,
    observedUnknownWithUnreachableTaint: ({ event }) =>
      event.type === 'OBSERVED' && event.status === 'Unknown' && event.unreachableTaint,
    observedUnknown: observed('Unknown'),
    unreachableTaintAdded: ({ event }) => event.type === 'TAINTED' && event.taint === 'unreachable',
    notReadyTaintAdded: ({ event }) => event.type === 'TAINTED' && event.taint === 'not-ready'
  },
  actions: {
    markNodeAsReachable: noop,
    markNodeForTainting: noop,
    swapNodeControllerTaint: noop
  }
}).createMachine({
  id: 'nodeHealth',
  initial: 'registered',
  states: {
    registered: {
      description: 'The controller saw the Node for the first time (RegisteredNode).',
      on: { GRACE_EXPIRED: 'unknown' }
    },
    ready: {
      description: 'The kubelet posts Ready=True; the NoExecute taints are removed.',
      on: { GRACE_EXPIRED: 'unknown' }
    },
    unknown: {
      description:
        'No heartbeat or Lease renewal for --node-monitor-grace-period: Ready=Unknown (NodeStatusUnknown); queued for the unreachable taint.',
      on: { TAINTED: [{ guard: 'unreachableTaintAdded', target: 'unreachableEvicting' }] }
    },
    unreachableEvicting: {
      description:
        'node.kubernetes.io/unreachable:NoExecute is on the node: pods that do not tolerate it are evicted.',
      on: { ALL_ZONES_DISRUPTED: 'unknown' }
    },
    notReady: {
      description: 'The kubelet posts Ready=False; queued for the not-ready taint.',
      on: {
        GRACE_EXPIRED: 'unknown',
        TAINTED: [
          { guard: 'notReadyTaintAdded', target: 'notReadyEvicting' },
          { guard: 'unreachableTaintAdded', target: 'unreachableEvicting' }
        ]
      }
    },
    notReadyEvicting: {
      description:
        'node.kubernetes.io/not-ready:NoExecute is on the node: pods that do not tolerate it are evicted.',
      on: { ALL_ZONES_DISRUPTED: 'notReady' }
    }
  },
  // processTaintBaseEviction: the observed status decides, whatever the state was.
  on: {
    OBSERVED: [
      { guard: 'observedReady', target: '.ready', actions: 'markNodeAsReachable' },
      {
        guard: 'observedNotReadyWithUnreachableTaint',
        target: '.notReadyEvicting',
        actions: { type: 'swapNodeControllerTaint', params: { add: 'not-ready', remove: 'unreachable' } }
      },
      {
        guard: 'observedNotReadyWithNotReadyTaint',
        target: '.notReadyEvicting',
        actions: { type: 'markNodeForTainting', params: { status: 'False' } }
      },
      {
        guard: 'observedNotReady',
        target: '.notReady',
        actions: { type: 'markNodeForTainting', params: { status: 'False' } }
      },
      {
        guard: 'observedUnknownWithNotReadyTaint',
        target: '.unreachableEvicting',
        actions: { type: 'swapNodeControllerTaint', params: { add: 'unreachable', remove: 'not-ready' } }
      },
      {
        guard: 'observedUnknownWithUnreachableTaint',
        target: '.unreachableEvicting',
        actions: { type: 'markNodeForTainting', params: { status: 'Unknown' } }
      },
      {
        guard: 'observedUnknown',
        target: '.unknown',
        actions: { type: 'markNodeForTainting', params: { status: 'Unknown' } }
      }
    ]
  }
});

/** What an OBSERVED event does in one state: the state it leads to and the actions it names. */
export interface ObservedStep {
  readonly value: string;
  readonly actions: readonly MachineAction[];
}

/** value → observed status → taint bits (unreachable 1, not-ready 2) → step. */
const observedSteps = new Map<string, Map<string, ObservedStep[]>>();

/**
 * The machine's OBSERVED transition from state `value`, stepped with XState's pure `transition`
 * the first time a (state, status, taints) combination is seen and remembered after that. The
 * machine has no context, so the step is a function of these four inputs alone: every node in
 * the same state observing the same thing takes the same step, and a monitor pass over a node
 * whose health did not change costs a lookup instead of a transition.
 */
export function observedStep(
  value: string,
  status: string,
  unreachableTaint: boolean,
  notReadyTaint: boolean
): ObservedStep {
  const bits = (unreachableTaint ? 1 : 0) | (notReadyTaint ? 2 : 0);
  let byStatus = observedSteps.get(value);
  if (!byStatus) observedSteps.set(value, (byStatus = new Map()));
  let steps = byStatus.get(status);
  if (!steps) byStatus.set(status, (steps = []));
  let step = steps[bits];
  if (!step) {
    const event: NodeHealthEvent = { type: 'OBSERVED', status, unreachableTaint, notReadyTaint };
    const { record, actions } = stepRecord(nodeHealthMachine, { value, at: 0, path: [] }, event, 0);
    step = steps[bits] = Object.freeze({ value: record.value, actions: Object.freeze(actions) });
  }
  return step;
}
