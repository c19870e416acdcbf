/**
 * The lesson player's model: a lesson session (checks, answers, hints) on the lab's cluster.
 * The lab calls `frame()` after every frame; the player evaluates the task checks then, so a task
 * ticks the moment the cluster satisfies it. It also plays the reference solution on the lab
 * ("show solution"), keeps the time spent and saves progress through the `save` callback.
 */
import type { Cluster } from '$lib/sim/cluster';
import type { EventLogEntry } from '$lib/sim/events/recorder';
import { parseDuration } from '$lib/sim/engine/duration';
import type { Language, Lesson, SolutionStep } from '$lib/lessons/format';
import type { ProgressInput, ProgressRecord } from '$lib/persist';
import { LessonSession } from '$lib/lessons/session';
import { challengeScore, type Score } from '$lib/lessons/score';
import { emptyState, progressInput, readState, totalHints, type PlayerState } from './progress';

/** What the player needs of the lab (`Lab` from src/lib/ui/lab satisfies it). */
export interface PlayerLab {
  readonly cluster: Cluster;
  exec(line: string): void;
  applyYaml(yaml: string, fileName?: string): { ok: boolean; message: string };
  fault(action: string, target?: string): string | undefined;
  reset(): void;
  setPlaying(on: boolean): void;
}

/** A lab action recorded for time travel without printing in the console (a challenge's setup). */
export type SetupAction =
  | { kind: 'fault'; action: string; target?: string }
  | { kind: 'console'; line: string }
  | { kind: 'apply'; yaml: string; fileName: string };

export interface TaskView {
  id: string;
  done: boolean;
  detail: string;
}

export interface SolutionView {
  active: boolean;
  /** Index of the next step to apply (steps sorted by time). */
  next: number;
  error: string;
}

export interface PlayerOptions {
  lang: () => Language;
  save?: (input: ProgressInput) => Promise<unknown>;
  /** Wall clock in ms for the time spent (performance.now in the page). */
  wallClock?: () => number;
}

export class LessonPlayer {
  tasks = $state<TaskView[]>([]);
  answers = $state<PlayerState['answers']>({});
  hints = $state<Record<string, number>>({});
  solutionViewed = $state(false);
  solution = $state<SolutionView>({ active: false, next: 0, error: '' });
  complete = $state(false);
  /** The lesson was completed while open (not restored complete): the summary takes focus. */
  completedLive = $state(false);
  /** Text for the tasks' polite live region. */
  announcement = $state('');
  ready = $state(false);
  now = $state(0);
  /** Events of the reasons the lesson's ```watch embeds ask for. */
  watched = $state.raw<EventLogEntry[]>([]);
  virtualDoneAt = $state<number | undefined>(undefined);
  timeSpentMs = $state(0);
  /** A setup step of the challenge failed (a broken lesson pack). */
  setupError = $state('');

  readonly steps: { step: SolutionStep; at: number }[];
  /** A challenge variant's setup: applied when the clock reaches each step, after every reset. */
  readonly setupSteps: { step: SolutionStep; at: number }[];
  private setupNext = 0;
  session?: LessonSession;
  private lab?: PlayerLab;
  private perform?: (a: SetupAction) => void;
  private watchReasons: readonly string[];
  private visibleSince?: number;
  private saving: Promise<unknown> = Promise.resolve();
  private lastNow = 0;
  private watchedFrom = -1;
  private watchedLog?: readonly EventLogEntry[];

  constructor(
    readonly lesson: Lesson,
    private opts: PlayerOptions,
    watchReasons: string[] = []
  ) {
    this.tasks = lesson.spec.spec.tasks.map((t) => ({ id: t.id, done: false, detail: '' }));
    this.steps = lesson.spec.spec.solution
      .map((step) => ({ step, at: parseDuration(step.at) }))
      .sort((a, b) => a.at - b.at);
    this.setupSteps = (lesson.variant?.setup ?? [])
      .map((step) => ({ step, at: parseDuration(step.at) }))
      .sort((a, b) => a.at - b.at);
    this.watchReasons = watchReasons;
  }

  /** Restore saved progress: answers, ticks, hints, solution viewed, time spent. */
  restore(record: ProgressRecord | undefined): void {
    const s = record ? readState(record) : emptyState();
    this.answers = s.answers;
    this.hints = s.hints;
    this.solutionViewed = s.solutionViewed;
    this.timeSpentMs = s.timeSpentMs;
    this.virtualDoneAt = s.virtualDoneAt;
    const done = record?.completedSteps ?? [];
    this.tasks = this.tasks.map((t) => ({ ...t, done: done.includes(t.id) }));
    this.complete = this.tasks.every((t) => t.done);
    if (this.session) this.pushToSession();
  }

  /**
   * Bind to the lab once it is built. `perform` applies a challenge's setup quietly (recorded for
   * time travel, not printed in the console, not refused like the learner's fault buttons).
   */
  attach(lab: PlayerLab, perform?: (a: SetupAction) => void): void {
    this.lab = lab;
    this.perform = perform;
    this.session = new LessonSession(this.lesson, lab.cluster, this.opts.lang());
    this.pushToSession();
    this.ready = true;
    this.frame(lab.cluster);
  }

  private pushToSession(): void {
    const s = this.session!;
    s.answers = $state.snapshot(this.answers);
    s.hintsUsed = $state.snapshot(this.hints);
    s.solutionViewed = this.solutionViewed;
    for (const t of s.tasks) {
      const mine = this.tasks.find((x) => x.id === t.id);
      if (mine?.done && !t.done) t.done = true;
    }
  }

  /** After each lab frame: follow the lab's cluster, play due solution steps, evaluate checks. */
  frame(cluster: Cluster): void {
    const s = this.session;
    if (!s) return;
    s.cluster = cluster;
    s.lang = this.opts.lang();
    const now = cluster.now;
    if (this.setupSteps.length) {
      if (now < this.lastNow) this.setupNext = this.setupSteps.filter((x) => x.at <= now).length;
      this.playSetup(now);
    }
    if (this.solution.active) {
      // Jumping back in time drops the lab's later actions, so the later steps apply again.
      if (now < this.lastNow) this.solution.next = this.steps.filter((x) => x.at <= now).length;
      this.playDueSteps(now);
    }
    this.lastNow = now;
    this.now = now;
    this.evaluate();
    if (this.watchReasons.length) {
      const log = cluster.eventLog;
      if (log.length !== this.watchedFrom || log !== this.watchedLog) this.collectWatched(log);
    }
  }

  private collectWatched(log: readonly EventLogEntry[]): void {
    this.watchedLog = log;
    this.watchedFrom = log.length;
    this.watched = log.filter((e) => this.watchReasons.includes(e.reason));
  }

  private evaluate(): void {
    const s = this.session!;
    s.evaluateTasks();
    // Diffed against the view: `session.answer()` also evaluates, so a tick may predate this call.
    const newly = s.tasks.filter((t, i) => t.done && !this.tasks[i].done);
    const changed = s.tasks.some(
      (t, i) => t.done !== this.tasks[i].done || (t.done ? '' : t.detail) !== this.tasks[i].detail
    );
    if (changed)
      this.tasks = s.tasks.map((t) => ({ id: t.id, done: t.done, detail: t.done ? '' : t.detail }));
    if (newly.length) {
      this.announcement = newly.map((t) => this.taskTitle(t.id)).join('; ');
      if (s.complete && !this.complete) {
        this.pauseClock();
        this.complete = true;
        this.completedLive = true;
        this.virtualDoneAt = s.cluster.now;
        this.solution.active = false;
      }
      this.save();
    }
  }

  taskTitle(id: string): string {
    return this.lesson.text[this.opts.lang()].tasks[id]?.title ?? id;
  }

  /** Check an answer; returns whether it is correct. A correct answer is kept. */
  answer(id: string, value: string | number): boolean {
    const correct = this.session ? this.session.answer(id, value) : false;
    if (this.session) this.answers = { ...this.session.answers };
    this.evaluate();
    this.save();
    return correct;
  }

  /** The hints shown so far for a task. */
  hintsShown(taskId: string): string[] {
    const all = this.lesson.text[this.opts.lang()].tasks[taskId]?.hints ?? [];
    return all.slice(0, this.hints[taskId] ?? 0);
  }

  hintsLeft(taskId: string): number {
    const all = this.lesson.text[this.opts.lang()].tasks[taskId]?.hints ?? [];
    return all.length - (this.hints[taskId] ?? 0);
  }

  /** Reveal the next hint of a task (counted in the summary). */
  hint(taskId: string): string | undefined {
    if (this.hintsLeft(taskId) <= 0) return undefined;
    const text = this.session?.useHint(taskId);
    this.hints = { ...this.hints, [taskId]: (this.hints[taskId] ?? 0) + 1 };
    this.save();
    return text ?? this.hintsShown(taskId).at(-1);
  }

  /** Run a console command in the lab (the ```command embed). */
  run(command: string): void {
    this.lab?.exec(command);
  }

  /** Why the console refuses a command here (the lab's `disabled` hook). */
  disabledReason(argv: string[]): string | undefined {
    return this.session?.disabledReason(argv);
  }

  /** Why a fault is refused here: disabled by the lesson, or no fault panel in this lesson. */
  faultRefusal(action: string, noFaults: string): string | undefined {
    if (!this.lesson.spec.spec.views.includes('faults') && !this.solution.active) return noFaults;
    return this.session?.faultDisabled(action);
  }

  /** Back to the lesson's starting cluster; ticks and answers stay. */
  resetLab(): void {
    if (!this.lab) return;
    this.solution = { active: false, next: 0, error: '' };
    this.setupNext = 0;
    this.lab.reset();
    this.session?.reset(this.lab.cluster);
    this.frame(this.lab.cluster);
  }

  /** Start the lesson over: a fresh cluster, no ticks, no answers (hints used stay counted). */
  startOver(): void {
    if (!this.lab || !this.session) return;
    this.solution = { active: false, next: 0, error: '' };
    this.setupNext = 0;
    this.lab.reset();
    this.session.reset(this.lab.cluster, true);
    this.answers = {};
    this.complete = false;
    this.virtualDoneAt = undefined;
    this.tasks = this.session.tasks.map((t) => ({ id: t.id, done: false, detail: '' }));
    this.frame(this.lab.cluster);
    this.resumeClock();
    this.save();
  }

  /**
   * Play the reference solution on a fresh lab cluster: each step is applied when the clock
   * reaches its time. Marks the solution viewed; the tasks still tick only from the cluster.
   */
  showSolution(): void {
    if (!this.lab || !this.session) return;
    this.solutionViewed = true;
    this.session.solutionViewed = true;
    this.setupNext = 0;
    this.lab.reset();
    this.session.reset(this.lab.cluster);
    this.solution = { active: true, next: 0, error: '' };
    this.lastNow = 0;
    this.frame(this.lab.cluster);
    this.lab.setPlaying(true);
    this.save();
  }

  private playSetup(now: number): void {
    while (this.setupNext < this.setupSteps.length && this.setupSteps[this.setupNext].at <= now) {
      const { step } = this.setupSteps[this.setupNext++];
      try {
        this.applySetupStep(step);
      } catch (e) {
        this.setupError = e instanceof Error ? e.message : String(e);
      }
    }
  }

  private applySetupStep(step: SolutionStep): void {
    const lab = this.lab!;
    const perform = this.perform;
    if (step.fault) {
      if (perform) perform({ kind: 'fault', action: step.fault.action, target: step.fault.target });
      else {
        const err = lab.fault(step.fault.action, step.fault.target);
        if (err) throw new Error(err);
      }
    }
    if (step.run) {
      if (perform) perform({ kind: 'console', line: step.run });
      else lab.exec(step.run);
    }
    if (step.apply) {
      if (perform) perform({ kind: 'apply', yaml: step.apply, fileName: 'setup.yaml' });
      else {
        const r = lab.applyYaml(step.apply, 'setup.yaml');
        if (!r.ok) throw new Error(r.message);
      }
    }
  }

  /** The challenge score (src/lib/lessons/score.ts), once every task is done. */
  score(): Score | undefined {
    if (!this.lesson.variant || !this.complete) return undefined;
    return challengeScore({
      hints: totalHints(this.hints),
      virtualMs: this.virtualDoneAt ?? 0,
      wallMs: this.spent(),
      solutionViewed: this.solutionViewed
    });
  }

  private playDueSteps(now: number): void {
    while (this.solution.next < this.steps.length && this.steps[this.solution.next].at <= now) {
      const err = this.applySolutionStep(this.steps[this.solution.next].step);
      if (err) this.solution.error = err;
      this.solution.next++;
    }
  }

  /** Through the lab's own doors, so the steps are recorded for time travel like a learner's. */
  private applySolutionStep(step: SolutionStep): string {
    const lab = this.lab!;
    if (step.run) lab.exec(step.run);
    if (step.apply) {
      const r = lab.applyYaml(step.apply, 'solution.yaml');
      if (!r.ok) return r.message;
    }
    if (step.fault) {
      const err = lab.fault(step.fault.action, step.fault.target);
      if (err) return err;
    }
    if (step.answer) {
      this.session!.answer(step.answer.question, step.answer.value);
      this.answers = { ...this.session!.answers };
    }
    return '';
  }

  // --- time spent (wall clock, only while the page is visible) ---

  resumeClock(): void {
    this.visibleSince ??= this.wall();
  }

  pauseClock(): void {
    if (this.visibleSince === undefined) return;
    if (!this.complete) this.timeSpentMs += this.wall() - this.visibleSince;
    this.visibleSince = undefined;
  }

  /** Time spent including the current visible stretch. */
  spent(): number {
    const running = this.visibleSince !== undefined && !this.complete ? this.wall() - this.visibleSince : 0;
    return this.timeSpentMs + running;
  }

  private wall(): number {
    return (this.opts.wallClock ?? (() => performance.now()))();
  }

  state(): PlayerState {
    const v = this.lesson.variant;
    const score = this.score();
    return {
      answers: this.answers,
      hints: this.hints,
      solutionViewed: this.solutionViewed,
      timeSpentMs: Math.round(this.spent()),
      ...(this.virtualDoneAt !== undefined ? { virtualDoneAt: this.virtualDoneAt } : {}),
      ...(v ? { challenge: { variant: v.id, ...(v.seed !== undefined ? { seed: v.seed } : {}) } } : {}),
      ...(score ? { score: score.total } : {})
    };
  }

  /** Save progress now (writes are queued so they land in order). */
  save(): Promise<unknown> {
    const save = this.opts.save;
    if (!save) return this.saving;
    if (this.visibleSince !== undefined) {
      this.pauseClock();
      this.resumeClock();
    }
    const input = progressInput(
      this.lesson.slug,
      this.tasks.filter((t) => t.done).map((t) => t.id),
      this.complete,
      this.state()
    );
    this.saving = this.saving.then(() => save(input)).catch((e) => console.error(e));
    return this.saving;
  }
}
