/**
 * Record shapes stored in IndexedDB and their validators. Every record carries `schema`, the
 * version of the record shapes (2 since database version 2; version 3 added the `packs` and
 * `drafts` stores without changing any shape); a record that does not validate is reported and
 * skipped.
 */
import { SEMVER_RE } from '../packs/schema';

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

/** An accepted lesson pack (validated and replayed before it was saved). */
export interface PackRecord {
  schema: typeof RECORD_SCHEMA;
  /** The pack id from pack.yaml, the key. */
  id: string;
  manifest: {
    id: string;
    title: string | { en?: string; ru?: string };
    author: string;
    languages: ('en' | 'ru')[];
    version: string;
  };
  /** Path inside the pack → text, `pack.yaml` included. */
  files: Record<string, string>;
  /** When this version was imported. */
  importedAt: number;
  /** When the pack was first imported (kept across versions). */
  firstImportedAt: number;
}

/** A lesson being written in the authoring view: its files, not validated. */
export interface DraftRecord {
  schema: typeof RECORD_SCHEMA;
  id: string;
  name: string;
  /** File name → text (lesson.yaml, lesson.en.md, ...; a pack draft keys them by folder). */
  files: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export type StoreName = 'progress' | 'sandboxes' | 'settings' | 'packs' | 'drafts';

export interface StoreRecords {
  progress: ProgressRecord;
  sandboxes: SandboxRecord;
  settings: SettingRecord;
  packs: PackRecord;
  drafts: DraftRecord;
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

const isTextFiles = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const SLUG_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function manifestProblem(m: unknown, id: unknown): string | false {
  if (!isObject(m)) return 'manifest must be an object';
  const title = m.title;
  return (
    first(
      !(typeof m.id === 'string' && SLUG_RE.test(m.id)) && 'manifest.id must be a pack id',
      m.id !== id && 'manifest.id must equal id',
      !(
        (typeof title === 'string' && title.length > 0) ||
        (isObject(title) &&
          Object.keys(title).length > 0 &&
          Object.entries(title).every(([k, v]) => (k === 'en' || k === 'ru') && nonEmpty(v)))
      ) && 'manifest.title must be a string or one per language',
      !nonEmpty(m.author) && 'manifest.author must be a non-empty string',
      !(
        Array.isArray(m.languages) &&
        m.languages.length > 0 &&
        m.languages.every((l) => l === 'en' || l === 'ru')
      ) && 'manifest.languages must list en and/or ru',
      !(typeof m.version === 'string' && SEMVER_RE.test(m.version)) &&
        'manifest.version must be a semantic version'
    ) ?? false
  );
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
    first(!nonEmpty(r.name) && 'name must be a non-empty string', !isJson(r.value) && 'value must be JSON'),
  packs: (r) =>
    first(
      !(typeof r.id === 'string' && SLUG_RE.test(r.id)) && 'id must be a pack id',
      manifestProblem(r.manifest, r.id),
      !isTextFiles(r.files) && 'files must map paths to text',
      isTextFiles(r.files) && typeof r.files['pack.yaml'] !== 'string' && 'files must hold pack.yaml',
      !isTime(r.importedAt) && 'importedAt must be a time',
      !isTime(r.firstImportedAt) && 'firstImportedAt must be a time'
    ),
  drafts: (r) =>
    first(
      !nonEmpty(r.id) && 'id must be a non-empty string',
      typeof r.name !== 'string' && 'name must be a string',
      !isTextFiles(r.files) && 'files must map file names to text',
      !isTime(r.createdAt) && 'createdAt must be a time',
      !isTime(r.updatedAt) && 'updatedAt must be a time'
    )
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
