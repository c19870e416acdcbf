import { describe, expect, it } from 'vitest';
import { loadLesson } from '$lib/lessons/loader';
import { simRuntime } from '$lib/lessons/runtime';
import { replaySolution, startingStateFailures } from '$lib/lessons/session';
import { replayLesson } from '$lib/packs/replay';
import { validatePack } from '$lib/packs/validate';
import { defaultManifest, packFiles } from './draft';
import { LESSON_FILES, slugOf, templateLesson, TEMPLATE_DIR } from './files';

// The "New lesson" template must be a lesson the app accepts as is: the same loader and the same
// replay as `nodeplane lessons check` (cli/lessons.ts).
describe('the new-lesson template', () => {
  const t = templateLesson();

  it('has the four lesson files and a folder named NN-slug matching metadata.name', () => {
    expect(Object.keys(t.files).sort()).toEqual([...LESSON_FILES].sort());
    expect(t.dir).toBe(TEMPLATE_DIR);
    expect(t.files['lesson.yaml']).toContain(`name: ${slugOf(t.dir)}\n`);
  });

  it('loads in English and Russian with one task and one question', () => {
    const lesson = loadLesson(t.dir, t.files);
    expect(lesson.slug).toBe('90-my-first-lesson');
    expect(lesson.order).toBe(90);
    expect(lesson.spec.spec.tasks.map((x) => x.id)).toEqual(['run-hello']);
    expect(lesson.spec.spec.questions?.map((q) => q.id)).toEqual(['who-places']);
    expect(lesson.text.en.title).toBe('My first lesson');
    expect(lesson.text.ru.title).toBe('Мой первый урок');
  });

  it('fails every task at the start and its reference solution passes within the time budget', () => {
    const lesson = loadLesson(t.dir, t.files);
    expect(startingStateFailures(lesson, simRuntime)).toEqual([]);
    const r = replaySolution(lesson, simRuntime);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(true);
    // The pod is applied at 2s; the scheduler binds it and the kubelet starts nginx a few seconds later.
    expect(r.completedAt).toBeGreaterThan(2_000);
    expect(r.completedAt).toBeLessThan(30_000);
  });

  it('passes the replay a pack gets before it is accepted, as it is ("Add to my packs")', () => {
    const m = { ...defaultManifest(t.dir), title: 'Template', author: 'Nodeplane' };
    const { pack, issues } = validatePack(packFiles(t, m));
    expect(issues).toEqual([]);
    const r = replayLesson(pack!.lessons[0]);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.tasks).toHaveLength(1);
    expect(r.tasks[0]).toMatchObject({ id: 'run-hello', passesAtStart: false });
    expect(r.tasks[0].solutionPassedAt).toBeGreaterThan(2_000);
  });
});
