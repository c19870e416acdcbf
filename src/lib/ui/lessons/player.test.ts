import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledLessons } from '$lib/lessons/bundle';
import type { Lesson } from '$lib/lessons/format';
import { resolveVariant } from '$lib/lessons/challenge';
import { loadLesson } from '$lib/lessons/loader';
import type { ProgressInput, ProgressRecord } from '$lib/persist';
import { Lab } from '$lib/ui/lab/lab.svelte';
import { localTransport } from '$lib/workers/session-local';
import { LessonPlayer, type PlayerEvent } from './player.svelte';

const FIXTURE = 'tests/fixtures/lessons/01-fixture';

function fixture(): Lesson {
  const files = Object.fromEntries(
    readdirSync(FIXTURE).map((f) => [f, readFileSync(`${FIXTURE}/${f}`, 'utf8')])
  );
  return loadLesson(FIXTURE, files);
}

/** The player on a lab whose session runs in-process, stepped by hand a second at a time. */
async function setup(lesson: Lesson, lang: 'en' | 'ru' = 'en') {
  const saved: ProgressInput[] = [];
  const events: PlayerEvent[] = [];
  let wall = 0;
  const player = new LessonPlayer(lesson, {
    lang: () => lang,
    onevent: (e) => void events.push(e),
    save: async (i) => void saved.push(i),
    wallClock: () => wall
  });
  const transport = localTransport({ wallClock: () => 0 });
  const lab = await Lab.create({
    scenario: lesson.scenario,
    fileName: lesson.paths.scenario,
    files: lesson.spec.spec.files,
    // The tests act as the fault panel would (the fixtures' views have none).
    lesson: player.init(false),
    transport,
    onFrame: (l) => player.frame(l.lesson, l.clock)
  });
  player.attach(lab);
  const cluster = () => transport.host.cluster!;
  const run = async (toMs: number) => {
    for (let t = cluster().now + 1000; t <= toMs && !player.complete; t += 1000) await lab.jumpTo(t);
  };
  return { player, lab, cluster, saved, events, run, setWall: (ms: number) => (wall = ms) };
}

describe('LessonPlayer', () => {
  it('starts with every task open and says what is not yet true', async () => {
    const { player } = await setup(fixture());
    expect(player.tasks.map((t) => [t.id, t.done])).toEqual([
      ['predict', false],
      ['silent', false]
    ]);
    expect(player.tasks[1].detail).toMatch(/worker-2/);
  });

  it('ticks a question task on the right answer only, and keeps it after a wrong retry', async () => {
    const { player, saved } = await setup(fixture());
    expect(await player.answer('grace', 80)).toBe(false);
    expect(player.tasks[0].done).toBe(false);
    expect(await player.answer('grace', 52)).toBe(true);
    expect(player.tasks[0].done).toBe(true);
    expect(player.announcement).toBe('Predict the grace period');
    await player.answer('grace', 10);
    expect(player.answers.grace).toEqual({ value: 52, correct: true });
    await player.save();
    expect(saved.at(-1)).toMatchObject({
      slug: '01-fixture',
      status: 'started',
      completedSteps: ['predict']
    });
  });

  it('ticks a cluster task the frame the node turns Unknown, then completes', async () => {
    const { player, lab, run, saved, setWall } = await setup(fixture());
    player.resumeClock();
    await player.answer('grace', 50);
    await lab.jumpTo(30_000);
    expect(await lab.fault('StopKubelet', 'worker-2')).toBeUndefined();
    await run(40_000);
    expect(player.tasks[1].done).toBe(false);
    setWall(95_000);
    await run(180_000);
    expect(player.complete).toBe(true);
    // 50s --node-monitor-grace-period after the last status, checked every 5s (--node-monitor-period).
    expect(player.virtualDoneAt).toBeGreaterThanOrEqual(80_000);
    expect(player.virtualDoneAt).toBeLessThanOrEqual(95_000);
    await player.save();
    const last = saved.at(-1)!;
    expect(last).toMatchObject({ status: 'completed', completedSteps: ['predict', 'silent'], hintsUsed: 0 });
    expect(last.state).toMatchObject({ solutionViewed: false, timeSpentMs: 95_000 });
  });

  it('a challenge: plays the variant setup, gates the fix, saves seed and variant, scores the attempt', async () => {
    const dir = 'tests/fixtures/lessons/02-challenge';
    const base = loadLesson(
      dir,
      Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(`${dir}/${f}`, 'utf8')]))
    );
    const lesson = resolveVariant(base, 'second', 9);
    const { player, lab, cluster, run, saved, setWall } = await setup(lesson);
    player.resumeClock();
    await run(20_000);
    expect(cluster().faultLog).toEqual([{ t: 10_000, action: 'StopKubelet', target: 'worker-2' }]);
    expect(player.tasks[1]).toMatchObject({
      done: false,
      detail: 'the fault has not shown in the cluster yet'
    });
    expect(player.hint('fix')).toBe('Start the kubelet');
    expect(await player.answer('node', 'worker-1')).toBe(false);
    expect(await player.answer('node', 'worker-2')).toBe(true);
    await run(80_000);
    expect(player.tasks[1].detail).toBe('node worker-2 has Ready=Unknown, not True');
    expect(await lab.fault('StartKubelet', 'worker-2')).toBeUndefined();
    setWall(11 * 60_000 + 30_000);
    await run(120_000);
    expect(player.complete).toBe(true);
    // 100 − 10 for the hint − 1 for the 11th minute of wall time; under 5 virtual minutes is free.
    expect(player.score()).toEqual({ total: 89, hints: 10, virtual: 0, wall: 1 });
    await player.save();
    expect(saved.at(-1)!.state).toMatchObject({ challenge: { variant: 'second', seed: 9 }, score: 89 });
    // A reset replays the setup on the fresh cluster.
    await player.resetLab();
    expect(cluster().now).toBe(0);
    for (let t = 1000; t <= 11_000; t += 1000) await lab.jumpTo(t);
    expect(cluster().faultLog).toEqual([{ t: 10_000, action: 'StopKubelet', target: 'worker-2' }]);
  });

  it('tells its follower (the embed’s host) when it starts, each task ticks and it completes', async () => {
    const { player, lab, run, events } = await setup(fixture());
    expect(events).toEqual([{ type: 'started', tasks: ['predict', 'silent'], done: [] }]);
    await player.answer('grace', 50);
    expect(events.at(-1)).toEqual({ type: 'task', task: 'predict', virtualMs: 0, done: 1, total: 2 });
    await lab.jumpTo(30_000);
    await lab.fault('StopKubelet', 'worker-2');
    player.hint('silent');
    await run(180_000);
    const [task, complete] = events.slice(-2);
    expect(task).toMatchObject({ type: 'task', task: 'silent', done: 2, total: 2 });
    // The virtual time is the tick's: 50s grace after worker-2's last status, checked every 5s.
    const at = (task as { virtualMs: number }).virtualMs;
    expect(at).toBeGreaterThanOrEqual(80_000);
    expect(at).toBeLessThanOrEqual(95_000);
    expect(complete).toEqual({
      type: 'complete',
      virtualMs: Math.round(player.virtualDoneAt!),
      score: undefined,
      hints: 1,
      solutionViewed: false
    });
    expect(events.filter((e) => e.type === 'complete')).toHaveLength(1);
    // Starting over is a new start with nothing done.
    await player.startOver();
    expect(events.at(-1)).toEqual({ type: 'started', tasks: ['predict', 'silent'], done: [] });
  });

  it('says nothing of tasks restored from saved progress, only that they are done at the start', async () => {
    const saved: ProgressRecord = {
      schema: 2,
      slug: '01-fixture',
      status: 'started',
      completedSteps: ['predict'],
      hintsUsed: 0,
      state: {
        answers: { grace: { value: 50, correct: true } },
        hints: {},
        solutionViewed: false,
        timeSpentMs: 0
      },
      startedAt: 1,
      updatedAt: 2
    };
    const events: PlayerEvent[] = [];
    const player = new LessonPlayer(fixture(), { lang: () => 'en', onevent: (e) => void events.push(e) });
    player.restore(saved);
    const lab = await Lab.create({
      scenario: player.lesson.scenario,
      fileName: player.lesson.paths.scenario,
      lesson: player.init(false),
      transport: localTransport({ wallClock: () => 0 }),
      onFrame: (l) => player.frame(l.lesson, l.clock)
    });
    player.attach(lab);
    await lab.advanceBy(2000);
    expect(events).toEqual([{ type: 'started', tasks: ['predict', 'silent'], done: ['predict'] }]);
  });

  it('reveals hints one at a time and counts them', async () => {
    const lesson = bundledLessons().lessons.find((l) => l.slug === '06-heartbeats')!;
    const { player, saved } = await setup(lesson);
    expect(player.hintsLeft('predict')).toBe(3);
    expect(player.hint('predict')).toBe(lesson.text.en.tasks.predict.hints[0]);
    expect(player.hint('predict')).toBe(lesson.text.en.tasks.predict.hints[1]);
    expect(player.hintsShown('predict')).toHaveLength(2);
    player.hint('silence');
    await player.save();
    expect(saved.at(-1)!.hintsUsed).toBe(3);
  });

  it('refuses the commands and faults the lesson disables, with its reason', async () => {
    const lesson = bundledLessons().lessons.find((l) => l.slug === '06-heartbeats')!;
    const { lab, cluster } = await setup(lesson, 'ru');
    await lab.exec('kubectl delete pod web-1');
    expect(lab.consoleLines.at(-1)).toMatchObject({
      kind: 'stderr',
      text: lesson.text.ru.disabled!['kubectl delete']
    });
    await lab.jumpTo(5000);
    await lab.exec('kubectl get nodes');
    expect(lab.consoleLines.at(-1)!.text).toMatch(/^NAME +STATUS +ROLES +AGE +VERSION/);
    expect(await lab.fault('DeleteNode', 'worker-1')).toBe(lesson.text.ru.disabled!.DeleteNode);
    expect(await lab.fault('StopKubelet', 'worker-1')).toBeUndefined();
    expect(cluster().faultLog.map((f) => f.action)).toEqual(['StopKubelet']);
  });

  it('restores ticks, answers, hints and time from a saved record', async () => {
    const { player, lab } = await setup(fixture());
    const record: ProgressRecord = {
      schema: 2,
      slug: '01-fixture',
      status: 'started',
      completedSteps: ['predict'],
      hintsUsed: 1,
      state: {
        answers: { grace: { value: 50, correct: true } },
        hints: { silent: 1 },
        solutionViewed: true,
        timeSpentMs: 60_000
      },
      startedAt: 1,
      updatedAt: 2
    };
    player.restore(record);
    await lab.advanceBy(1000);
    expect(player.tasks.map((t) => t.done)).toEqual([true, false]);
    expect(lab.lesson!.answers.grace.correct).toBe(true);
    expect(lab.lesson!.tasks.map((t) => t.done)).toEqual([true, false]);
    expect(player.hintsShown('silent')).toEqual(['Stop the kubelet on worker-2']);
    expect(player.solutionViewed).toBe(true);
    expect(player.spent()).toBe(60_000);
  });

  it('takes in what another tab saved of the same lesson; its next save keeps both, a start over replaces', async () => {
    const { player, lab, saved } = await setup(fixture());
    player.restore(undefined);
    await player.answer('grace', 50);
    // The other tab ticked "silent" and used a hint on it (its record has not seen "predict").
    const theirs: ProgressRecord = {
      schema: 2,
      slug: '01-fixture',
      status: 'started',
      completedSteps: ['silent'],
      hintsUsed: 1,
      state: {
        answers: {},
        hints: { silent: 1 },
        taskDoneAt: { silent: 41_000 },
        solutionViewed: false,
        timeSpentMs: 5
      },
      startedAt: 1,
      updatedAt: 2
    };
    expect(player.merge(theirs)).toBe(true);
    expect(player.tasks.map((t) => t.done)).toEqual([true, true]);
    expect(player.complete).toBe(true);
    expect(player.hintsShown('silent')).toEqual(['Stop the kubelet on worker-2']);
    await lab.advanceBy(1000);
    // The session knows the ticks too, so the next frame does not take them back.
    expect(lab.lesson!.tasks.map((t) => t.done)).toEqual([true, true]);
    expect(player.merge(theirs)).toBe(false);
    await player.save();
    expect(saved.at(-1)).toMatchObject({
      status: 'completed',
      completedSteps: ['predict', 'silent'],
      hintsUsed: 1
    });
    expect(saved.at(-1)?.startOver).toBeUndefined();
    expect((saved.at(-1)?.state as { taskDoneAt: Record<string, number> }).taskDoneAt.silent).toBe(41_000);
    await player.startOver();
    expect(saved.at(-1)).toMatchObject({ startOver: true, completedSteps: [], status: 'started' });
    await player.save();
    expect(saved.at(-1)?.startOver).toBeUndefined();
  });

  it('show solution plays lesson 6 on the lab at the steps’ times and completes it within its budget', async () => {
    const lesson = bundledLessons().lessons.find((l) => l.slug === '06-heartbeats')!;
    const { player, lab, cluster, run, saved } = await setup(lesson);
    await player.showSolution();
    expect(player.solutionViewed).toBe(true);
    // The 0s step (answer evict-time) applies at once.
    expect(player.answers['evict-time']).toEqual({ value: 350, correct: true });
    // The solution plays on a running clock; the test steps it by hand instead.
    lab.setPlaying(false);
    await run(39_000);
    expect(cluster().faultLog.length).toBe(0);
    await run(41_000);
    expect(cluster().faultLog.map((f) => f.action)).toEqual(['StopKubelet']);
    await run(10 * 60_000);
    expect(player.complete).toBe(true);
    expect(player.solution.error).toBe('');
    expect(player.solution.active).toBe(false);
    expect(player.virtualDoneAt).toBeLessThanOrEqual(10 * 60_000);
    await player.save();
    expect(saved.at(-1)).toMatchObject({ status: 'completed', state: { solutionViewed: true } });
    expect(saved.at(-1)!.completedSteps).toEqual(lesson.spec.spec.tasks.map((t) => t.id));
  });
});
