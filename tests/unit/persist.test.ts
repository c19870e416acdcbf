import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DB_NAME,
  ImportError,
  closeDatabase,
  corruptRecords,
  exportAll,
  getProgress,
  getSetting,
  importAll,
  listProgress,
  listSandboxes,
  listSettings,
  onCorrupt,
  onProgressChange,
  putProgress,
  resetProgress,
  saveSandbox,
  setSetting,
  type CorruptRecord
} from '../../src/lib/persist';
import { clearCorruptReports } from '../../src/lib/persist/corrupt';
import { openDatabase } from '../../src/lib/persist/db';

beforeEach(async () => {
  await closeDatabase();
  globalThis.indexedDB = new IDBFactory();
  clearCorruptReports();
});

describe('database schema', () => {
  it('creates version 3 with the progress, sandboxes, settings, packs and drafts stores', async () => {
    const db = await openDatabase();
    expect(db.name).toBe(DB_NAME);
    expect(db.version).toBe(3);
    expect([...db.objectStoreNames].sort()).toEqual(['drafts', 'packs', 'progress', 'sandboxes', 'settings']);
    db.close();
  });

  it('migrates a version 1 database to version 2', async () => {
    const v1 = await openDatabase(1);
    expect([...v1.objectStoreNames].sort()).toEqual(['progress', 'settings']);
    await v1.put('progress', {
      slug: 'node-registration',
      completed: true,
      steps: ['register', 'renew-lease'],
      updatedAt: 1_700_000_000_000
    });
    await v1.put('progress', { slug: 'node-lease', completed: false, steps: ['read-lease'], updatedAt: 5 });
    await v1.put('settings', { name: 'locale', value: 'ru' });
    v1.close();

    expect(await listProgress()).toEqual([
      {
        schema: 2,
        slug: 'node-lease',
        status: 'started',
        completedSteps: ['read-lease'],
        hintsUsed: 0,
        startedAt: 5,
        updatedAt: 5
      },
      {
        schema: 2,
        slug: 'node-registration',
        status: 'completed',
        completedSteps: ['register', 'renew-lease'],
        hintsUsed: 0,
        startedAt: 1_700_000_000_000,
        updatedAt: 1_700_000_000_000,
        completedAt: 1_700_000_000_000
      }
    ]);
    expect(await getSetting('locale')).toBe('ru');
    expect(await listSandboxes()).toEqual([]);
    expect(corruptRecords()).toEqual([]);
  });
});

describe('corrupt records', () => {
  it('reports a record that fails to parse once and still loads the others', async () => {
    await putProgress({ slug: 'good', status: 'started' }, 10);
    const raw = await openDB(DB_NAME, 3);
    await raw.put('progress', { schema: 2, slug: 'broken', status: 42, completedSteps: [] });
    await raw.put('settings', { schema: 1, name: 'theme', value: 'dark' });
    raw.close();

    const seen: CorruptRecord[] = [];
    const stop = onCorrupt((r) => seen.push(r));
    expect((await listProgress()).map((p) => p.slug)).toEqual(['good']);
    expect((await listProgress()).map((p) => p.slug)).toEqual(['good']);
    expect(await getProgress('broken')).toBeUndefined();
    expect(await getSetting('theme')).toBeUndefined();
    expect(await listSettings()).toEqual([]);
    stop();

    expect(seen).toEqual([
      { store: 'progress', key: 'broken', reason: 'status must be "started" or "completed"' },
      { store: 'settings', key: 'theme', reason: 'schema is 1, expected 2' }
    ]);
    expect(corruptRecords()).toEqual(seen);
  });
});

describe('lesson progress', () => {
  it('keeps startedAt, sets completedAt once and updates updatedAt', async () => {
    await putProgress({ slug: 'taints', status: 'started', completedSteps: ['cordon'] }, 1000);
    await putProgress({ slug: 'taints', status: 'completed', completedSteps: ['cordon', 'drain'] }, 2000);
    await putProgress({ slug: 'taints', status: 'completed', hintsUsed: 1 }, 3000);
    expect(await getProgress('taints')).toEqual({
      schema: 2,
      slug: 'taints',
      status: 'completed',
      completedSteps: ['cordon', 'drain'],
      hintsUsed: 1,
      startedAt: 1000,
      updatedAt: 3000,
      completedAt: 2000
    });
  });

  it('two tabs saving the same lesson at once keep both ticks; starting over replaces them', async () => {
    // Tab A ticked "predict", tab B (which had not seen it) ticked "who-node": both writes in flight.
    await Promise.all([
      putProgress({ slug: '01-cluster-anatomy', status: 'started', completedSteps: ['predict'] }, 1000),
      putProgress(
        { slug: '01-cluster-anatomy', status: 'started', completedSteps: ['who-node'], hintsUsed: 2 },
        1001
      )
    ]);
    const both = await getProgress('01-cluster-anatomy');
    expect(both?.completedSteps).toEqual(['predict', 'who-node']);
    expect(both?.hintsUsed).toBe(2);
    // A stale tab saving "started" after the other completed the lesson does not undo it.
    await putProgress(
      { slug: '01-cluster-anatomy', status: 'completed', completedSteps: ['predict', 'who-node'] },
      2000
    );
    await putProgress(
      { slug: '01-cluster-anatomy', status: 'started', completedSteps: ['predict'], hintsUsed: 0 },
      3000
    );
    expect(await getProgress('01-cluster-anatomy')).toMatchObject({
      status: 'completed',
      completedSteps: ['predict', 'who-node'],
      hintsUsed: 2,
      completedAt: 2000,
      updatedAt: 3000
    });
    await putProgress(
      { slug: '01-cluster-anatomy', status: 'started', completedSteps: [], startOver: true },
      4000
    );
    const over = await getProgress('01-cluster-anatomy');
    expect(over).toMatchObject({ status: 'started', completedSteps: [], startedAt: 1000 });
    expect(over?.completedAt).toBeUndefined();
  });

  it('tells the other tabs which lesson changed once the write commits', async () => {
    const seen: (string | null)[] = [];
    const stop = onProgressChange((c) => seen.push(c.slug));
    await putProgress({ slug: '06-heartbeats', status: 'started' }, 10);
    await resetProgress();
    await vi.waitFor(() => expect(seen).toEqual(['06-heartbeats', null]));
    stop();
  });

  it('refuses an invalid write and leaves the stored record as it was', async () => {
    await putProgress({ slug: 'eviction', status: 'started' }, 1000);
    await expect(putProgress({ slug: 'eviction', status: 'done' as 'started' }, 2000)).rejects.toThrow(
      'refusing to save an invalid progress record: status must be "started" or "completed"'
    );
    expect((await getProgress('eviction'))?.updatedAt).toBe(1000);
  });

  it('resets progress but keeps sandboxes and settings', async () => {
    await putProgress({ slug: 'a', status: 'started' }, 1);
    await saveSandbox({ id: 'sb', name: 'mine', snapshot: { nodes: 3 } }, 1);
    await setSetting('theme', 'dark');
    await resetProgress();
    expect(await listProgress()).toEqual([]);
    expect((await listSandboxes()).map((s) => s.id)).toEqual(['sb']);
    expect(await getSetting('theme')).toBe('dark');
  });
});

describe('sandboxes and settings', () => {
  it('lists sandboxes newest first and keeps createdAt on overwrite', async () => {
    const first = await saveSandbox({ name: 'three nodes', snapshot: { time: 0 } }, 100);
    await saveSandbox({ id: 'partition', name: 'partition', snapshot: { time: 40_000 } }, 200);
    await saveSandbox({ id: first.id, name: 'three nodes, later', snapshot: { time: 90_000 } }, 300);
    const list = await listSandboxes();
    expect(list.map((s) => [s.name, s.createdAt, s.updatedAt])).toEqual([
      ['three nodes, later', 100, 300],
      ['partition', 200, 200]
    ]);
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('stores JSON setting values and refuses values that are not JSON', async () => {
    await setSetting('locale', 'ru');
    await setSetting('speed', 10);
    expect(await getSetting('locale')).toBe('ru');
    expect(await getSetting('speed')).toBe(10);
    expect(await getSetting('missing')).toBeUndefined();
    await expect(setSetting('bad', Number.NaN)).rejects.toThrow('value must be JSON');
  });
});

describe('export and import', () => {
  it('round-trips every store through JSON', async () => {
    await putProgress({ slug: 'lease', status: 'completed', completedSteps: ['x'] }, 50);
    await saveSandbox({ id: 's1', name: 'lab', snapshot: { a: [1, 2] }, scenario: 'nodes: 3\n' }, 60);
    await setSetting('locale', 'ru');
    const text = JSON.stringify(await exportAll(new Date('2026-01-02T03:04:05Z')));
    expect(JSON.parse(text)).toMatchObject({
      format: 'nodeplane-backup',
      version: 3,
      exportedAt: '2026-01-02T03:04:05.000Z'
    });

    await closeDatabase();
    globalThis.indexedDB = new IDBFactory();
    expect(await importAll(text)).toEqual({ progress: 1, sandboxes: 1, settings: 1, packs: 0, drafts: 0 });
    expect(await getProgress('lease')).toMatchObject({ status: 'completed', completedAt: 50 });
    expect((await listSandboxes())[0]).toMatchObject({ id: 's1', scenario: 'nodes: 3\n' });
    expect(await getSetting('locale')).toBe('ru');
  });

  it('writes nothing when one record is invalid', async () => {
    await setSetting('theme', 'light');
    const backup = await exportAll();
    backup.settings.push({ schema: 2, name: 'theme', value: 'dark' });
    const bad = { ...backup, progress: [{ schema: 2, slug: '', status: 'started' }] };
    const error = await importAll(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).issues).toEqual(['progress[0]: slug must be a non-empty string']);
    expect(await getSetting('theme')).toBe('light');
  });

  it('rejects text that is not a backup', async () => {
    await expect(importAll('{nope')).rejects.toThrow(/^not valid JSON/);
    await expect(importAll({ format: 'other' })).rejects.toThrow(
      'not a Nodeplane backup (format is missing)'
    );
    await expect(importAll({ format: 'nodeplane-backup', version: 9 })).rejects.toThrow(
      'backup version 9 is not supported (expected 2 or 3)'
    );
  });

  it('replaces the stores when asked', async () => {
    await putProgress({ slug: 'old', status: 'started' }, 1);
    const empty = {
      format: 'nodeplane-backup',
      version: 2,
      exportedAt: '',
      progress: [],
      sandboxes: [],
      settings: []
    };
    await importAll(empty, { replace: true });
    expect(await listProgress()).toEqual([]);
  });
});
