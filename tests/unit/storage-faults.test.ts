/**
 * Storage faults: IndexedDB full, blocked by another tab on an older version, unavailable, and
 * hostile imports. Each says what happened in words a learner can act on and loses nothing that
 * was saved before. Plus the upgrade check: a database the current release wrote (a committed
 * fixture) opens with everything intact.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore as FakeObjectStore } from 'fake-indexeddb';
import { openDB } from 'idb';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DB_NAME,
  ImportError,
  StorageError,
  closeDatabase,
  getProgress,
  importAll,
  listProgress,
  listSandboxes,
  listSettings,
  putProgress,
  saveSandbox
} from '../../src/lib/persist';
import { BLOCKED_MESSAGE, UNAVAILABLE_MESSAGE, openDatabase } from '../../src/lib/persist/db';

const FIXTURE = JSON.parse(readFileSync('tests/fixtures/idb/nodeplane-v2.json', 'utf8')) as {
  progress: { slug: string }[];
  sandboxes: unknown[];
  settings: unknown[];
};

const realPut = FakeObjectStore.prototype.put;

beforeEach(async () => {
  await closeDatabase();
  globalThis.indexedDB = new IDBFactory();
});
afterEach(() => {
  FakeObjectStore.prototype.put = realPut;
});

describe('storage faults', () => {
  it('quota exceeded: the write is refused with a reason, and what was saved before is intact', async () => {
    const before = await putProgress({ slug: 'a', status: 'started', completedSteps: ['one'] }, 10);
    FakeObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const err = await putProgress(
      { slug: 'a', status: 'completed', completedSteps: ['one', 'two'] },
      20
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toBe(
      'browser storage is full (QuotaExceededError): this change was not saved; what was saved before is intact. Delete saved sandboxes or free disk space'
    );
    await expect(saveSandbox({ name: 'x', snapshot: {} })).rejects.toThrow(/^browser storage is full/);
    FakeObjectStore.prototype.put = realPut;
    expect(await getProgress('a')).toEqual(before);
    expect(await listSandboxes()).toEqual([]);
  });

  it('a blocked upgrade (another tab holds version 1 open) is refused with a reason, not a hang; then opens with the data', async () => {
    const old = await openDB(DB_NAME, 1, {
      upgrade: (db) => {
        db.createObjectStore('progress', { keyPath: 'slug' });
        db.createObjectStore('settings', { keyPath: 'name' });
      }
    });
    await old.put('progress', { slug: 'kept', completed: true, steps: ['s'], updatedAt: 5 });
    // The old tab ignores versionchange (an old release without the handler).
    const err = await listProgress().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as Error).message).toBe(BLOCKED_MESSAGE);
    old.close();
    expect((await listProgress()).map((p) => [p.slug, p.status])).toEqual([['kept', 'completed']]);
  });

  it('IndexedDB unavailable (private mode): every call says so', async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error: a browser without IndexedDB
    delete globalThis.indexedDB;
    try {
      await expect(putProgress({ slug: 'a', status: 'started' })).rejects.toThrow(UNAVAILABLE_MESSAGE);
      await expect(listProgress()).rejects.toThrow(UNAVAILABLE_MESSAGE);
    } finally {
      globalThis.indexedDB = saved;
    }
  });

  it.each([
    [
      '__proto__ key',
      '{"format":"nodeplane-backup","version":2,"progress":[],"sandboxes":[],"settings":[],"__proto__":{"polluted":1}}',
      '__proto__: a key named "__proto__" is not allowed'
    ],
    [
      'constructor key deep inside a record',
      JSON.stringify({
        format: 'nodeplane-backup',
        version: 2,
        progress: [{ ...FIXTURE.progress[0], state: { constructor: { prototype: { polluted: 1 } } } }],
        sandboxes: [],
        settings: []
      }),
      'progress[0].state.constructor: a key named "constructor" is not allowed'
    ],
    [
      'wrong types',
      '{"format":"nodeplane-backup","version":2,"progress":[{"schema":2,"slug":"x","status":"done"}],"sandboxes":{},"settings":[]}',
      'progress[0]: status must be "started" or "completed"; sandboxes must be a list'
    ],
    [
      'wrong schema',
      '{"format":"nodeplane-backup","version":9}',
      'backup version 9 is not supported (expected 2 or 3)'
    ],
    ['a huge file', ' '.repeat(51 * 1024 * 1024), 'the file is 51 MB; a Nodeplane backup is at most 50 MB']
  ])('an import with %s is rejected with a reason; existing progress untouched', async (_n, text, reason) => {
    const before = await putProgress({ slug: 'mine', status: 'started', completedSteps: ['x'] }, 10);
    const err = await importAll(text, { replace: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(reason);
    expect(await listProgress()).toEqual([before]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('upgrade', () => {
  it('a database written by the current release opens with all progress, sandboxes and settings intact', async () => {
    const raw = await openDatabase();
    for (const store of ['progress', 'sandboxes', 'settings'] as const)
      for (const r of FIXTURE[store]) await raw.put(store, r);
    raw.close();
    const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : 1);
    expect((await listProgress()).sort(bySlug)).toEqual([...FIXTURE.progress].sort(bySlug));
    expect(await listSandboxes()).toEqual(FIXTURE.sandboxes);
    expect(await listSettings()).toEqual(FIXTURE.settings);
  });
});
