/**
 * The kubelet service lifecycle as systemd and the kubelet itself go through it:
 * stopped → starting (flags parsed, runtime checked) → registering (POST Node until it sticks) →
 * running. A stop from any state returns to stopped. Driven with XState's pure `transition()` so
 * the snapshot's value and context are plain JSON in the kubelet component state.
 */
import { assign, setup, transition, type SnapshotFrom } from 'xstate';

export type KubeletLifecycleEvent =
  | { type: 'START'; at: number }
  | { type: 'REGISTER' }
  | { type: 'REGISTERED' }
  | { type: 'STOP'; at: number };

export interface KubeletLifecycleContext {
  /** How many times the service has been started. */
  starts: number;
  /** Virtual ms of the last start or stop (systemctl "since"). */
  since: number;
}

export type KubeletLifecycleValue = 'stopped' | 'starting' | 'registering' | 'running';

export const kubeletMachine = setup({
  types: {
    context: {} as KubeletLifecycleContext,
    events: {} as KubeletLifecycleEvent
  }
}).createMachine({
  id: 'kubelet',
  initial: 'stopped',
  context: { starts: 0, since: 0 },
  states: {
    stopped: {
      on: {
        START: {
          target: 'starting',
          actions: assign({ starts: ({ context }) => context.starts + 1, since: ({ event }) => event.at })
        }
      }
    },
    starting: { on: { REGISTER: 'registering' } },
    registering: { on: { REGISTERED: 'running' } },
    running: {}
  },
  on: {
    STOP: { target: '.stopped', actions: assign({ since: ({ event }) => event.at }) }
  }
});

export interface KubeletLifecycleJSON {
  value: KubeletLifecycleValue;
  context: KubeletLifecycleContext;
}

export function initialLifecycle(): KubeletLifecycleJSON {
  return { value: 'stopped', context: { starts: 0, since: 0 } };
}

/** Apply one event to a stored lifecycle; events that do not apply leave it unchanged. */
export function stepLifecycle(cur: KubeletLifecycleJSON, event: KubeletLifecycleEvent): KubeletLifecycleJSON {
  const snap = kubeletMachine.resolveState({ value: cur.value, context: cur.context }) as SnapshotFrom<
    typeof kubeletMachine
  >;
  if (cur.value === 'stopped' && event.type === 'STOP') return cur;
  const [next] = transition(kubeletMachine, snap, event);
  return { value: next.value as KubeletLifecycleValue, context: { ...next.context } };
}
