/**
 * Export and import of everything the learner has stored, as one JSON document. An import is
 * validated completely first and then written in a single transaction: all of it or none of it.
 */
import { DB_VERSION, database, listProgress, listSandboxes, listSettings } from './db';
import {
  recordProblem,
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
}

export interface ImportResult {
  progress: number;
  sandboxes: number;
  settings: number;
}

export class ImportError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join('; '));
    this.name = 'ImportError';
  }
}

const STORES: StoreName[] = ['progress', 'sandboxes', 'settings'];

/** Every valid record (corrupt ones are reported and left out). */
export async function exportAll(now = new Date()): Promise<Backup> {
  const [progress, sandboxes, settings] = await Promise.all([
    listProgress(),
    listSandboxes(),
    listSettings()
  ]);
  return {
    format: BACKUP_FORMAT,
    version: DB_VERSION,
    exportedAt: now.toISOString(),
    progress,
    sandboxes,
    settings
  };
}

/** The problems that make `data` unusable as a backup; empty when it can be imported. */
export function backupIssues(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['not a Nodeplane backup'];
  const b = data as Record<string, unknown>;
  if (b.format !== BACKUP_FORMAT) return ['not a Nodeplane backup (format is missing)'];
  if (b.version !== DB_VERSION)
    return [`backup version ${JSON.stringify(b.version)} is not supported (expected ${DB_VERSION})`];
  const issues: string[] = [];
  for (const store of STORES) {
    const list = b[store];
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
export async function importAll(input: unknown, options: { replace?: boolean } = {}): Promise<ImportResult> {
  let data = input;
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
    for (const record of backup[store]) writes.push(tx.objectStore(store).put(record));
  }
  await Promise.all([...writes, tx.done]);
  return {
    progress: backup.progress.length,
    sandboxes: backup.sandboxes.length,
    settings: backup.settings.length
  };
}
