/**
 * Export and import of everything the learner has stored, as one JSON document. An import is
 * validated completely first and then written in a single transaction: all of it or none of it.
 */
import { DB_VERSION, database, listDrafts, listPacks, listProgress, listSandboxes, listSettings } from './db';
import {
  recordProblem,
  type DraftRecord,
  type PackRecord,
  type ProgressRecord,
  type SandboxRecord,
  type SettingRecord,
  type StoreName
} from './records';

export const BACKUP_FORMAT = 'nodeplane-backup';

export interface Backup {
  format: typeof BACKUP_FORMAT;
  version: number;
  exportedAt: string;
  progress: ProgressRecord[];
  sandboxes: SandboxRecord[];
  settings: SettingRecord[];
  /** Imported lesson packs (since version 3; a version 2 backup has none). */
  packs: PackRecord[];
  /** Lesson drafts (since version 3). */
  drafts: DraftRecord[];
}

export interface ImportResult {
  progress: number;
  sandboxes: number;
  settings: number;
  packs: number;
  drafts: number;
}

export class ImportError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join('; '));
    this.name = 'ImportError';
  }
}

const STORES: StoreName[] = ['progress', 'sandboxes', 'settings', 'packs', 'drafts'];
/** Stores a backup of an older version does not have (read as empty). */
const ADDED_IN: Partial<Record<StoreName, number>> = { packs: 3, drafts: 3 };
/** Backup versions this app reads: version 3 only added stores, so a version 2 file still imports. */
const READABLE_VERSIONS = [2, DB_VERSION];

/** Every valid record (corrupt ones are reported and left out). */
export async function exportAll(now = new Date()): Promise<Backup> {
  const [progress, sandboxes, settings, packs, drafts] = await Promise.all([
    listProgress(),
    listSandboxes(),
    listSettings(),
    listPacks(),
    listDrafts()
  ]);
  return {
    format: BACKUP_FORMAT,
    version: DB_VERSION,
    exportedAt: now.toISOString(),
    progress,
    sandboxes,
    settings,
    packs,
    drafts
  };
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path of the first key that could reach an object's prototype once the data is merged or
 * copied by other code (`__proto__`, `constructor`, `prototype`), or null. JSON.parse keeps such
 * keys as plain own properties; refusing them keeps an imported file from carrying them anywhere.
 */
function forbiddenKey(v: unknown, path: string, depth = 0): string | null {
  if (depth > 64 || typeof v !== 'object' || v === null) return null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = forbiddenKey(v[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const k of Object.keys(v)) {
    const here = path ? `${path}.${k}` : k;
    if (FORBIDDEN_KEYS.has(k)) return here;
    const p = forbiddenKey((v as Record<string, unknown>)[k], here, depth + 1);
    if (p) return p;
  }
  return null;
}

/** The problems that make `data` unusable as a backup; empty when it can be imported. */
export function backupIssues(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['not a Nodeplane backup'];
  const b = data as Record<string, unknown>;
  const bad = forbiddenKey(b, '');
  if (bad) return [`${bad}: a key named "${bad.split(/[.[]/).pop()}" is not allowed`];
  if (b.format !== BACKUP_FORMAT) return ['not a Nodeplane backup (format is missing)'];
  if (!READABLE_VERSIONS.includes(b.version as number))
    return [
      `backup version ${JSON.stringify(b.version)} is not supported (expected ${READABLE_VERSIONS.join(' or ')})`
    ];
  const issues: string[] = [];
  for (const store of STORES) {
    const list = b[store];
    if (list === undefined && (b.version as number) < (ADDED_IN[store] ?? 0)) continue;
    if (!Array.isArray(list)) {
      issues.push(`${store} must be a list`);
      continue;
    }
    list.forEach((record, i) => {
      const problem = recordProblem(store, record);
      if (problem) issues.push(`${store}[${i}]: ${problem}`);
    });
  }
  return issues;
}

/**
 * Import a backup (a parsed object or its JSON text). Records replace those with the same key;
 * with `replace`, the stores are emptied first. Throws ImportError and writes nothing if any
 * record is invalid.
 */
/** Larger than any real backup (progress is a few KB a lesson; a saved sandbox, a recording). */
export const MAX_BACKUP_BYTES = 50 * 1024 * 1024;

export async function importAll(input: unknown, options: { replace?: boolean } = {}): Promise<ImportResult> {
  let data = input;
  if (typeof input === 'string' && input.length > MAX_BACKUP_BYTES)
    throw new ImportError([
      `the file is ${(input.length / 1024 / 1024).toFixed(0)} MB; a Nodeplane backup is at most ${MAX_BACKUP_BYTES / 1024 / 1024} MB`
    ]);
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (e) {
      throw new ImportError([`not valid JSON (${(e as Error).message})`]);
    }
  }
  const issues = backupIssues(data);
  if (issues.length) throw new ImportError(issues);
  const backup = data as Backup;
  const tx = (await database()).transaction(STORES, 'readwrite');
  const writes: Promise<unknown>[] = [];
  for (const store of STORES) {
    if (options.replace) writes.push(tx.objectStore(store).clear());
    for (const record of backup[store] ?? []) writes.push(tx.objectStore(store).put(record));
  }
  await Promise.all([...writes, tx.done]);
  return {
    progress: backup.progress.length,
    sandboxes: backup.sandboxes.length,
    settings: backup.settings.length,
    packs: backup.packs?.length ?? 0,
    drafts: backup.drafts?.length ?? 0
  };
}
