/**
 * What the engine keeps of a lifecycle machine per object: the state value (dotted for a nested
 * state, `waiting.ErrImagePull`), the event that moved it last with its virtual time, and the
 * path it took (bounded: older steps fold into a count). Plain JSON, so it lives in component
 * state and every snapshot carries it; a jump back restores it with the rest of the cluster.
 *
 * Machines are stepped with XState's pure `transition()`: no actor per object, so a cluster of
 * 150,000 pods costs one small record each, and the same events give the same records.
 */
import {
  getInitialSnapshot,
  transition,
  type AnyStateMachine,
  type EventObject,
  type StateValue
} from 'xstate';
import { deepFreeze } from '../api/types';

export interface MachineStep {
  /** The state entered. */
  value: string;
  /** The event type that entered it (absent for the initial state). */
  event?: string;
  /** Virtual ms. */
  at: number;
  /** What the owner adds about the step (a container's last exit reason, an observed status). */
  detail?: string;
}

export interface MachineRecord {
  value: string;
  at: number;
  event?: string;
  detail?: string;
  /** Oldest first; the last entry is the current state. */
  path: MachineStep[];
  /** Steps dropped from the front of `path`. */
  folded?: number;
}

/** How many steps of the path are kept per object. */
export const PATH_LIMIT = 12;

/** `{ waiting: 'ErrImagePull' }` → `waiting.ErrImagePull`. */
export function valueToString(v: StateValue): string {
  if (typeof v === 'string') return v;
  const [k] = Object.keys(v);
  const child = v[k];
  return child === undefined ? k : `${k}.${valueToString(child as StateValue)}`;
}

/** `waiting.ErrImagePull` → `{ waiting: 'ErrImagePull' }`. */
export function stringToValue(s: string): StateValue {
  const parts = s.split('.');
  let v: StateValue = parts[parts.length - 1];
  for (let i = parts.length - 2; i >= 0; i--) v = { [parts[i]]: v };
  return v;
}

/**
 * Records are frozen and replaced on every move (`moveRecord` copies the path), never changed, so
 * snapshots and every later version share the steps that did not change.
 */
export function initialRecord(machine: AnyStateMachine, at: number): MachineRecord {
  let value = initialValues.get(machine);
  if (value === undefined) {
    value = valueToString(getInitialSnapshot(machine).value as StateValue);
    initialValues.set(machine, value);
  }
  return deepFreeze({ value, at, path: [{ value, at }] });
}

/** A machine's initial state value (the same for every record: the machines here have no context). */
const initialValues = new WeakMap<AnyStateMachine, string>();

/**
 * The outcome of one event in one state, per machine: the machines stepped here have no context,
 * so the next value and the actions depend only on the state value and the event itself. Bounded:
 * past the limit a machine's table starts again.
 */
const steps = new WeakMap<AnyStateMachine, Map<string, { value: string; actions: MachineAction[] }>>();
const STEPS_LIMIT = 4096;

function step<E extends EventObject>(
  machine: AnyStateMachine,
  value: string,
  event: E
): { value: string; actions: MachineAction[] } {
  let table = steps.get(machine);
  if (!table) steps.set(machine, (table = new Map()));
  const key = value + '\u0000' + JSON.stringify(event);
  let hit = table.get(key);
  if (!hit) {
    const snap = machine.resolveState({ value: stringToValue(value), context: undefined as never });
    const [next, acts] = transition(machine, snap, event);
    const actions = acts
      .filter((a) => typeof a.type === 'string' && !a.type.startsWith('xstate.'))
      .map((a) => ({ type: a.type, ...(a.params ? { params: a.params as Record<string, unknown> } : {}) }));
    hit = { value: valueToString(next.value as StateValue), actions: deepFreeze(actions) };
    if (table.size >= STEPS_LIMIT) table.clear();
    table.set(key, hit);
  }
  return hit;
}

/** An action a transition asks its owner to perform, with the params the definition gives. */
export interface MachineAction {
  type: string;
  params?: Record<string, unknown>;
}

export interface StepResult {
  record: MachineRecord;
  actions: MachineAction[];
  /** The state value changed. */
  moved: boolean;
}

/**
 * Apply one event to a stored record. A transition to the same state keeps the record (and its
 * path) as it is but still returns the actions the definition names; an event the current state
 * does not take returns no actions.
 */
export function stepRecord<E extends EventObject>(
  machine: AnyStateMachine,
  rec: MachineRecord,
  event: E,
  at: number,
  detail?: string,
  limit = PATH_LIMIT
): StepResult {
  const { value, actions } = step(machine, rec.value, event);
  if (value === rec.value) return { record: rec, actions, moved: false };
  return { record: moveRecord(rec, value, event.type, at, detail, limit), actions, moved: true };
}

/**
 * Record a move its owner computed itself (a machine with context, stepped with the owner's own
 * snapshot): the new value, the event type that moved it, when; the path keeps `limit` steps.
 */
export function moveRecord(
  rec: MachineRecord,
  value: string,
  event: string,
  at: number,
  detail?: string,
  limit = PATH_LIMIT
): MachineRecord {
  const step: MachineStep = { value, event, at, ...(detail ? { detail } : {}) };
  const path = [...rec.path, step];
  let folded = rec.folded ?? 0;
  while (path.length > limit) {
    path.shift();
    folded++;
  }
  Object.freeze(step);
  return Object.freeze({ ...step, path: deepFreeze(path), ...(folded ? { folded } : {}) });
}
