import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { bundledLessons, summarize } from '$lib/lessons/bundle';
import type { ProgressInput, ProgressRecord } from '$lib/persist';
import { Lab } from '$lib/ui/lab/lab.svelte';
import { LessonPlayer } from '$lib/ui/lessons/player.svelte';
import { readState } from '$lib/ui/lessons/progress';
import { localTransport } from '$lib/workers/session-local';
import {
  buildResults,
  nameProblem,
  parseResults,
  resultsFileName,
  validateResults,
  type LessonInfo,
  type Results
} from './results';

const SLUG = '01-cluster-anatomy';
const lesson = bundledLessons().lessons.find((l) => l.slug === SLUG)!;
const info: LessonInfo = {
  slug: SLUG,
  title: lesson.text.en.title,
  tasks: summarize(lesson).tasks,
  pack: null
};

/** A record as `putProgress` stores the player's input (src/lib/persist/db.ts). */
const stored = (input: ProgressInput, startedAt: number, updatedAt: number): ProgressRecord => ({
  schema: 2,
  slug: input.slug,
  status: input.status,
  completedSteps: input.completedSteps ?? [],
  hintsUsed: input.hintsUsed ?? 0,
  ...(input.state !== undefined ? { state: input.state } : {}),
  startedAt,
  updatedAt,
  ...(input.status === 'completed' ? { completedAt: updatedAt } : {})
});

/** Lesson 1 played through the player on an in-process lab, the way a learner does it. */
async function playLesson1(): Promise<ProgressInput> {
  const saved: ProgressInput[] = [];
  let wall = 0;
  const player = new LessonPlayer(lesson, {
    lang: () => 'en',
    save: async (i) => void saved.push(i),
    wallClock: () => wall
  });
  const transport = localTransport({ wallClock: () => 0 });
  const lab = await Lab.create({
    scenario: lesson.scenario,
    fileName: lesson.paths.scenario,
    files: lesson.spec.spec.files,
    lesson: player.init(false),
    transport,
    onFrame: (l) => player.frame(l.lesson, l.clock)
  });
  player.attach(lab);
  player.restore(undefined);
  player.resumeClock();
  const now = () => transport.host.cluster!.now;
  const until = async (ms: number) => {
    for (let t = now() + 1000; t <= ms && !player.complete; t += 1000) await lab.jumpTo(t);
  };
  // A wrong guess first, then the right one at t=3s.
  expect(await player.answer('no-scheduler', 'rejected')).toBe(false);
  await until(3000);
  expect(await player.answer('no-scheduler', 'pending')).toBe(true);
  await lab.exec('kubectl apply -f hello.yaml');
  player.hint('bind');
  await until(10_000);
  expect(await lab.fault('StartScheduler', 'control-plane')).toBeUndefined();
  await until(40_000);
  expect(player.tasks[1].done).toBe(true);
  await until(45_000);
  await player.answer('node-name', 'scheduler');
  await player.answer('image-pull', 'registry');
  await player.answer('image-pull', 'runtime');
  await until(50_000);
  wall = 125_400;
  await player.answer('pod-status', 'kubelet');
  expect(player.complete).toBe(true);
  await player.save();
  return saved.at(-1)!;
}

describe('results file', () => {
  it('carries per task the virtual time and hints, per question the answer, tries and rightness, from a real progress record', async () => {
    const input = await playLesson1();
    const state = readState(stored(input, 0, 0));
    const record = stored(input, Date.UTC(2026, 11, 3, 9, 0), Date.UTC(2026, 11, 3, 9, 5, 30));
    const r = buildResults({
      student: '  Ana López  ',
      records: [record],
      lookup: (k) => (k === SLUG ? info : undefined),
      appVersion: '0.1.0-abc123-1234abcd',
      now: Date.UTC(2026, 11, 3, 9, 6)
    });
    expect(r.schema).toBe('nodeplane.results/v1');
    expect(r.student).toBe('Ana López');
    expect(r.app).toEqual({ version: '0.1.0-abc123-1234abcd' });
    expect(r.exportedAt).toBe('2026-12-03T09:06:00.000Z');
    const l = r.lessons[0];
    expect(l).toMatchObject({
      slug: SLUG,
      pack: null,
      title: 'Cluster anatomy',
      status: 'completed',
      hintsUsed: 1,
      solutionShown: false,
      timeSpentMs: 125_400,
      challenge: null,
      score: null,
      startedAt: '2026-12-03T09:00:00.000Z',
      updatedAt: '2026-12-03T09:05:30.000Z',
      completedAt: '2026-12-03T09:05:30.000Z'
    });
    // Every task of the lesson in lesson order, each with the virtual time the player saw it tick.
    expect(l.tasks.map((t) => [t.id, t.done, t.hints])).toEqual([
      ['predict', true, 0],
      ['bind', true, 1],
      ['who-node', true, 0],
      ['who-pulls', true, 0],
      ['who-status', true, 0]
    ]);
    expect(l.tasks.map((t) => t.virtualMs)).toEqual(
      ['predict', 'bind', 'who-node', 'who-pulls', 'who-status'].map((id) => state.taskDoneAt![id])
    );
    expect(l.tasks[0].virtualMs).toBe(3000);
    // Scheduled after StartScheduler at 10s, then pulled and started: ticks between 10s and 40s.
    expect(l.tasks[1].virtualMs).toBeGreaterThan(10_000);
    expect(l.tasks[1].virtualMs).toBeLessThanOrEqual(40_000);
    expect(l.tasks[4].virtualMs).toBe(50_000);
    expect(l.virtualMs).toBe(50_000);
    expect(l.answers).toEqual([
      { question: 'no-scheduler', value: 'pending', correct: true, tries: 2 },
      { question: 'node-name', value: 'scheduler', correct: true, tries: 1 },
      { question: 'image-pull', value: 'runtime', correct: true, tries: 2 },
      { question: 'pod-status', value: 'kubelet', correct: true, tries: 1 }
    ]);
    expect(validateResults(JSON.parse(JSON.stringify(r)))).toEqual({ ok: true, results: r });
    expect(resultsFileName(r)).toBe('nodeplane-results-ana-lópez-2026-12-03.json');
  });

  it('still reads a record saved before per-task times and tries were kept', () => {
    // The state shape saved before this version: no taskDoneAt, no tries.
    const old: ProgressRecord = {
      schema: 2,
      slug: SLUG,
      status: 'started',
      completedSteps: ['predict'],
      hintsUsed: 2,
      state: {
        answers: {
          'no-scheduler': { value: 'pending', correct: true },
          'node-name': { value: 'kubelet', correct: false }
        },
        hints: { bind: 2 },
        solutionViewed: true,
        timeSpentMs: 61_000
      },
      startedAt: Date.UTC(2026, 10, 1),
      updatedAt: Date.UTC(2026, 10, 1, 0, 1)
    };
    const s = readState(old);
    expect(s.taskDoneAt).toBeUndefined();
    expect(s.tries).toBeUndefined();
    expect(s.answers['node-name']).toEqual({ value: 'kubelet', correct: false });
    const r = buildResults({ student: 'Bo', records: [old], lookup: () => info, appVersion: 'v', now: 0 });
    const l = r.lessons[0];
    expect(l.tasks[0]).toEqual({ id: 'predict', done: true, virtualMs: null, hints: 0 });
    expect(l.tasks[1]).toEqual({ id: 'bind', done: false, virtualMs: null, hints: 2 });
    expect(l.answers[1]).toEqual({ question: 'node-name', value: 'kubelet', correct: false, tries: 0 });
    expect(l).toMatchObject({ status: 'started', solutionShown: true, virtualMs: null, completedAt: null });
    // A record with no state at all (the oldest shape) reads as nothing recorded beyond the ticks.
    const bare = buildResults({
      student: 'Bo',
      records: [{ ...old, state: undefined }],
      lookup: () => info,
      appVersion: 'v',
      now: 0
    });
    expect(bare.lessons[0]).toMatchObject({
      answers: [],
      hintsUsed: 0,
      solutionShown: false,
      timeSpentMs: 0
    });
    // A record of a lesson the app no longer has is left out.
    expect(
      buildResults({ student: 'Bo', records: [old], lookup: () => undefined, appVersion: 'v', now: 0 })
        .lessons
    ).toEqual([]);
  });

  it('takes the name as typed, trimmed and bounded', () => {
    expect(nameProblem('   ')).toBe('empty');
    expect(nameProblem('x'.repeat(80))).toBeNull();
    expect(nameProblem('x'.repeat(81))).toBe('long');
    // Characters, not UTF-16 units: 80 emoji are fine.
    expect(nameProblem('😀'.repeat(80))).toBeNull();
    expect(nameProblem('Ana\nBo')).toBe('control');
    expect(() =>
      buildResults({ student: ' ', records: [], lookup: () => info, appVersion: 'v', now: 0 })
    ).toThrow('student name: empty');
  });
});

// --- the hand-written validator against the published schema ---

const schema = JSON.parse(readFileSync('schemas/results.schema.json', 'utf8'));
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });
const ajvValidate = ajv.compile(schema);

const valid = (): Results => ({
  schema: 'nodeplane.results/v1',
  app: { version: '0.1.0-abc-123' },
  student: 'Ana',
  exportedAt: '2026-12-03T09:06:00.000Z',
  lessons: [
    {
      slug: '12-troubleshooting',
      pack: null,
      title: 'Troubleshooting',
      status: 'completed',
      tasks: [
        { id: 'diagnose', done: true, virtualMs: 61_000, hints: 1 },
        { id: 'fix', done: true, virtualMs: 120_500.5, hints: 0 }
      ],
      answers: [{ question: 'which-node', value: 'worker-2', correct: true, tries: 1 }],
      hintsUsed: 1,
      solutionShown: false,
      virtualMs: 120_500.5,
      timeSpentMs: 300_000,
      challenge: { variant: 'kubelet-stopped', seed: 4294967295 },
      score: 90,
      startedAt: '2026-12-03T09:00:00.000Z',
      updatedAt: '2026-12-03T09:05:00Z',
      completedAt: '2026-12-03T09:05:00.000Z'
    },
    {
      slug: 'intro',
      pack: { id: 'acme-course', version: '1.2.0' },
      title: '',
      status: 'started',
      tasks: [{ id: 't1', done: false, virtualMs: null, hints: 0 }],
      answers: [{ question: 'q', value: 42, correct: false, tries: 0 }],
      hintsUsed: 0,
      solutionShown: true,
      virtualMs: null,
      timeSpentMs: 0,
      challenge: { variant: 'a', seed: null },
      score: null,
      startedAt: '2026-12-03T09:00:00.000Z',
      updatedAt: '2026-12-03T09:00:00.000Z',
      completedAt: null
    }
  ]
});

type Mutation = [string, (r: any) => void]; // eslint-disable-line @typescript-eslint/no-explicit-any
const L = (r: Results) => r.lessons[0] as any; // eslint-disable-line @typescript-eslint/no-explicit-any
const mutations: Mutation[] = [
  ['unchanged', () => {}],
  ['no lessons', (r) => (r.lessons = [])],
  ['name of 80 characters', (r) => (r.student = 'é'.repeat(80))],
  ['name of 81 characters', (r) => (r.student = 'é'.repeat(81))],
  ['empty name', (r) => (r.student = '')],
  ['name with a line break', (r) => (r.student = 'Ana\nBo')],
  ['name not a string', (r) => (r.student = 7)],
  ['other schema', (r) => (r.schema = 'nodeplane.results/v2')],
  ['no schema', (r) => delete r.schema],
  ['unknown top field', (r) => (r.extra = 1)],
  ['app without version', (r) => (r.app = {})],
  ['empty app version', (r) => (r.app.version = '')],
  ['exportedAt not UTC', (r) => (r.exportedAt = '2026-12-03T09:06:00+01:00')],
  ['exportedAt a number', (r) => (r.exportedAt = 1)],
  ['lessons not a list', (r) => (r.lessons = {})],
  ['501 lessons', (r) => (r.lessons = Array.from({ length: 501 }, () => r.lessons[1]))],
  ['500 lessons', (r) => (r.lessons = Array.from({ length: 500 }, () => r.lessons[1]))],
  ['slug with capitals', (r) => (L(r).slug = 'Intro')],
  ['slug empty', (r) => (L(r).slug = '')],
  ['pack without version', (r) => (L(r).pack = { id: 'a' })],
  ['pack version empty', (r) => (L(r).pack = { id: 'a', version: '' })],
  ['pack id bad', (r) => (L(r).pack = { id: 'a b', version: '1' })],
  ['pack a string', (r) => (L(r).pack = 'a')],
  ['title too long', (r) => (L(r).title = 't'.repeat(201))],
  ['title of 200', (r) => (L(r).title = 't'.repeat(200))],
  ['status other', (r) => (L(r).status = 'done')],
  ['task done a string', (r) => (L(r).tasks[0].done = 'yes')],
  ['task virtualMs negative', (r) => (L(r).tasks[0].virtualMs = -1)],
  ['task hints fractional', (r) => (L(r).tasks[0].hints = 1.5)],
  ['task hints 1.0 is whole', (r) => (L(r).tasks[0].hints = 1.0)],
  ['task extra field', (r) => (L(r).tasks[0].note = 'x')],
  ['task missing hints', (r) => delete L(r).tasks[0].hints],
  ['answer value an object', (r) => (L(r).answers[0].value = {})],
  ['answer value null', (r) => (L(r).answers[0].value = null)],
  ['answer value too long', (r) => (L(r).answers[0].value = 'x'.repeat(1001))],
  ['answer value negative number', (r) => (L(r).answers[0].value = -3.5)],
  ['answer tries negative', (r) => (L(r).answers[0].tries = -1)],
  ['answer question bad', (r) => (L(r).answers[0].question = '-q')],
  ['hintsUsed negative', (r) => (L(r).hintsUsed = -1)],
  ['hintsUsed too big', (r) => (L(r).hintsUsed = 1_000_001)],
  ['solutionShown null', (r) => (L(r).solutionShown = null)],
  ['virtualMs a string', (r) => (L(r).virtualMs = '1')],
  ['timeSpentMs null', (r) => (L(r).timeSpentMs = null)],
  ['challenge seed too big', (r) => (L(r).challenge.seed = 4294967296)],
  ['challenge seed negative', (r) => (L(r).challenge.seed = -1)],
  ['challenge without seed', (r) => delete L(r).challenge.seed],
  ['challenge variant bad', (r) => (L(r).challenge.variant = 'A')],
  ['score 101', (r) => (L(r).score = 101)],
  ['score 0', (r) => (L(r).score = 0)],
  ['score fractional', (r) => (L(r).score = 50.5)],
  ['startedAt missing', (r) => delete L(r).startedAt],
  ['completedAt bad', (r) => (L(r).completedAt = 'yesterday')],
  ['lesson extra field', (r) => (L(r).x = null)],
  ['lesson a list', (r) => (r.lessons[0] = [])],
  ['201 tasks', (r) => (L(r).tasks = Array.from({ length: 201 }, () => L(r).tasks[0]))],
  ['a constructor field', (r) => (L(r).constructor = 1)]
];

describe('validator and schemas/results.schema.json agree', () => {
  it('the schema is a draft 2020-12 schema with an $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('https://nodeplane.dev/schemas/results.json');
  });

  it.each(mutations)('%s', (_, mutate) => {
    const r = structuredClone(valid()) as unknown as Results;
    mutate(r);
    const sample = JSON.parse(JSON.stringify(r));
    const mine = validateResults(sample);
    expect(mine.ok, mine.ok ? 'validator accepts' : mine.reason).toBe(ajvValidate(sample));
  });

  it('names the field that is wrong', () => {
    const r = valid() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    r.lessons[1].tasks[0].virtualMs = -5;
    expect(validateResults(r)).toEqual({
      ok: false,
      reason: 'lessons[1].tasks[0].virtualMs: must be a number ≥ 0 or null',
      problem: { path: 'lessons[1].tasks[0].virtualMs', code: 'ms', params: {} }
    });
    expect(parseResults('{"schema": "x"')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^not JSON/)
    });
    expect(parseResults('[]')).toMatchObject({ ok: false, reason: 'file: must be an object' });
    expect(parseResults(JSON.stringify({ ...valid(), schema: 'nodeplane.results/v0' }))).toMatchObject({
      ok: false,
      reason: 'schema: is "nodeplane.results/v0", expected "nodeplane.results/v1"'
    });
  });
});

describe('problem wording', () => {
  it('the English catalog words every rule as the validator does, and Russian has each rule', async () => {
    const { PROBLEM_TEXT } = await import('./results');
    const en = JSON.parse(readFileSync('src/lib/i18n/locales/en/class.json', 'utf8')).problem;
    const ru = JSON.parse(readFileSync('src/lib/i18n/locales/ru/class.json', 'utf8')).problem;
    for (const [code, text] of Object.entries(PROBLEM_TEXT)) {
      expect(en[code]).toBe(text);
      expect(typeof ru[code]).toBe('string');
    }
  });
});
