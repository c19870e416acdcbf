/**
 * A lesson being played: the cluster, the learner's answers, which tasks are done (a task ticks
 * the moment the cluster satisfies its check, and stays ticked), hints used and whether the
 * solution was viewed. The player UI (with the lab's cluster) and the CLI validator (with a cluster
 * of its own) both drive lessons through this class.
 */
import type { Cluster } from '../sim/cluster';
import { parseDuration } from '../sim/engine/duration';
import { evaluate, type CheckResult } from './checks';
import type { Language, Lesson, SolutionStep } from './format';
import { isCorrectAnswer } from './answers';
import { resolveVariant } from './challenge';

/** What the lesson needs from the simulator: supplied by the app and by the CLI. */
export interface LessonRuntime {
  createCluster(scenarioText: string, fileName: string): Cluster;
  /** Run a console command; returns its output (stdout + stderr) and exit code. */
  runCommand(
    cluster: Cluster,
    line: string,
    files: Record<string, string>
  ): { output: string; exitCode: number };
  /** Apply YAML through the API as `kubectl apply` would; throws with a message on error. */
  applyYaml(cluster: Cluster, yamlText: string, fileName: string): void;
}

export interface TaskState {
  id: string;
  done: boolean;
  /** Virtual ms when it first held. */
  doneAt?: number;
  detail: string;
}

const NOT_SHOWN: Record<Language, string> = {
  en: 'the fault has not shown in the cluster yet',
  ru: 'неисправность ещё не проявилась в кластере'
};

export class LessonSession {
  answers: Record<string, { value: string | number; correct: boolean }> = {};
  tasks: TaskState[];
  hintsUsed: Record<string, number> = {};
  solutionViewed = false;
  /** Challenge tasks whose check failed after the setup (the fault showed): task id → virtual ms. */
  private shownAt: Record<string, number> = {};
  private readonly gated: Set<string>;
  /** Virtual ms of the last setup step: gated checks count only from then on. */
  private readonly armFrom: number;

  constructor(
    readonly lesson: Lesson,
    public cluster: Cluster,
    public lang: Language = 'en'
  ) {
    this.tasks = this.freshTasks();
    this.gated = new Set(lesson.variant?.gated ?? []);
    this.armFrom = Math.max(0, ...(lesson.variant?.setup ?? []).map((st) => parseDuration(st.at)));
  }

  private freshTasks(): TaskState[] {
    return this.lesson.spec.spec.tasks.map((t) => ({ id: t.id, done: false, detail: '' }));
  }

  /** Follow a new cluster (the lab's reset); answers and task ticks are kept unless `full`. */
  reset(cluster: Cluster, full = false): void {
    this.cluster = cluster;
    this.shownAt = {};
    if (full) {
      this.answers = {};
      this.tasks = this.freshTasks();
    }
  }

  answer(questionId: string, value: string | number): boolean {
    const q = (this.lesson.spec.spec.questions ?? []).find((x) => x.id === questionId);
    if (!q) throw new Error(`unknown question "${questionId}"`);
    const correct = isCorrectAnswer(q, value);
    // A correct answer is kept: a later wrong try does not undo a prediction already made.
    if (!this.answers[questionId]?.correct) this.answers[questionId] = { value, correct };
    this.evaluateTasks();
    return correct;
  }

  /** Evaluate every task check now; returns the tasks that became done in this call. */
  evaluateTasks(): TaskState[] {
    const answers = Object.fromEntries(Object.entries(this.answers).map(([k, v]) => [k, v.correct]));
    const newly: TaskState[] = [];
    for (const [i, t] of this.lesson.spec.spec.tasks.entries()) {
      const st = this.tasks[i];
      if (st.done) continue;
      const r: CheckResult = evaluate(t.check, { cluster: this.cluster, answers, lang: this.lang });
      st.detail = r.detail;
      if (this.gated.has(t.id) && !this.faultShown(t.id, r.ok)) {
        st.detail = NOT_SHOWN[this.lang];
        continue;
      }
      if (r.ok) {
        st.done = true;
        st.doneAt = this.cluster.now;
        newly.push(st);
      }
    }
    return newly;
  }

  /**
   * A challenge's fix check counts only once it has failed after the setup finished: before the
   * fault shows, the cluster is still healthy and "node Ready" would hold without any fix.
   * A jump back in time before that failure forgets it.
   */
  private faultShown(taskId: string, ok: boolean): boolean {
    const now = this.cluster.now;
    const at = this.shownAt[taskId];
    if (at !== undefined && at > now) delete this.shownAt[taskId];
    if (now < this.armFrom) return false;
    if (!ok && this.shownAt[taskId] === undefined) this.shownAt[taskId] = now;
    return this.shownAt[taskId] !== undefined;
  }

  get complete(): boolean {
    return this.tasks.every((t) => t.done);
  }

  /** The console's `disabled` hook: a reason to refuse, or undefined. */
  disabledReason(argv: string[]): string | undefined {
    const line = argv.join(' ');
    for (const d of this.lesson.spec.spec.disabled ?? []) {
      if (d.command && (line === d.command || line.startsWith(d.command + ' '))) {
        return this.lesson.text[this.lang].disabled?.[d.command] ?? `${d.command} is disabled in this lesson`;
      }
    }
    return undefined;
  }

  faultDisabled(action: string): string | undefined {
    const d = (this.lesson.spec.spec.disabled ?? []).find((x) => x.fault === action);
    return d
      ? (this.lesson.text[this.lang].disabled?.[action] ?? `${action} is disabled in this lesson`)
      : undefined;
  }

  useHint(taskId: string): string | undefined {
    const hints = this.lesson.text[this.lang].tasks[taskId]?.hints ?? [];
    const n = Math.min((this.hintsUsed[taskId] ?? 0) + 1, hints.length);
    this.hintsUsed[taskId] = n;
    return hints[n - 1];
  }

  /** Apply one reference-solution step to the cluster now. Returns console output, if any. */
  applyStep(step: SolutionStep, runtime: LessonRuntime): string {
    const files = this.lesson.spec.spec.files ?? {};
    if (step.run) {
      const r = runtime.runCommand(this.cluster, step.run, files);
      const expected = step.exitCode ?? 0;
      if (r.exitCode !== expected)
        throw new Error(
          expected === 0
            ? `solution command "${step.run}" failed (exit ${r.exitCode}): ${r.output.trim()}`
            : `solution command "${step.run}" exited ${r.exitCode}, not ${expected}: ${r.output.trim()}`
        );
      return r.output;
    }
    if (step.apply) runtime.applyYaml(this.cluster, step.apply, `${this.lesson.paths.spec} (solution)`);
    if (step.fault) {
      const { action, ...params } = step.fault;
      this.cluster.applyFault(action, params);
    }
    if (step.answer) this.answer(step.answer.question, step.answer.value);
    return '';
  }
}

export interface ReplayResult {
  ok: boolean;
  /** Virtual ms at which all tasks were done. */
  completedAt?: number;
  tasks: TaskState[];
  failures: string[];
}

/**
 * Replay the reference solution on a fresh cluster: apply each step at its time, evaluating the
 * checks every virtual second, and require every task to be done within the time budget.
 */
export function replaySolution(lesson: Lesson, runtime: LessonRuntime): ReplayResult {
  if (lesson.spec.spec.challenge && !lesson.variant)
    throw new Error('a challenge lesson is replayed per variant (resolveVariant)');
  const s = new LessonSession(lesson, runtime.createCluster(lesson.scenario, lesson.paths.scenario));
  const budget = parseDuration(lesson.spec.spec.timeBudget);
  const steps = timedSteps(lesson, true);
  const failures: string[] = [];
  const where = variantPrefix(lesson);
  let next = 0;
  for (let t = 0; t <= budget && !s.complete; t += 1000) {
    s.cluster.runUntil(t);
    while (next < steps.length && steps[next].at <= t) {
      try {
        s.applyStep(steps[next].st, runtime);
      } catch (e) {
        failures.push(`${lesson.paths.spec}: ${where}${steps[next].field}: ${(e as Error).message}`);
      }
      next++;
    }
    s.evaluateTasks();
  }
  for (const t of s.tasks) {
    if (!t.done)
      failures.push(
        `${lesson.paths.spec}: ${where}task "${t.id}" is not done after replaying the solution for ${lesson.spec.spec.timeBudget}: ${t.detail}`
      );
  }
  return {
    ok: failures.length === 0,
    completedAt: s.complete ? s.cluster.now : undefined,
    tasks: s.tasks,
    failures
  };
}

/** `variant "x": ` for a resolved challenge lesson, for messages. */
function variantPrefix(lesson: Lesson): string {
  return lesson.variant ? `variant "${lesson.variant.id}": ` : '';
}

/** The steps to play, sorted by time: a variant's setup first, then (if asked) the solution. */
export function timedSteps(
  lesson: Lesson,
  withSolution: boolean
): { st: SolutionStep; at: number; field: string; setup: boolean }[] {
  const v = lesson.variant;
  const vi = v ? (lesson.spec.spec.challenge?.variants ?? []).findIndex((x) => x.id === v.id) : -1;
  const own =
    lesson.spec.spec.solution.length -
    (v ? (lesson.spec.spec.challenge?.variants[vi]?.solution.length ?? 0) : 0);
  const setup = (v?.setup ?? []).map((st, i) => ({
    st,
    at: parseDuration(st.at),
    field: `spec.challenge.variants[${vi}].setup[${i}]`,
    setup: true
  }));
  const solution = withSolution
    ? lesson.spec.spec.solution.map((st, i) => ({
        st,
        at: parseDuration(st.at),
        field: i < own ? `spec.solution[${i}]` : `spec.challenge.variants[${vi}].solution[${i - own}]`,
        setup: false
      }))
    : [];
  // Array.prototype.sort is stable: at the same time, setup steps come before solution steps.
  return [...setup, ...solution].sort((a, b) => a.at - b.at);
}

/**
 * The starting state must fail every task check (else the task is done before the learner acts).
 * For a challenge variant, the tasks the variant checks must also stay undone when only its setup
 * plays for the whole time budget: the fault does not go away by itself.
 */
export function startingStateFailures(lesson: Lesson, runtime: LessonRuntime): string[] {
  return startingState(lesson, runtime).failures;
}

/** The starting-state check with the ids of the tasks that wrongly hold (see startingStateFailures). */
export function startingState(
  lesson: Lesson,
  runtime: LessonRuntime
): { failures: string[]; passing: { id: string; message: string }[] } {
  const s = new LessonSession(lesson, runtime.createCluster(lesson.scenario, lesson.paths.scenario));
  const out: string[] = [];
  const passing: { id: string; message: string }[] = [];
  const fail = (id: string, message: string) => {
    out.push(message);
    passing.push({ id, message });
  };
  const where = variantPrefix(lesson);
  s.evaluateTasks();
  for (const t of s.tasks) {
    if (t.done)
      fail(
        t.id,
        `${lesson.paths.spec}: ${where}task "${t.id}" already holds in the starting state: the learner would have nothing to do`
      );
  }
  if (!lesson.variant || out.length) return { failures: out, passing };
  const gated = lesson.variant.gated;
  const steps = timedSteps(lesson, false);
  const budget = parseDuration(lesson.spec.spec.timeBudget);
  let next = 0;
  for (let t = 0; t <= budget; t += 1000) {
    s.cluster.runUntil(t);
    while (next < steps.length && steps[next].at <= t) {
      try {
        s.applyStep(steps[next].st, runtime);
      } catch (e) {
        out.push(`${lesson.paths.spec}: ${where}${steps[next].field}: ${(e as Error).message}`);
      }
      next++;
    }
    s.evaluateTasks();
    const done = s.tasks.filter((x) => x.done && gated.includes(x.id));
    if (done.length) {
      for (const x of done)
        fail(
          x.id,
          `${lesson.paths.spec}: ${where}task "${x.id}" is done at t=${t / 1000}s with only the setup played: the fault fixes itself or never shows`
        );
      break;
    }
  }
  return { failures: out, passing };
}

/** Resolve every variant of a challenge lesson (or the lesson itself when it is not one). */
export function playableLessons(lesson: Lesson): Lesson[] {
  const ch = lesson.spec.spec.challenge;
  return ch ? ch.variants.map((v) => resolveVariant(lesson, v.id)) : [lesson];
}
