import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPackFolder } from '../../../tests/fixtures/packs/read';
import { replayLesson } from './replay';
import { validatePack } from './validate';

// The same verdicts as `nodeplane lessons check` (cli/lessons.ts, lessons/session.ts): the start
// state fails every task, the reference solution passes every task within the time budget.

const MANIFEST = 'id: t\ntitle: T\nauthor: A\nlanguages: [en, ru]\nversion: 1.0.0\n';

/** A lesson of tests/fixtures/bad-lessons as a one-lesson pack. */
function badLesson(dir: string) {
  const root = `tests/fixtures/bad-lessons/${dir}`;
  const files: Record<string, string> = { 'pack.yaml': MANIFEST };
  for (const f of readdirSync(root)) files[`${dir}/${f}`] = readFileSync(`${root}/${f}`, 'utf8');
  const { pack, issues } = validatePack(files);
  expect(issues).toEqual([]);
  return pack!.lessons[0];
}

describe('replayLesson', () => {
  it('passes a lesson whose tasks fail at the start and pass with the solution, with the virtual time', () => {
    const { pack } = validatePack(readPackFolder('valid'));
    expect(replayLesson(pack!.lessons[0])).toEqual({
      slug: 'pack:night-shift/cordon',
      dir: '01-cordon',
      ok: true,
      tasks: [
        { id: 'cordon', passesAtStart: false, solutionPassedAt: 5000 },
        { id: 'predict', passesAtStart: false, solutionPassedAt: 0 }
      ],
      problems: [],
      completedAt: 5000
    });
  });

  it('fails a task that already holds in the starting state', () => {
    const r = replayLesson(badLesson('02-trivial'));
    expect(r.ok).toBe(false);
    const trivial = r.tasks.filter((t) => t.passesAtStart);
    expect(trivial.length).toBeGreaterThan(0);
    expect(trivial[0].reason).toMatch(
      /already holds in the starting state: the learner would have nothing to do$/
    );
  });

  it('fails a task the reference solution does not make hold, saying why', () => {
    const r = replayLesson(badLesson('01-unsolvable'));
    expect(r.ok).toBe(false);
    const undone = r.tasks.filter((t) => t.solutionPassedAt === undefined);
    expect(undone.length).toBeGreaterThan(0);
    expect(undone[0].passesAtStart).toBe(false);
    expect(undone[0].reason).toMatch(/^not done after replaying the solution for \d+[smh]/);
    expect(r.problems.length).toBeGreaterThan(0);
  });

  it('fails every task with the reason when the scenario does not load', () => {
    const { pack } = validatePack({
      ...readPackFolder('valid'),
      '01-cordon/scenario.yaml':
        'apiVersion: nodeplane.dev/v1alpha1\nkind: Scenario\nspec: { nodePools: 3 }\n'
    });
    const r = replayLesson(pack!.lessons[0]);
    expect(r.ok).toBe(false);
    expect(
      r.tasks.every((t) => t.reason?.startsWith('01-cordon: ') && t.solutionPassedAt === undefined)
    ).toBe(true);
    expect(r.problems[0]).toMatch(/^01-cordon: 01-cordon\/scenario\.yaml:\d+/);
  });
});
