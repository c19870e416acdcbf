import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseVariant, parseSeed, resolveVariant, variantExplanation } from './challenge';
import type { KubeObject } from '../sim/api/types';
import { LessonError, type Lesson } from './format';
import { loadLesson } from './loader';
import { simRuntime } from './runtime';
import { challengeScore } from './score';
import { LessonSession, replaySolution, startingStateFailures } from './session';

function load(dir: string, patch: Record<string, (s: string) => string> = {}): Lesson {
  const files = Object.fromEntries(
    readdirSync(dir).map((f) => [f, (patch[f] ?? ((s) => s))(readFileSync(`${dir}/${f}`, 'utf8'))])
  );
  return loadLesson(dir, files);
}

const FIXTURE = 'tests/fixtures/lessons/02-challenge';
const LESSON12 = 'lessons/12-troubleshooting';

function issues(patch: Record<string, (s: string) => string>): string[] {
  try {
    load(FIXTURE, patch);
  } catch (e) {
    return (e as LessonError).issues.map((i) => `${i.file}:${i.line ?? ''} ${i.field ?? ''} ${i.message}`);
  }
  return [];
}

describe('challenge variants', () => {
  it('the same seed always draws the same variant; a pinned seed gives the whole class one fault', () => {
    const l = load(LESSON12);
    expect(chooseVariant(l, 42)).toBe(chooseVariant(l, 42));
    const drawn = Array.from({ length: 8 }, (_, s) => chooseVariant(l, s));
    expect(drawn).toEqual([
      'insufficient-allocatable',
      'scheduler-down',
      'node-cordoned',
      'scheduler-down',
      'kubelet-stopped',
      'kube-proxy-stale',
      'etcd-quorum',
      'cni-missing'
    ]);
    // Every variant is reachable, roughly evenly.
    const counts = new Map<string, number>();
    for (let s = 0; s < 2200; s++)
      counts.set(chooseVariant(l, s), (counts.get(chooseVariant(l, s)) ?? 0) + 1);
    expect(counts.size).toBe(11);
    for (const n of counts.values()) expect(n).toBeGreaterThan(120);
  });

  it('parses seeds from the link', () => {
    expect(parseSeed('42')).toBe(42);
    expect(parseSeed(' 4294967295 ')).toBe(4294967295);
    expect(parseSeed('4294967296')).toBeUndefined();
    expect(parseSeed('-1')).toBeUndefined();
    expect(parseSeed('1e3')).toBeUndefined();
    expect(parseSeed(null)).toBeUndefined();
  });

  it('resolves a variant: its answer, its check, its hints, its setup and solution', () => {
    const l = load(FIXTURE);
    const v = resolveVariant(l, 'first', 7);
    expect(v.variant).toEqual({
      id: 'first',
      seed: 7,
      setup: [{ at: '10s', fault: { action: 'StopKubelet', target: 'worker-1' } }],
      gated: ['fix']
    });
    expect(v.spec.spec.questions![0].answer).toBe('worker-1');
    expect(v.spec.spec.tasks[1].check).toEqual({ node: { name: 'worker-1', ready: 'True' } });
    expect(v.spec.spec.solution.map((s) => s.at)).toEqual(['1m10s', '1m20s']);
    expect(v.text.en.tasks.fix.hints).toEqual(['Start the kubelet on worker-1 (en)']);
    expect(v.text.ru.tasks.fix.hints).toEqual(['Start the kubelet on worker-1 (ru)']);
    // A variant without its own hints keeps the task's.
    expect(resolveVariant(l, 'second').text.en.tasks.fix.hints).toEqual(['Start the kubelet']);
    expect(variantExplanation(v, 'ru')).toBe('The kubelet on worker-1 was stopped (ru).');
    expect(() => resolveVariant(l, 'third')).toThrow(
      'lesson 02-challenge has no variant "third" (variants: first, second)'
    );
    // The lesson itself is untouched.
    expect(l.spec.spec.questions![0].answer).toBeUndefined();
  });

  it('a fix check counts only after the fault showed: the healthy node before it does not tick the task', () => {
    const v = resolveVariant(load(FIXTURE), 'first');
    const s = new LessonSession(v, simRuntime.createCluster(v.scenario, v.paths.scenario));
    s.cluster.runUntil(10_000);
    s.cluster.applyFault('StopKubelet', { target: 'worker-1' });
    s.cluster.runUntil(20_000);
    s.evaluateTasks();
    // worker-1 is still Ready (the grace period is 50s), yet the task waits for the fault to show.
    expect(s.tasks[1]).toMatchObject({ done: false, detail: 'the fault has not shown in the cluster yet' });
    for (let t = 21_000; t <= 80_000; t += 1000) {
      s.cluster.runUntil(t);
      s.evaluateTasks();
    }
    expect(s.tasks[1]).toMatchObject({ done: false, detail: 'node worker-1 has Ready=Unknown, not True' });
    s.cluster.applyFault('StartKubelet', { target: 'worker-1' });
    for (let t = 81_000; t <= 100_000 && !s.tasks[1].done; t += 1000) {
      s.cluster.runUntil(t);
      s.evaluateTasks();
    }
    expect(s.tasks[1].done).toBe(true);
    expect(s.tasks[1].doneAt).toBeGreaterThan(80_000);
  });

  it('validation replays each variant and names the one that fails', () => {
    const bad = load('tests/fixtures/bad-lessons/03-challenge');
    const second = resolveVariant(bad, 'second');
    expect(replaySolution(resolveVariant(bad, 'first'), simRuntime).ok).toBe(true);
    expect(replaySolution(second, simRuntime).failures).toEqual([
      'tests/fixtures/bad-lessons/03-challenge/lesson.yaml: variant "second": task "fix" is not done after replaying the solution for 3m: node worker-2 has Ready=Unknown, not True'
    ]);
    expect(() => replaySolution(bad, simRuntime)).toThrow('a challenge lesson is replayed per variant');
  });

  it('a setup that never breaks anything is caught: the fix would tick with no fix', () => {
    const l = load(FIXTURE, {
      'lesson.yaml': (s) =>
        s.replace('fault: { action: StopKubelet, target: worker-1 }', 'run: kubectl get nodes')
    });
    expect(startingStateFailures(resolveVariant(l, 'first'), simRuntime)).toEqual([]);
    // The check fails at 0s (no node yet), so the fault "shows" and a healthy node then ticks it.
    const l2 = load(FIXTURE, {
      'lesson.yaml': (s) =>
        s
          .replace('fault: { action: StopKubelet, target: worker-1 }', 'run: kubectl get nodes')
          .replace('- at: 10s\n            run', '- at: 0s\n            run')
    });
    expect(startingStateFailures(resolveVariant(l2, 'first'), simRuntime)).toEqual([
      'tests/fixtures/lessons/02-challenge/lesson.yaml: variant "first": task "fix" is done at t=1s with only the setup played: the fault fixes itself or never shows'
    ]);
  });
});

describe('challenge mistakes in a lesson pack', () => {
  const P = 'tests/fixtures/lessons/02-challenge';
  it('names file, line and field for wrong references', () => {
    expect(
      issues({
        'lesson.yaml': (s) =>
          s
            .replace('answer: worker-2', 'answer: worker-9')
            .replace(
              'fix: { node: { name: worker-1, ready: "True" } }',
              'repair: { node: { name: worker-1 } }'
            )
            .replace('- id: second', '- id: first')
      })
    ).toEqual([
      `${P}/lesson.en.md:16 variants must describe exactly the challenge variants of lesson.yaml: first, first`,
      `${P}/lesson.ru.md:16 variants must describe exactly the challenge variants of lesson.yaml: first, first`,
      `${P}/lesson.yaml:26 spec.challenge.variants[0].checks.repair variant "first": no such task (tasks: name, fix)`,
      `${P}/lesson.yaml:32 spec.challenge.variants[1].id duplicate variant id "first"`,
      `${P}/lesson.yaml:33 spec.challenge.variants[1].answer variant "first": must be one of the options of question "node": worker-1, worker-2`
    ]);
  });

  it('rejects an answer on the challenge question, a missing question and setup answers', () => {
    expect(
      issues({
        'lesson.yaml': (s) =>
          s
            .replace('options: [worker-1, worker-2]', 'options: [worker-1, worker-2]\n      answer: worker-1')
            .replace(
              'fault: { action: StopKubelet, target: worker-2 }',
              'answer: { question: node, value: worker-2 }'
            )
      })
    ).toEqual([
      `${P}/lesson.yaml:12 spec.questions[0].answer leave it out: each challenge variant gives the answer of the challenge question`,
      `${P}/lesson.yaml:37 spec.challenge.variants[1].setup[0].answer variant "second": the setup breaks the cluster; it cannot answer questions`
    ]);
    expect(
      issues({
        'lesson.yaml': (s) => s.replace('question: node\n    variants', 'question: nodes\n    variants')
      })
    ).toEqual([
      // Without a challenge question, `node` is an ordinary question and needs its answer.
      `${P}/lesson.yaml:9 spec.questions[0].answer required field is missing`,
      `${P}/lesson.yaml:18 spec.challenge.question no question "nodes" in spec.questions (questions: node)`
    ]);
  });

  it('schema errors inside a variant name the field', () => {
    expect(
      issues({
        'lesson.yaml': (s) =>
          s.replace('        setup:\n          - at: 10s', '        setup:\n          - at: soon')
      })
    ).toEqual([
      `${P}/lesson.yaml:23 spec.challenge.variants[0].setup[0].at must be a duration like 90s, 5m or 1h30m`
    ]);
    expect(
      issues({
        'lesson.yaml': (s) => s.replace('      - id: first\n', '      - id: first\n        colour: red\n')
      })
    ).toEqual([`${P}/lesson.yaml:21 spec.challenge.variants[0].colour unknown field`]);
  });

  it('text variants: only in challenges, hints only for tasks that exist', () => {
    expect(issues({ 'lesson.en.md': (s) => s.replace('hints: { fix: [', 'hints: { repair: [') })).toEqual([
      `${P}/lesson.en.md:17 variants.first.hints.repair no such task (tasks: name, fix)`
    ]);
    const plain = 'tests/fixtures/lessons/01-fixture';
    const files = Object.fromEntries(
      readdirSync(plain).map((f) => [f, readFileSync(`${plain}/${f}`, 'utf8')])
    );
    files['lesson.en.md'] = files['lesson.en.md'].replace(
      'learned:',
      'variants: { a: { explanation: x } }\nlearned:'
    );
    files['lesson.yaml'] = files['lesson.yaml'].replace(/ {2}solution:[\s\S]*$/, '');
    const errs = (() => {
      try {
        loadLesson(plain, files);
        return [];
      } catch (e) {
        return (e as LessonError).issues.map((i) => `${i.field} ${i.message}`);
      }
    })();
    expect(errs).toEqual([
      'variants only a challenge lesson (spec.challenge in lesson.yaml) has variants',
      'spec.solution required field is missing'
    ]);
  });
});

describe('lesson 12: every variant', () => {
  it('replays each variant: the fault shows, the setup alone never fixes it, the solution does', () => {
    const l = load(LESSON12);
    const ids = l.spec.spec.challenge!.variants.map((v) => v.id);
    expect(ids).toHaveLength(11);
    const done: Record<string, number> = {};
    for (const id of ids) {
      const v = resolveVariant(l, id);
      expect(startingStateFailures(v, simRuntime), id).toEqual([]);
      const r = replaySolution(v, simRuntime);
      expect(r.failures, id).toEqual([]);
      done[id] = r.completedAt!;
    }
    // The disk-pressure fix waits out --eviction-pressure-transition-period (5m) after rm at 1m41s.
    expect(done['disk-pressure']).toBeGreaterThanOrEqual(101_000 + 300_000);
    expect(done['kubelet-stopped']).toBeLessThan(130_000);
  }, 120_000);

  it('kube-proxy-stale: worker-1 keeps sending web to the completed canary until kube-proxy restarts', () => {
    const v = resolveVariant(load(LESSON12), 'kube-proxy-stale');
    const s = new LessonSession(v, simRuntime.createCluster(v.scenario, v.paths.scenario));
    for (const st of v.variant!.setup) {
      s.cluster.runUntil(Number.parseInt(st.at) * 1000);
      s.applyStep(st, simRuntime);
    }
    s.cluster.runUntil(120_000);
    s.evaluateTasks();
    const canary = s.cluster.api.tryGet<KubeObject>('Pod', 'default', 'web-canary')!;
    expect(canary.status.phase).toBe('Succeeded');
    expect(s.tasks[2].detail).toBe(
      `worker-1 still sends Service default/web to ${canary.status.podIP}:80, which is no longer a ready endpoint`
    );
    s.lang = 'ru';
    s.evaluateTasks();
    expect(s.tasks[2].detail).toContain('worker-1 всё ещё направляет Service default/web');
  });
});

describe('challenge score', () => {
  it('100 − 10 per hint − virtual minutes past 5 (≤20) − wall minutes past 10 (≤30); 0 with the solution shown', () => {
    expect(challengeScore({ hints: 0, virtualMs: 150_000, wallMs: 240_000, solutionViewed: false })).toEqual({
      total: 100,
      hints: 0,
      virtual: 0,
      wall: 0
    });
    expect(
      challengeScore({ hints: 2, virtualMs: 7 * 60_000 + 5_000, wallMs: 13 * 60_000, solutionViewed: false })
    ).toEqual({
      total: 75,
      hints: 20,
      virtual: 2,
      wall: 3
    });
    expect(
      challengeScore({ hints: 12, virtualMs: 3_600_000, wallMs: 7_200_000, solutionViewed: false }).total
    ).toBe(0);
    expect(challengeScore({ hints: 0, virtualMs: 3_600_000, wallMs: 0, solutionViewed: false }).virtual).toBe(
      20
    );
    expect(challengeScore({ hints: 0, virtualMs: 0, wallMs: 0, solutionViewed: true }).total).toBe(0);
  });
});
