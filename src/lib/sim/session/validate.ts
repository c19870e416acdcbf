/**
 * The session's check of what arrives from the page: a message is `{ id, command }` with a known
 * command type and fields of the right types. Anything else is refused with a message that names
 * the field, before the session is touched.
 */
import { COMMAND_TYPES, SPEEDS, type CommandType } from './protocol';

type Check = (c: Record<string, unknown>) => string | undefined;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const str =
  (field: string, optional = false): Check =>
  (c) =>
    c[field] === undefined && optional
      ? undefined
      : typeof c[field] === 'string'
        ? undefined
        : `command.${field}: expected a string`;

const num =
  (field: string): Check =>
  (c) =>
    typeof c[field] === 'number' && Number.isFinite(c[field]) && (c[field] as number) >= 0
      ? undefined
      : `command.${field}: expected a number of milliseconds (0 or more)`;

const obj =
  (field: string, optional = false): Check =>
  (c) =>
    c[field] === undefined && optional
      ? undefined
      : isObj(c[field])
        ? undefined
        : `command.${field}: expected an object`;

function isRef(r: unknown): boolean {
  return (
    isObj(r) &&
    typeof r.kind === 'string' &&
    typeof r.name === 'string' &&
    (r.namespace === undefined || typeof r.namespace === 'string')
  );
}

function recording(path: string, r: unknown): string | undefined {
  if (!isObj(r)) return `${path}: expected a recording object`;
  if (typeof r.t !== 'number' || !Number.isFinite(r.t) || r.t < 0) return `${path}.t: expected a number`;
  if (!Array.isArray(r.actions)) return `${path}.actions: expected a list`;
  for (const [i, a] of r.actions.entries()) {
    if (!isObj(a) || typeof a.t !== 'number') return `${path}.actions[${i}]: expected an action with a time`;
    if (a.kind === 'fault' && typeof a.action === 'string') continue;
    if (a.kind === 'console' && typeof a.line === 'string') continue;
    if (a.kind === 'apply' && typeof a.yaml === 'string' && typeof a.fileName === 'string') continue;
    if (a.kind === 'edit' && typeof a.yaml === 'string' && typeof a.original === 'string' && isRef(a.ref))
      continue;
    return `${path}.actions[${i}]: unknown action`;
  }
  return undefined;
}

const CHECKS: Record<CommandType, Check[]> = {
  init: [
    obj('init'),
    (c) => {
      const i = c.init as Record<string, unknown>;
      if (typeof i.scenario !== 'string') return 'command.init.scenario: expected the scenario text';
      if (typeof i.fileName !== 'string') return 'command.init.fileName: expected a file name';
      if (i.recording !== undefined) return recording('command.init.recording', i.recording);
      if (i.warmupMs !== undefined && (typeof i.warmupMs !== 'number' || i.warmupMs < 0))
        return 'command.init.warmupMs: expected a number of milliseconds';
      if (i.autoplay !== undefined && typeof i.autoplay !== 'boolean')
        return 'command.init.autoplay: expected true or false';
      if (i.lang !== undefined && i.lang !== 'en' && i.lang !== 'ru')
        return 'command.init.lang: expected "en" or "ru"';
      return undefined;
    }
  ],
  play: [],
  pause: [],
  speed: [
    (c) =>
      SPEEDS.includes(c.speed as never) ? undefined : `command.speed: expected one of ${SPEEDS.join(', ')}`
  ],
  step: [],
  advance: [num('ms')],
  jump: [num('t')],
  reset: [],
  load: [(c) => recording('command.recording', c.recording)],
  fault: [str('action'), str('target', true), str('mode', true)],
  exec: [str('line')],
  interrupt: [],
  lang: [(c) => (c.lang === 'en' || c.lang === 'ru' ? undefined : 'command.lang: expected "en" or "ru"')],
  complete: [str('line')],
  apply: [str('yaml'), str('fileName', true)],
  edit: [
    str('yaml'),
    obj('ref'),
    (c) => (isRef(c.ref) ? undefined : 'command.ref: expected { kind, namespace?, name }')
  ],
  trace: [str('from'), str('to')],
  clearTrace: [],
  select: [
    (c) => {
      const s = c.selection;
      if (s === undefined) return undefined;
      if (!isObj(s)) return 'command.selection: expected an object';
      if (s.kind === 'node' && typeof s.name === 'string') return undefined;
      if (s.kind === 'pod' && typeof s.key === 'string') return undefined;
      if (s.kind === 'component' && typeof s.name === 'string') return undefined;
      return 'command.selection: expected a node, pod or component';
    }
  ],
  subscribe: [obj('subscriptions')],
  recording: [],
  eventLog: [],
  lesson: [
    obj('action'),
    (c) => {
      const a = c.action as Record<string, unknown>;
      switch (a.op) {
        case 'answer':
          return typeof a.id === 'string' && (typeof a.value === 'string' || typeof a.value === 'number')
            ? undefined
            : 'command.action: an answer needs a question id and a value';
        case 'restore': {
          const r = a.restore as Record<string, unknown> | undefined;
          if (!isObj(r)) return 'command.action.restore: expected an object';
          if (!isObj(r.answers)) return 'command.action.restore.answers: expected an object';
          if (!isObj(r.hints)) return 'command.action.restore.hints: expected an object';
          if (!Array.isArray(r.done) || r.done.some((d) => typeof d !== 'string'))
            return 'command.action.restore.done: expected a list of task ids';
          return typeof r.solutionViewed === 'boolean'
            ? undefined
            : 'command.action.restore.solutionViewed: expected true or false';
        }
        case 'resetLab':
        case 'startOver':
        case 'showSolution':
          return undefined;
        default:
          return `command.action.op: unknown lesson operation ${JSON.stringify(a.op)}`;
      }
    }
  ]
};

/** Why `data` is not a request the session accepts, or undefined when it is. */
export function checkCommand(data: unknown): string | undefined {
  if (!isObj(data)) return 'message: expected an object { id, command }';
  if (!Number.isInteger(data.id)) return 'message.id: expected an integer';
  const c = data.command;
  if (!isObj(c)) return 'message.command: expected an object with a "type"';
  if (typeof c.type !== 'string' || !COMMAND_TYPES.includes(c.type as CommandType))
    return `message.command.type: unknown command ${JSON.stringify(c.type)}`;
  for (const check of CHECKS[c.type as CommandType]) {
    const problem = check(c);
    if (problem) return problem;
  }
  return undefined;
}
