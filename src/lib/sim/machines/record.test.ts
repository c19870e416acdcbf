/**
 * stepRecord keeps each (state, event) outcome per machine: the machines stepped with it have no
 * context, so the outcome must be the one XState's pure transition() gives for that state and event.
 */
import { describe, expect, it } from 'vitest';
import { getInitialSnapshot, transition, type AnyStateMachine, type StateValue } from 'xstate';
import { containerMachine, type ContainerEvent } from './container';
import { etcdMemberMachine } from './etcd-member';
import { nodeHealthMachine } from './node-health';
import { initialRecord, stepRecord, stringToValue, valueToString } from './record';

/** transition() from a stored value, as stepRecord did before it kept outcomes. */
function direct(machine: AnyStateMachine, value: string, event: { type: string }) {
  const snap = machine.resolveState({ value: stringToValue(value), context: undefined as never });
  const [next, acts] = transition(machine, snap, event);
  return {
    value: valueToString(next.value as StateValue),
    actions: acts
      .filter((a) => typeof a.type === 'string' && !a.type.startsWith('xstate.'))
      .map((a) => a.type)
  };
}

describe('stepRecord', () => {
  it('gives the outcome transition() gives for each container event, computed and kept alike', () => {
    const events: ContainerEvent[] = [
      { type: 'CREATING' },
      { type: 'PULL_FAILED' },
      { type: 'PULL_BACK_OFF' },
      { type: 'STARTED' },
      { type: 'EXITED', reason: 'Error' },
      { type: 'CRASH_BACK_OFF' },
      { type: 'STARTED' },
      { type: 'EXITED', reason: 'OOMKilled' },
      { type: 'CRASH_BACK_OFF' },
      { type: 'STARTED' },
      { type: 'EXITED', reason: 'Completed' }
    ];
    const walk = () => {
      let rec = initialRecord(containerMachine, 0);
      const values: string[] = [];
      for (const [i, e] of events.entries()) {
        const want = direct(containerMachine, rec.value, e);
        const r = stepRecord(containerMachine, rec, e, i);
        expect(r.record.value).toBe(want.value);
        expect(r.actions.map((a) => a.type)).toEqual(want.actions);
        rec = r.record;
        values.push(rec.value);
      }
      return values;
    };
    const first = walk();
    expect(walk()).toEqual(first);
    expect(first).toContain('terminated.OOMKilled');
    expect(first).toContain('waiting.CrashLoopBackOff');
    expect(first.at(-1)).toBe('terminated.Completed');
  });

  it('starts every record at the initial state of its machine', () => {
    for (const m of [containerMachine, etcdMemberMachine, nodeHealthMachine] as AnyStateMachine[]) {
      const value = valueToString(getInitialSnapshot(m).value as StateValue);
      expect(initialRecord(m, 5)).toEqual({ value, at: 5, path: [{ value, at: 5 }] });
      expect(initialRecord(m, 7)).toEqual({ value, at: 7, path: [{ value, at: 7 }] });
    }
  });
});
