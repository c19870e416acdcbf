import { describe, expect, it } from 'vitest';
import type { LessonSummary } from '$lib/lessons/bundle';
import type { ProgressRecord } from '$lib/persist';
import { recordProblem } from '$lib/persist/records';
import {
  continueTarget,
  formatSpent,
  progressInput,
  readState,
  roadmapEntries,
  roadmapSections
} from './progress';

const lesson = (slug: string, order: number, tasks: string[]): LessonSummary => ({
  slug,
  order,
  title: { en: slug, ru: slug },
  summary: { en: '', ru: '' },
  minutes: 10,
  tasks
});
const L = [lesson('01-a', 1, ['x', 'y']), lesson('02-b', 2, ['p']), lesson('03-c', 3, ['q', 'r', 's'])];
const rec = (
  slug: string,
  status: 'started' | 'completed',
  steps: string[],
  updatedAt: number
): ProgressRecord => ({
  schema: 2,
  slug,
  status,
  completedSteps: steps,
  hintsUsed: 0,
  startedAt: 1,
  updatedAt
});

describe('progress', () => {
  it('builds a record the store accepts, with the answers, hints and time in its state', () => {
    const input = progressInput('06-heartbeats', ['predict'], false, {
      answers: { 'evict-time': { value: 350, correct: true } },
      hints: { predict: 2, silence: 1 },
      solutionViewed: true,
      timeSpentMs: 125_000
    });
    expect(input).toMatchObject({
      slug: '06-heartbeats',
      status: 'started',
      completedSteps: ['predict'],
      hintsUsed: 3
    });
    const record = { schema: 2, ...input, startedAt: 1, updatedAt: 2 };
    expect(recordProblem('progress', record)).toBeNull();
    expect(readState(record as ProgressRecord)).toEqual({
      answers: { 'evict-time': { value: 350, correct: true } },
      hints: { predict: 2, silence: 1 },
      solutionViewed: true,
      timeSpentMs: 125_000
    });
  });

  it('reads a foreign or damaged state as empty parts', () => {
    const r = {
      ...rec('01-a', 'started', [], 1),
      state: { answers: { q: 'yes' }, hints: { x: -1, y: 2 }, timeSpentMs: 'long' }
    };
    expect(readState(r)).toEqual({ answers: {}, hints: { y: 2 }, solutionViewed: false, timeSpentMs: 0 });
    expect(readState(undefined)).toEqual({ answers: {}, hints: {}, solutionViewed: false, timeSpentMs: 0 });
  });

  it('keeps a challenge attempt and its score; a corrupted one is dropped, not a crash', () => {
    const ok = {
      ...rec('12-t', 'completed', [], 1),
      state: { challenge: { variant: 'etcd-quorum', seed: 42 }, score: 80 }
    };
    expect(readState(ok)).toMatchObject({ challenge: { variant: 'etcd-quorum', seed: 42 }, score: 80 });
    for (const state of [
      { challenge: 'etcd', score: '80' },
      { challenge: { variant: '<script>', seed: 42 }, score: 101 },
      { challenge: { seed: 42 }, score: -1 },
      { challenge: null, score: null }
    ]) {
      const r = readState({ ...rec('12-t', 'started', [], 1), state } as unknown as ProgressRecord);
      expect(r.challenge).toBeUndefined();
      expect(r.score).toBeUndefined();
    }
    // A seed out of range is dropped, the variant kept.
    const r = readState({
      ...rec('12-t', 'started', [], 1),
      state: { challenge: { variant: 'etcd-quorum', seed: 2 ** 32 } }
    } as unknown as ProgressRecord);
    expect(r.challenge).toEqual({ variant: 'etcd-quorum' });
  });

  it('counts only the tasks a lesson still has', () => {
    const e = roadmapEntries(L, [
      rec('01-a', 'started', ['x', 'gone'], 5),
      rec('02-b', 'completed', ['p'], 3)
    ]);
    expect(e.map((x) => [x.lesson.slug, x.status, x.done, x.total])).toEqual([
      ['01-a', 'started', 1, 2],
      ['02-b', 'completed', 1, 1],
      ['03-c', 'new', 0, 3]
    ]);
  });

  it('groups the roadmap: 1–14 the nodes and the control plane, 15–20 operating nodes, the rest after', () => {
    const at = (order: number) => ({ ...L[0], slug: `${order}-x`, order });
    const e = roadmapEntries([at(1), at(13), at(15), at(19), at(42)], []);
    expect(roadmapSections(e).map((s) => [s.id, s.entries.map((x) => x.lesson.order)])).toEqual([
      ['foundations', [1, 13]],
      ['operating', [15, 19]],
      ['more', [42]]
    ]);
    expect(roadmapSections(e.slice(0, 2)).map((s) => s.id)).toEqual(['foundations']);
  });

  it('continues the lesson touched last, else the first not completed', () => {
    expect(continueTarget(L, [])?.slug).toBe('01-a');
    expect(
      continueTarget(L, [
        rec('01-a', 'started', [], 5),
        rec('03-c', 'started', [], 9),
        rec('02-b', 'completed', [], 20)
      ])?.slug
    ).toBe('03-c');
    expect(continueTarget(L, [rec('01-a', 'completed', [], 5), rec('gone', 'started', [], 50)])?.slug).toBe(
      '02-b'
    );
    expect(
      continueTarget(
        L,
        L.map((l) => rec(l.slug, 'completed', l.tasks, 1))
      )
    ).toBeUndefined();
  });

  it('formats the time spent', () => {
    expect([formatSpent(42_400), formatSpent(425_000), formatSpent(3_720_000)]).toEqual([
      '42s',
      '7m05s',
      '1h02m'
    ]);
  });
});
