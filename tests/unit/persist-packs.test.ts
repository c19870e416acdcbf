import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DB_NAME,
  closeDatabase,
  corruptRecords,
  getDraft,
  getPack,
  getProgress,
  getSetting,
  listDrafts,
  listPacks,
  listProgress,
  listSandboxes,
  PackVersionError,
  putProgress,
  removeDraft,
  removePack,
  saveDraft,
  savePack
} from '../../src/lib/persist';
import { clearCorruptReports } from '../../src/lib/persist/corrupt';
import { openDatabase } from '../../src/lib/persist/db';
import { packLessonKey } from '../../src/lib/packs/format';

beforeEach(async () => {
  await closeDatabase();
  globalThis.indexedDB = new IDBFactory();
  clearCorruptReports();
});

const manifest = (version: string) => ({
  id: 'night-shift',
  title: { en: 'Night shift', ru: 'Ночная смена' },
  author: 'Platform team',
  languages: ['en' as const, 'ru' as const],
  version
});
const files = (version: string) => ({ 'pack.yaml': `version: ${version}\n`, '01-cordon/lesson.yaml': 'x' });

describe('database version 3', () => {
  it('adds the packs and drafts stores to a version 2 database and keeps its data', async () => {
    const v2 = await openDatabase(2);
    await v2.put('progress', {
      schema: 2,
      slug: '06-heartbeats',
      status: 'completed',
      completedSteps: ['stop'],
      hintsUsed: 1,
      startedAt: 1,
      updatedAt: 2,
      completedAt: 2
    });
    await v2.put('settings', { schema: 2, name: 'locale', value: 'ru' });
    await v2.put('sandboxes', { schema: 2, id: 's', name: 'lab', snapshot: {}, createdAt: 1, updatedAt: 1 });
    v2.close();

    const db = await openDatabase();
    expect(db.version).toBe(3);
    expect([...db.objectStoreNames].sort()).toEqual(['drafts', 'packs', 'progress', 'sandboxes', 'settings']);
    expect(await listProgress()).toEqual([
      {
        schema: 2,
        slug: '06-heartbeats',
        status: 'completed',
        completedSteps: ['stop'],
        hintsUsed: 1,
        startedAt: 1,
        updatedAt: 2,
        completedAt: 2
      }
    ]);
    expect(await getSetting('locale')).toBe('ru');
    expect((await listSandboxes()).map((s) => s.id)).toEqual(['s']);
    expect(await listPacks()).toEqual([]);
    expect(await listDrafts()).toEqual([]);
    expect(corruptRecords()).toEqual([]);
  });
});

describe('lesson packs', () => {
  it('saves, lists, gets and removes a pack', async () => {
    const { record, replaced } = await savePack({ manifest: manifest('1.0.0'), files: files('1.0.0') }, 100);
    expect(replaced).toBeUndefined();
    expect(record).toEqual({
      schema: 2,
      id: 'night-shift',
      manifest: manifest('1.0.0'),
      files: files('1.0.0'),
      importedAt: 100,
      firstImportedAt: 100
    });
    expect(await listPacks()).toEqual([record]);
    expect(await getPack('night-shift')).toEqual(record);
    await removePack('night-shift');
    expect(await getPack('night-shift')).toBeUndefined();
  });

  it('a newer version replaces the old and the learner keeps the progress of its lessons', async () => {
    await savePack({ manifest: manifest('1.0.0'), files: files('1.0.0') }, 100);
    const key = packLessonKey('night-shift', 'cordon');
    await putProgress({ slug: key, status: 'started', completedSteps: ['cordon'] }, 150);

    const { record, replaced } = await savePack({ manifest: manifest('1.1.0'), files: files('1.1.0') }, 200);
    expect(replaced).toBe('1.0.0');
    expect(record).toMatchObject({ importedAt: 200, firstImportedAt: 100, manifest: { version: '1.1.0' } });
    expect((await listPacks()).map((p) => p.manifest.version)).toEqual(['1.1.0']);
    expect(await getProgress(key)).toMatchObject({
      slug: 'pack:night-shift/cordon',
      completedSteps: ['cordon']
    });

    // Removing the pack keeps the progress too: importing it again brings the lessons back as they were.
    await removePack('night-shift');
    expect(await getProgress(key)).toMatchObject({ completedSteps: ['cordon'] });
  });

  it('refuses an older version and changes nothing', async () => {
    await savePack({ manifest: manifest('1.2.0'), files: files('1.2.0') }, 100);
    const err = await savePack({ manifest: manifest('1.2.0-rc.1'), files: files('1.2.0-rc.1') }, 200).catch(
      (e: unknown) => e
    );
    expect(err).toBeInstanceOf(PackVersionError);
    expect((err as Error).message).toBe(
      'pack "night-shift" version 1.2.0-rc.1 is older than the installed version 1.2.0: remove the installed pack first to go back'
    );
    expect(await getPack('night-shift')).toMatchObject({ importedAt: 100, manifest: { version: '1.2.0' } });
  });

  it('refuses to save an invalid pack record', async () => {
    await expect(
      savePack({ manifest: { ...manifest('1'), version: 'one' }, files: files('1') })
    ).rejects.toThrow('refusing to save an invalid pack record: manifest.version must be a semantic version');
    await expect(savePack({ manifest: manifest('1.0.0'), files: { 'a/b': 'x' } })).rejects.toThrow(
      'refusing to save an invalid pack record: files must hold pack.yaml'
    );
    expect(await listPacks()).toEqual([]);
  });

  it('skips and reports a corrupt pack record; the others still load', async () => {
    await savePack({ manifest: manifest('1.0.0'), files: files('1.0.0') }, 100);
    const raw = await openDB(DB_NAME, 3);
    await raw.put('packs', { schema: 2, id: 'broken', manifest: { id: 'broken' }, files: {}, importedAt: 1 });
    await raw.put('packs', {
      schema: 2,
      id: 'evil',
      manifest: manifest('1.0.0'),
      files: { 'pack.yaml': 'x' },
      importedAt: 1,
      firstImportedAt: 1
    });
    raw.close();
    expect((await listPacks()).map((p) => p.id)).toEqual(['night-shift']);
    expect(await getPack('broken')).toBeUndefined();
    expect(corruptRecords()).toEqual([
      { store: 'packs', key: 'broken', reason: 'manifest.title must be a string or one per language' },
      { store: 'packs', key: 'evil', reason: 'manifest.id must equal id' }
    ]);
  });
});

describe('lesson drafts', () => {
  it('saves a new draft, overwrites it keeping createdAt, lists newest first and removes', async () => {
    const a = await saveDraft({ name: 'first', files: { 'lesson.yaml': 'a' } }, 10);
    const b = await saveDraft({ id: 'b', name: 'second', files: { 'lesson.yaml': 'b' } }, 20);
    const a2 = await saveDraft({ id: a.id, name: 'first, edited', files: { 'lesson.yaml': 'a2' } }, 30);
    expect(a2).toEqual({
      schema: 2,
      id: a.id,
      name: 'first, edited',
      files: { 'lesson.yaml': 'a2' },
      createdAt: 10,
      updatedAt: 30
    });
    expect((await listDrafts()).map((d) => d.name)).toEqual(['first, edited', 'second']);
    expect(await getDraft('b')).toEqual(b);
    await removeDraft(a.id);
    expect((await listDrafts()).map((d) => d.id)).toEqual(['b']);
    await expect(saveDraft({ name: 'x', files: { 'lesson.yaml': 1 as unknown as string } })).rejects.toThrow(
      'refusing to save an invalid drafts record: files must map file names to text'
    );
  });
});
