/**
 * Record shapes stored in IndexedDB and their validators. Every record carries `schema`, the
 * database version that wrote it; a record that does not validate is reported and skipped.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const RECORD_SCHEMA = 2;

export type LessonStatus = 'started' | 'completed';

export interface ProgressRecord {
  schema: typeof RECORD_SCHEMA;
  /** Lesson slug, the key. */
  slug: string;
  status: LessonStatus;
  /** Ids of the lesson's tasks the learner has completed, in completion order. */
  completedSteps: string[];
  hintsUsed: number;
  /** Free-form lesson state the lesson player wants back (JSON). */
  state?: JsonValue;
  startedAt: number;
  updatedAt: number;
  completedAt?: number;
}

export interface SandboxRecord {
  schema: typeof RECORD_SCHEMA;
  id: string;
  name: string;
  /** A cluster snapshot (`cluster.snapshot()`), JSON. */
  snapshot: JsonValue;
  /** The scenario text it started from, if any. */
  scenario?: string;
  createdAt: number;
  updatedAt: number;
}

export interface SettingRecord {
  schema: typeof RECORD_SCHEMA;
  name: string;
  value: JsonValue;
}

export type StoreName = 'progress' | 'sandboxes' | 'settings';

export interface StoreRecords {
  progress: ProgressRecord;
  sandboxes: SandboxRecord;
  settings: SettingRecord;
}

/** Why a value is not a valid record, or null when it is. */
type Check = (value: Record<string, unknown>) => string | null;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;

export function isJson(v: unknown, depth = 0): v is JsonValue {
  if (depth > 64) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isObject(v)) return Object.values(v).every((x) => isJson(x, depth + 1));
  return false;
}

function first(...problems: (string | false)[]): string | null {
  return problems.find((p): p is string => typeof p === 'string') ?? null;
}

const checks: { [S in StoreName]: Check } = {
  progress: (r) =>
    first(
      !nonEmpty(r.slug) && 'slug must be a non-empty string',
      r.status !== 'started' && r.status !== 'completed' && 'status must be "started" or "completed"',
      !(Array.isArray(r.completedSteps) && r.completedSteps.every((s) => typeof s === 'string')) &&
        'completedSteps must be a list of strings',
      !(Number.isInteger(r.hintsUsed) && (r.hintsUsed as number) >= 0) && 'hintsUsed must be a whole number',
      r.state !== undefined && !isJson(r.state) && 'state must be JSON',
      !isTime(r.startedAt) && 'startedAt must be a time',
      !isTime(r.updatedAt) && 'updatedAt must be a time',
      r.completedAt !== undefined && !isTime(r.completedAt) && 'completedAt must be a time'
    ),
  sandboxes: (r) =>
    first(
      !nonEmpty(r.id) && 'id must be a non-empty string',
      typeof r.name !== 'string' && 'name must be a string',
      !isJson(r.snapshot) && 'snapshot must be JSON',
      r.scenario !== undefined && typeof r.scenario !== 'string' && 'scenario must be a string',
      !isTime(r.createdAt) && 'createdAt must be a time',
      !isTime(r.updatedAt) && 'updatedAt must be a time'
    ),
  settings: (r) =>
    first(!nonEmpty(r.name) && 'name must be a non-empty string', !isJson(r.value) && 'value must be JSON')
};

/** Null when `value` is a valid current record for `store`, else the first problem found. */
export function recordProblem(store: StoreName, value: unknown): string | null {
  if (!isObject(value)) return 'not an object';
  if (value.schema !== RECORD_SCHEMA)
    return `schema is ${JSON.stringify(value.schema)}, expected ${RECORD_SCHEMA}`;
  return checks[store](value);
}

export function isRecord<S extends StoreName>(store: S, value: unknown): value is StoreRecords[S] {
  return recordProblem(store, value) === null;
}
