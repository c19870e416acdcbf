/**
 * Schema migrations, one per database version. `upgrade` runs every step between the version on
 * disk and the version being opened, inside IndexedDB's single versionchange transaction, so an
 * interrupted upgrade leaves the old database untouched.
 */
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { RECORD_SCHEMA } from './records';

type UpgradeDB = IDBPDatabase<unknown>;
type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;
type Migration = (db: UpgradeDB, tx: UpgradeTx) => Promise<void>;

/** v1 progress shape: `{ slug, completed, steps, updatedAt }`, no schema field. */
interface ProgressV1 {
  slug?: unknown;
  completed?: unknown;
  steps?: unknown;
  updatedAt?: unknown;
}

const migrations: Record<number, Migration> = {
  // v1: lesson progress and settings.
  1: async (db) => {
    db.createObjectStore('progress', { keyPath: 'slug' });
    db.createObjectStore('settings', { keyPath: 'name' });
  },
  // v2: saved sandboxes; progress gets a status and step list; every record carries `schema`.
  2: async (db, tx) => {
    db.createObjectStore('sandboxes', { keyPath: 'id' });
    let cursor = await tx.objectStore('progress').openCursor();
    while (cursor) {
      const old = cursor.value as ProgressV1;
      // A v1 record that is not even an object stays as it is; reading it later reports it.
      if (typeof old === 'object' && old !== null) {
        const at = typeof old.updatedAt === 'number' ? old.updatedAt : 0;
        await cursor.update({
          schema: RECORD_SCHEMA,
          slug: old.slug,
          status: old.completed === true ? 'completed' : 'started',
          completedSteps: Array.isArray(old.steps) ? old.steps : [],
          hintsUsed: 0,
          startedAt: at,
          updatedAt: at,
          ...(old.completed === true ? { completedAt: at } : {})
        });
      }
      cursor = await cursor.continue();
    }
    let settings = await tx.objectStore('settings').openCursor();
    while (settings) {
      const old = settings.value as Record<string, unknown>;
      if (typeof old === 'object' && old !== null) await settings.update({ ...old, schema: RECORD_SCHEMA });
      settings = await settings.continue();
    }
  },
  // v3: lesson packs imported by the learner and lesson drafts of the authoring view. Records of
  // the older stores keep their shape (and their `schema`).
  3: async (db) => {
    db.createObjectStore('packs', { keyPath: 'id' });
    db.createObjectStore('drafts', { keyPath: 'id' });
  }
};

export const LATEST_VERSION = 3;

export async function upgrade(
  db: UpgradeDB,
  oldVersion: number,
  newVersion: number,
  tx: UpgradeTx
): Promise<void> {
  for (let v = oldVersion + 1; v <= newVersion; v++) {
    const step = migrations[v];
    if (!step) throw new Error(`no migration to database version ${v}`);
    await step(db, tx);
  }
}
