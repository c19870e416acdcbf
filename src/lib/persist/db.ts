/**
 * The learner's data in one IndexedDB database, `nodeplane`: lesson progress, saved sandboxes,
 * settings, imported lesson packs and lesson drafts. Each write is its own transaction (one record is written whole or not at all); reads
 * validate every record and skip, after reporting once, any that do not parse.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { announceProgress } from './channel';
import { reportCorrupt } from './corrupt';
import { compareVersions } from '../packs/format';
import { LATEST_VERSION, upgrade } from './migrations';
import {
  RECORD_SCHEMA,
  recordProblem,
  type DraftRecord,
  type JsonValue,
  type LessonStatus,
  type PackRecord,
  type ProgressRecord,
  type SandboxRecord,
  type SettingRecord,
  type StoreName,
  type StoreRecords
} from './records';

export const DB_NAME = 'nodeplane';
export const DB_VERSION = LATEST_VERSION;

let connection: Promise<IDBPDatabase<unknown>> | undefined;

export function storageAvailable(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** A storage failure in words a learner can act on; the page shows `message` and keeps going in memory. */
export class StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
  }
}

export const UNAVAILABLE_MESSAGE =
  'this browser does not allow storage here (private mode?): nothing is saved, the lab works in memory';
export const BLOCKED_MESSAGE =
  'another Nodeplane tab keeps an older version of the saved data open: close it (or reload it) to save here; nothing was lost';

/** Say what a failed IndexedDB request means; other errors pass through unchanged. */
export function describeStorageError(e: unknown): unknown {
  const name = (e as { name?: string } | null)?.name;
  if (name === 'QuotaExceededError')
    return new StorageError(
      'browser storage is full (QuotaExceededError): this change was not saved; what was saved before is intact. Delete saved sandboxes or free disk space',
      { cause: e }
    );
  if (name === 'InvalidStateError' || name === 'UnknownError' || name === 'AbortError')
    return new StorageError(`browser storage failed (${name}): this change was not saved`, { cause: e });
  return e;
}

/**
 * Open `nodeplane` at `version`, running the migrations from whatever is on disk. If another tab
 * holds an older version open and does not let go, the open is refused with BLOCKED_MESSAGE
 * instead of waiting forever.
 */
export function openDatabase(version = DB_VERSION): Promise<IDBPDatabase<unknown>> {
  if (!storageAvailable()) return Promise.reject(new StorageError(UNAVAILABLE_MESSAGE));
  return new Promise((resolve, reject) => {
    let blocked = false;
    openDB(DB_NAME, version, {
      upgrade: (db, oldVersion, newVersion, tx) => upgrade(db, oldVersion, newVersion ?? version, tx),
      blocked: () => {
        blocked = true;
        reject(new StorageError(BLOCKED_MESSAGE));
      },
      // A newer tab (a new app version) wants to upgrade: let it, and reopen on next use.
      blocking: () => closeDatabase(),
      terminated: () => {
        connection = undefined;
      }
    }).then(
      (db) => {
        // Opened after all, once the other tab let go: this caller was already told; the next opens anew.
        if (blocked) db.close();
        else resolve(db);
      },
      (e) => reject(describeStorageError(e))
    );
  });
}

/** The shared connection, opened on first use (and again after a failed open). */
export function database(): Promise<IDBPDatabase<unknown>> {
  connection ??= openDatabase().catch((e) => {
    connection = undefined;
    throw e;
  });
  return connection;
}

/** Close the shared connection; the next call reopens it. */
export async function closeDatabase(): Promise<void> {
  const open = connection;
  connection = undefined;
  if (open) (await open).close();
}

function valid<S extends StoreName>(store: S, key: IDBValidKey, value: unknown): value is StoreRecords[S] {
  const problem = recordProblem(store, value);
  if (problem) reportCorrupt(store, key, problem);
  return problem === null;
}

async function getValid<S extends StoreName>(store: S, key: string): Promise<StoreRecords[S] | undefined> {
  const value: unknown = await (await database()).get(store, key);
  if (value === undefined) return undefined;
  return valid(store, key, value) ? value : undefined;
}

async function listValid<S extends StoreName>(store: S): Promise<StoreRecords[S][]> {
  const tx = (await database()).transaction(store, 'readonly');
  const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll(), tx.done]);
  return values.filter((v: unknown, i): v is StoreRecords[S] => valid(store, keys[i], v));
}

async function put<S extends StoreName>(store: S, record: StoreRecords[S]): Promise<StoreRecords[S]> {
  const problem = recordProblem(store, record);
  if (problem) throw new TypeError(`refusing to save an invalid ${store} record: ${problem}`);
  try {
    await (await database()).put(store, record);
  } catch (e) {
    throw describeStorageError(e);
  }
  return record;
}

// --- lesson progress ---

export interface ProgressInput {
  slug: string;
  status: LessonStatus;
  completedSteps?: string[];
  hintsUsed?: number;
  state?: JsonValue;
  /**
   * The learner started the lesson over: `completedSteps` replaces the stored list. Otherwise a
   * tick stays a tick: the stored list and this one are joined, so a tab that had not seen another
   * tab's tick does not take it back.
   */
  startOver?: boolean;
}

export function getProgress(slug: string): Promise<ProgressRecord | undefined> {
  return getValid('progress', slug);
}

export function listProgress(): Promise<ProgressRecord[]> {
  return listValid('progress');
}

/**
 * Save a lesson's progress. Read-modify-write in one transaction, so two tabs saving at once
 * never lose `startedAt`/`completedAt` or each other's ticks: unless the learner started over,
 * the done tasks are the union of the stored and the given ones, a completed lesson stays
 * completed and hints used never go down. The other tabs are told once the write commits.
 */
export async function putProgress(input: ProgressInput, now = Date.now()): Promise<ProgressRecord> {
  const tx = (await database()).transaction('progress', 'readwrite');
  const previous: unknown = await tx.store.get(input.slug);
  const prev = recordProblem('progress', previous) === null ? (previous as ProgressRecord) : undefined;
  const keep = input.startOver ? undefined : prev;
  const given = input.completedSteps ?? prev?.completedSteps ?? [];
  const completedSteps = keep ? [...new Set([...keep.completedSteps, ...given])] : given;
  const status: LessonStatus = keep?.status === 'completed' ? 'completed' : input.status;
  const record: ProgressRecord = {
    schema: RECORD_SCHEMA,
    slug: input.slug,
    status,
    completedSteps,
    hintsUsed: Math.max(input.hintsUsed ?? prev?.hintsUsed ?? 0, keep?.hintsUsed ?? 0),
    startedAt: prev?.startedAt ?? now,
    updatedAt: now
  };
  const state = input.state ?? prev?.state;
  if (state !== undefined) record.state = state;
  const completedAt = status === 'completed' ? (keep?.completedAt ?? now) : undefined;
  if (completedAt !== undefined) record.completedAt = completedAt;
  const problem = recordProblem('progress', record);
  if (problem) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new TypeError(`refusing to save an invalid progress record: ${problem}`);
  }
  try {
    await Promise.all([tx.store.put(record), tx.done]);
  } catch (e) {
    throw describeStorageError(e);
  }
  announceProgress(input.slug);
  return record;
}

/** Delete every lesson's progress; sandboxes and settings stay. */
export async function resetProgress(): Promise<void> {
  await (await database()).clear('progress');
  announceProgress(null);
}

// --- saved sandboxes ---

export interface SandboxInput {
  /** Omit to save a new sandbox; pass an existing id to overwrite it. */
  id?: string;
  name: string;
  snapshot: JsonValue;
  scenario?: string;
}

export async function saveSandbox(input: SandboxInput, now = Date.now()): Promise<SandboxRecord> {
  const id = input.id ?? crypto.randomUUID();
  const previous = input.id ? await getValid('sandboxes', input.id) : undefined;
  const record: SandboxRecord = {
    schema: RECORD_SCHEMA,
    id,
    name: input.name,
    snapshot: input.snapshot,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now
  };
  if (input.scenario !== undefined) record.scenario = input.scenario;
  return put('sandboxes', record);
}

export function getSandbox(id: string): Promise<SandboxRecord | undefined> {
  return getValid('sandboxes', id);
}

/** Saved sandboxes, most recently saved first. */
export async function listSandboxes(): Promise<SandboxRecord[]> {
  return (await listValid('sandboxes')).sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function deleteSandbox(id: string): Promise<void> {
  await (await database()).delete('sandboxes', id);
}

// --- settings ---

export async function getSetting(name: string): Promise<JsonValue | undefined> {
  return (await getValid('settings', name))?.value;
}

export async function setSetting(name: string, value: JsonValue): Promise<void> {
  await put('settings', { schema: RECORD_SCHEMA, name, value } satisfies SettingRecord);
}

export async function listSettings(): Promise<SettingRecord[]> {
  return listValid('settings');
}

// --- lesson packs ---

/** A pack that is older than the one installed: refused, nothing changes. */
export class PackVersionError extends Error {
  constructor(
    readonly id: string,
    readonly installed: string,
    readonly offered: string
  ) {
    super(
      `pack "${id}" version ${offered} is older than the installed version ${installed}: remove the installed pack first to go back`
    );
    this.name = 'PackVersionError';
  }
}

export interface PackInput {
  manifest: PackRecord['manifest'];
  files: Record<string, string>;
}

/**
 * Save an accepted pack. A newer (or the same) version of an installed pack replaces it in one
 * transaction; an older one is refused with PackVersionError. Progress is kept: it is keyed by
 * `pack:<id>/<lesson name>`, not by version. Returns the record and the version it replaced.
 */
export async function savePack(
  input: PackInput,
  now = Date.now()
): Promise<{ record: PackRecord; replaced?: string }> {
  const tx = (await database()).transaction('packs', 'readwrite');
  const previous: unknown = await tx.store.get(input.manifest.id);
  const prev = recordProblem('packs', previous) === null ? (previous as PackRecord) : undefined;
  const abort = async (e: Error) => {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw e;
  };
  if (prev && compareVersions(input.manifest.version, prev.manifest.version) < 0)
    return abort(new PackVersionError(prev.id, prev.manifest.version, input.manifest.version));
  const record: PackRecord = {
    schema: RECORD_SCHEMA,
    id: input.manifest.id,
    manifest: input.manifest,
    files: input.files,
    importedAt: now,
    firstImportedAt: prev?.firstImportedAt ?? now
  };
  const problem = recordProblem('packs', record);
  if (problem) return abort(new TypeError(`refusing to save an invalid pack record: ${problem}`));
  try {
    await Promise.all([tx.store.put(record), tx.done]);
  } catch (e) {
    throw describeStorageError(e);
  }
  return { record, ...(prev ? { replaced: prev.manifest.version } : {}) };
}

/** Installed packs, by id. */
export async function listPacks(): Promise<PackRecord[]> {
  return (await listValid('packs')).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function getPack(id: string): Promise<PackRecord | undefined> {
  return getValid('packs', id);
}

/** Remove a pack; the progress of its lessons stays (importing it again brings it back). */
export async function removePack(id: string): Promise<void> {
  await (await database()).delete('packs', id);
}

// --- lesson drafts (authoring view) ---

export interface DraftInput {
  /** Omit to save a new draft; pass an existing id to overwrite it. */
  id?: string;
  name: string;
  files: Record<string, string>;
}

export async function saveDraft(input: DraftInput, now = Date.now()): Promise<DraftRecord> {
  const id = input.id ?? crypto.randomUUID();
  const previous = input.id ? await getValid('drafts', input.id) : undefined;
  return put('drafts', {
    schema: RECORD_SCHEMA,
    id,
    name: input.name,
    files: input.files,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now
  });
}

export function getDraft(id: string): Promise<DraftRecord | undefined> {
  return getValid('drafts', id);
}

/** Drafts, most recently saved first. */
export async function listDrafts(): Promise<DraftRecord[]> {
  return (await listValid('drafts')).sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function removeDraft(id: string): Promise<void> {
  await (await database()).delete('drafts', id);
}
