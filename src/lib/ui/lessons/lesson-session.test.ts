import { describe, expect, it } from 'vitest';
import { parseDuration } from '$lib/sim/engine/duration';
import { bundledLessons } from '$lib/lessons/bundle';
import { isCorrectAnswer as loaderIsCorrect } from '$lib/lessons/loader';
import { simRuntime } from '$lib/lessons/runtime';
import { LessonSession } from '$lib/lessons/session';
import { BrowserLessonSession, isCorrectAnswer } from './lesson-session';

const lessons = bundledLessons().lessons;

describe('BrowserLessonSession matches LessonSession', () => {
  it('grades answers like the loader', () => {
    const num = { type: 'number' as const, answer: 350, tolerance: 15 };
    for (const v of [335, 350, 365, 334, 366, '350', ' 340 ', 'abc', ''])
      expect(isCorrectAnswer(num, v)).toBe(loaderIsCorrect(num, v));
    const choice = { type: 'choice' as const, answer: 'kubelet' };
    for (const v of ['kubelet', 'quorum', ''])
      expect(isCorrectAnswer(choice, v)).toBe(loaderIsCorrect(choice, v));
  });

  it.each(lessons.map((l) => [l.slug, l] as const))(
    '%s: same ticks, details and times while the reference solution replays',
    (_slug, lesson) => {
      const original = new LessonSession(lesson, simRuntime, 'ru');
      const mine = new BrowserLessonSession(lesson, original.cluster, 'ru');
      const steps = lesson.spec.spec.solution
        .map((st) => ({ st, at: parseDuration(st.at) }))
        .sort((a, b) => a.at - b.at);
      const budget = parseDuration(lesson.spec.spec.timeBudget);
      let next = 0;
      for (let t = 0; t <= budget && !original.complete; t += 1000) {
        original.cluster.runUntil(t);
        while (next < steps.length && steps[next].at <= t) {
          const st = steps[next++].st;
          original.applyStep(st);
          if (st.answer) mine.answer(st.answer.question, st.answer.value);
        }
        original.evaluateTasks();
        mine.evaluateTasks();
        expect(mine.tasks).toEqual(original.tasks);
      }
      expect(mine.complete).toBe(original.complete);
      expect(mine.answers).toEqual(original.answers);
      for (const d of lesson.spec.spec.disabled ?? []) {
        if (d.command)
          expect(mine.disabledReason(d.command.split(' '))).toBe(
            original.disabledReason(d.command.split(' '))
          );
        if (d.fault) expect(mine.faultDisabled(d.fault)).toBe(original.faultDisabled(d.fault));
      }
      const task = lesson.spec.spec.tasks[0].id;
      expect([mine.useHint(task), mine.useHint(task)]).toEqual([
        original.useHint(task),
        original.useHint(task)
      ]);
    }
  );
});
