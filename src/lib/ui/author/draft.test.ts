import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, getDraft, listDrafts, saveDraft } from '$lib/persist';
import { validatePack } from '$lib/packs/validate';
import { addExtra, templateLesson } from './files';
import { defaultManifest, draftName, fromDraftFiles, manifestFields, manifestYaml, packFiles } from './draft';

beforeEach(async () => {
  await closeDatabase();
  globalThis.indexedDB = new IDBFactory();
});

describe('an authoring draft', () => {
  const lesson = templateLesson();
  const manifest = {
    id: 'class-7b',
    title: 'Class 7B',
    author: 'A. Teacher',
    languages: ['en', 'ru'] as ('en' | 'ru')[],
    version: '1.2.0'
  };

  it('is the files of a one-lesson pack: pack.yaml and NN-slug/…, which the pack validator accepts', () => {
    const files = packFiles(lesson, manifest);
    expect(Object.keys(files).sort()).toEqual([
      '90-my-first-lesson/lesson.en.md',
      '90-my-first-lesson/lesson.ru.md',
      '90-my-first-lesson/lesson.yaml',
      '90-my-first-lesson/scenario.yaml',
      'pack.yaml'
    ]);
    expect(files['pack.yaml']).toBe(
      'id: class-7b\ntitle: Class 7B\nauthor: A. Teacher\nlanguages:\n  - en\n  - ru\nversion: 1.2.0\n'
    );
    const r = validatePack(files);
    expect(r.issues).toEqual([]);
    expect(r.pack?.manifest).toEqual(manifest);
    expect(r.pack?.lessons.map((l) => l.slug)).toEqual(['pack:class-7b/my-first-lesson']);
  });

  it('saves, lists and reopens with its folder, extra files and export form as they were', async () => {
    const withExtra = { ...lesson, files: addExtra(lesson.files, 'pod.yaml', 'kind: Pod\n').files! };
    const saved = await saveDraft({ name: draftName(withExtra), files: packFiles(withExtra, manifest) }, 100);
    expect(saved.name).toBe('My first lesson (90-my-first-lesson)');
    expect((await listDrafts()).map((d) => d.id)).toEqual([saved.id]);
    const back = fromDraftFiles((await getDraft(saved.id))!.files);
    expect(back.problem).toBeUndefined();
    expect(back.lesson).toEqual(withExtra);
    expect(back.manifest).toEqual(manifest);

    // Saving again under the same id overwrites it (autosave), keeping when it was created.
    const again = await saveDraft(
      { id: saved.id, name: saved.name, files: packFiles(lesson, manifest) },
      200
    );
    expect(again).toMatchObject({ id: saved.id, createdAt: 100, updatedAt: 200 });
    expect(await listDrafts()).toHaveLength(1);
  });

  it('refuses draft files that are not one lesson folder, naming the problem', () => {
    expect(fromDraftFiles({ 'pack.yaml': 'id: x' }).problem).toBe('a draft holds exactly one lesson folder');
    expect(fromDraftFiles({ 'a/lesson.yaml': '', 'b/lesson.yaml': '' }).problem).toBe(
      'a draft holds exactly one lesson folder'
    );
    expect(fromDraftFiles({ 'lesson/lesson.yaml': '' }).problem).toBe(
      'lesson: a lesson folder is named NN-slug, e.g. 90-my-first-lesson'
    );
    expect(fromDraftFiles({ '90-x/sub/a.yaml': '' }).problem).toBe(
      "90-x/sub/a.yaml: a lesson's files sit directly in its folder"
    );
  });

  it('reads the export form back from pack.yaml, with defaults for what is missing or unreadable', () => {
    expect(manifestFields(manifestYaml(manifest), lesson.dir)).toEqual(manifest);
    expect(manifestFields('title: { en: Nodes, ru: Узлы }\nlanguages: [ru, xx]\n', '90-nodes')).toEqual({
      id: 'nodes',
      title: 'Nodes',
      author: '',
      languages: ['ru'],
      version: '1.0.0'
    });
    expect(manifestFields('[not', '90-nodes')).toEqual(defaultManifest('90-nodes'));
  });
});
