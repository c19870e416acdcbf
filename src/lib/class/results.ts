/**
 * "My results": a learner's lesson progress as one JSON file a teacher collects, and the check the
 * teacher's class view (`/class`) runs on every file it imports. The shape is published as
 * `schemas/results.schema.json` and documented in docs/class.md; this validator is written by hand
 * (the app's Content-Security-Policy has no 'unsafe-eval', so no schema compiler runs in the
 * browser) and a unit test checks it agrees with the schema on valid and invalid files.
 */
import type { ProgressRecord } from '$lib/persist';
import { readState } from '$lib/ui/lessons/progress';

export const RESULTS_SCHEMA = 'nodeplane.results/v1';
export const RESULTS_SCHEMA_ID = 'https://nodeplane.dev/schemas/results.json';

/** Longest student name kept, in characters (Unicode code points). */
export const MAX_NAME = 80;
/** Bounds that keep one imported file small enough to read at once. */
export const MAX_FILE_BYTES = 1_000_000;
export const MAX_LESSONS = 500;
export const MAX_ITEMS = 200;
export const MAX_TEXT = 200;
export const MAX_SEED = 0xffffffff;

export interface ResultTask {
  id: string;
  done: boolean;
  /** Virtual ms of the lab clock when the task was done; null when not done or not recorded. */
  virtualMs: number | null;
  hints: number;
}

export interface ResultAnswer {
  question: string;
  value: string | number;
  correct: boolean;
  /** Times the learner checked an answer to this question (0 when not recorded). */
  tries: number;
}

export interface ResultLesson {
  slug: string;
  /** The lesson pack it came from (id and version); null for a lesson built into the app. */
  pack: { id: string; version: string } | null;
  title: string;
  status: 'started' | 'completed';
  tasks: ResultTask[];
  answers: ResultAnswer[];
  hintsUsed: number;
  solutionShown: boolean;
  /** Virtual ms of the lab clock when the last task was done; null until complete. */
  virtualMs: number | null;
  /** Wall-clock ms the lesson page was open and visible. */
  timeSpentMs: number;
  challenge: { variant: string; seed: number | null } | null;
  /** A solved challenge's score, 0-100; null otherwise. */
  score: number | null;
  startedAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export interface Results {
  schema: typeof RESULTS_SCHEMA;
  app: { version: string };
  /** The student's name as they typed it (trimmed). */
  student: string;
  exportedAt: string;
  lessons: ResultLesson[];
}

/** What the builder needs to know of a lesson the progress record belongs to. */
export interface LessonInfo {
  slug: string;
  title: string;
  /** Task ids in lesson order. */
  tasks: string[];
  pack: { id: string; version: string } | null;
}

const ID = /^[a-z0-9][-a-z0-9]*$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
/** Control characters are refused in names and titles (a CSV or a table cell shows them badly). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a typed name cannot be used, or null; the name is trimmed first. */
export function nameProblem(name: string): 'empty' | 'long' | 'control' | null {
  const n = name.trim();
  if (!n) return 'empty';
  if ([...n].length > MAX_NAME) return 'long';
  if (CONTROL.test(n)) return 'control';
  return null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One lesson's results from its progress record. */
export function lessonResults(record: ProgressRecord, info: LessonInfo): ResultLesson {
  const s = readState(record);
  const done = new Set(record.completedSteps);
  const ids = [...info.tasks, ...record.completedSteps.filter((id) => !info.tasks.includes(id))];
  const tasks: ResultTask[] = ids.map((id) => ({
    id,
    done: done.has(id),
    virtualMs: done.has(id) ? (s.taskDoneAt?.[id] ?? null) : null,
    hints: s.hints[id] ?? 0
  }));
  const answers: ResultAnswer[] = Object.entries(s.answers).map(([question, a]) => ({
    question,
    value: a.value,
    correct: a.correct,
    tries: s.tries?.[question] ?? 0
  }));
  const complete = record.status === 'completed';
  return {
    slug: info.slug,
    pack: info.pack ? { ...info.pack } : null,
    title: info.title,
    status: record.status,
    tasks,
    answers,
    hintsUsed: Object.values(s.hints).reduce((a, b) => a + b, 0),
    solutionShown: s.solutionViewed,
    virtualMs: complete ? (s.virtualDoneAt ?? null) : null,
    timeSpentMs: Math.round(s.timeSpentMs),
    challenge: s.challenge ? { variant: s.challenge.variant, seed: s.challenge.seed ?? null } : null,
    score: s.score !== undefined ? Math.round(s.score) : null,
    startedAt: iso(record.startedAt),
    updatedAt: iso(record.updatedAt),
    completedAt: complete && record.completedAt !== undefined ? iso(record.completedAt) : null
  };
}

/**
 * The results file of a student: every progress record whose lesson `lookup` knows (a record of a
 * lesson no longer in the app or its pack is left out), in the order of `records`.
 */
export function buildResults(opts: {
  student: string;
  records: ProgressRecord[];
  lookup: (key: string) => LessonInfo | undefined;
  appVersion: string;
  now: number;
}): Results {
  const problem = nameProblem(opts.student);
  if (problem) throw new Error(`student name: ${problem}`);
  const lessons: ResultLesson[] = [];
  for (const r of opts.records) {
    const info = opts.lookup(r.slug);
    if (info) lessons.push(lessonResults(r, { ...info, title: clip(info.title) }));
  }
  return {
    schema: RESULTS_SCHEMA,
    app: { version: clip(opts.appVersion) || 'unknown' },
    student: opts.student.trim(),
    exportedAt: iso(opts.now),
    lessons
  };
}

function clip(s: string): string {
  const chars = [...s.replace(CONTROL, ' ')];
  return chars.length > MAX_TEXT ? chars.slice(0, MAX_TEXT).join('') : chars.join('');
}

/** The file name for a student's results: `nodeplane-results-ana-lópez-2026-12-03.json`. */
export function resultsFileName(r: Results): string {
  const who =
    r.student
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'student';
  return `nodeplane-results-${who}-${r.exportedAt.slice(0, 10)}.json`;
}

// --- validation ---

/** What is wrong with a file: where (`lessons[1].tasks[0].virtualMs`, or `file`), and which rule. */
export interface Problem {
  path: string;
  code: ProblemCode;
  params: Record<string, string | number>;
}

/** The rules, worded in English; the class view words them in the teacher's language. */
export const PROBLEM_TEXT = {
  object: 'must be an object',
  missing: 'missing "{{field}}"',
  unknown: 'unknown field "{{field}}"',
  string: 'must be a string',
  empty: 'must not be empty',
  tooLong: 'must have at most {{max}} characters',
  control: 'must not contain control characters',
  id: 'must be lowercase letters, digits and dashes',
  time: 'must be a UTC time like 2026-12-03T09:30:00.000Z',
  boolean: 'must be true or false',
  whole: 'must be a whole number from 0 to {{max}}',
  ms: 'must be a number ≥ 0 or null',
  msRequired: 'must be a number ≥ 0',
  list: 'must be a list',
  tooMany: 'must have at most {{max}} entries',
  status: 'must be "started" or "completed"',
  value: 'must be a finite number or a string',
  schema: 'is {{found}}, expected "{{expected}}"',
  notJson: 'not JSON ({{message}})',
  tooBig: 'larger than {{max}} bytes'
} as const;
export type ProblemCode = keyof typeof PROBLEM_TEXT;

/** A problem in words: `path: rule` (the rule from `text`, English by default). */
export function describeProblem(
  p: Problem,
  text: (code: ProblemCode, params: Problem['params']) => string = (code, params) =>
    PROBLEM_TEXT[code].replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''))
): string {
  const rule = text(p.code, p.params);
  return p.path ? `${p.path}: ${rule}` : rule;
}

export type Validation = { ok: true; results: Results } | { ok: false; reason: string; problem: Problem };

type V = unknown;
const isObj = (v: V): v is Record<string, V> => typeof v === 'object' && v !== null && !Array.isArray(v);
const len = (s: string) => [...s].length;

class Invalid extends Error {
  constructor(readonly problem: Problem) {
    super(describeProblem(problem));
  }
}
const fail = (path: string, code: ProblemCode, params: Problem['params'] = {}): never => {
  throw new Invalid({ path, code, params });
};

function object(v: V, path: string, keys: readonly string[]): Record<string, V> {
  if (!isObj(v)) return fail(path, 'object');
  for (const k of keys) if (!Object.hasOwn(v, k)) fail(path, 'missing', { field: k });
  for (const k of Object.keys(v)) if (!keys.includes(k)) fail(path, 'unknown', { field: k });
  return v;
}
function text(v: V, path: string, max = MAX_TEXT, min = 0): string {
  if (typeof v !== 'string') return fail(path, 'string');
  if (len(v) < min) fail(path, 'empty');
  if (len(v) > max) fail(path, 'tooLong', { max });
  return v;
}
function plain(v: V, path: string, max: number): string {
  const s = text(v, path, max, 1);
  if (CONTROL.test(s)) fail(path, 'control');
  return s;
}
function id(v: V, path: string): string {
  const s = text(v, path, 100, 1);
  if (!ID.test(s)) fail(path, 'id');
  return s;
}
function time(v: V, path: string): string {
  if (typeof v !== 'string' || !TIME.test(v)) return fail(path, 'time');
  return v;
}
function bool(v: V, path: string): boolean {
  if (typeof v !== 'boolean') return fail(path, 'boolean');
  return v;
}
function count(v: V, path: string, max = 1_000_000): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > max) return fail(path, 'whole', { max });
  return v as number;
}
function ms(v: V, path: string): number | null {
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return fail(path, 'ms');
  return v;
}
function list(v: V, path: string, max: number): V[] {
  if (!Array.isArray(v)) return fail(path, 'list');
  if (v.length > max) fail(path, 'tooMany', { max });
  return v;
}

const LESSON_KEYS = [
  'slug',
  'pack',
  'title',
  'status',
  'tasks',
  'answers',
  'hintsUsed',
  'solutionShown',
  'virtualMs',
  'timeSpentMs',
  'challenge',
  'score',
  'startedAt',
  'updatedAt',
  'completedAt'
] as const;

function lesson(v: V, p: string): ResultLesson {
  const o = object(v, p, LESSON_KEYS);
  let pack: ResultLesson['pack'] = null;
  if (o.pack !== null) {
    const k = object(o.pack, `${p}.pack`, ['id', 'version']);
    pack = { id: id(k.id, `${p}.pack.id`), version: plain(k.version, `${p}.pack.version`, 50) };
  }
  if (o.status !== 'started' && o.status !== 'completed') fail(`${p}.status`, 'status');
  const tasks = list(o.tasks, `${p}.tasks`, MAX_ITEMS).map((t, i) => {
    const q = `${p}.tasks[${i}]`;
    const x = object(t, q, ['id', 'done', 'virtualMs', 'hints']);
    return {
      id: id(x.id, `${q}.id`),
      done: bool(x.done, `${q}.done`),
      virtualMs: ms(x.virtualMs, `${q}.virtualMs`),
      hints: count(x.hints, `${q}.hints`)
    };
  });
  const answers = list(o.answers, `${p}.answers`, MAX_ITEMS).map((a, i) => {
    const q = `${p}.answers[${i}]`;
    const x = object(a, q, ['question', 'value', 'correct', 'tries']);
    let value: string | number;
    if (typeof x.value === 'number') {
      if (!Number.isFinite(x.value)) fail(`${q}.value`, 'value');
      value = x.value;
    } else value = text(x.value, `${q}.value`, 1000);
    return {
      question: id(x.question, `${q}.question`),
      value,
      correct: bool(x.correct, `${q}.correct`),
      tries: count(x.tries, `${q}.tries`)
    };
  });
  let challenge: ResultLesson['challenge'] = null;
  if (o.challenge !== null) {
    const c = object(o.challenge, `${p}.challenge`, ['variant', 'seed']);
    challenge = {
      variant: id(c.variant, `${p}.challenge.variant`),
      seed: c.seed === null ? null : count(c.seed, `${p}.challenge.seed`, MAX_SEED)
    };
  }
  return {
    slug: id(o.slug, `${p}.slug`),
    pack,
    title: text(o.title, `${p}.title`),
    status: o.status as ResultLesson['status'],
    tasks,
    answers,
    hintsUsed: count(o.hintsUsed, `${p}.hintsUsed`),
    solutionShown: bool(o.solutionShown, `${p}.solutionShown`),
    virtualMs: ms(o.virtualMs, `${p}.virtualMs`),
    timeSpentMs: ms(o.timeSpentMs, `${p}.timeSpentMs`) ?? fail(`${p}.timeSpentMs`, 'msRequired'),
    challenge,
    score: o.score === null ? null : count(o.score, `${p}.score`, 100),
    startedAt: time(o.startedAt, `${p}.startedAt`),
    updatedAt: time(o.updatedAt, `${p}.updatedAt`),
    completedAt: o.completedAt === null ? null : time(o.completedAt, `${p}.completedAt`)
  };
}

/** Check a parsed results file; the reason names the first field that is wrong. */
export function validateResults(v: unknown): Validation {
  try {
    const o = object(v, 'file', ['schema', 'app', 'student', 'exportedAt', 'lessons']);
    if (o.schema !== RESULTS_SCHEMA)
      fail('schema', 'schema', { found: JSON.stringify(o.schema) ?? 'missing', expected: RESULTS_SCHEMA });
    const app = object(o.app, 'app', ['version']);
    return {
      ok: true,
      results: {
        schema: RESULTS_SCHEMA,
        app: { version: plain(app.version, 'app.version', MAX_TEXT) },
        student: plain(o.student, 'student', MAX_NAME),
        exportedAt: time(o.exportedAt, 'exportedAt'),
        lessons: list(o.lessons, 'lessons', MAX_LESSONS).map((l, i) => lesson(l, `lessons[${i}]`))
      }
    };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, reason: e.message, problem: e.problem };
    throw e;
  }
}

/** Read one file's text: JSON, then the results check. */
export function parseResults(text: string): Validation {
  if (text.length > MAX_FILE_BYTES)
    return invalid({ path: '', code: 'tooBig', params: { max: MAX_FILE_BYTES } });
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return invalid({
      path: '',
      code: 'notJson',
      params: { message: e instanceof Error ? e.message : String(e) }
    });
  }
  return validateResults(v);
}

function invalid(problem: Problem): Validation {
  return { ok: false, reason: describeProblem(problem), problem };
}
