/**
 * The lesson player's model on the page. The lesson's checks, the challenge's setup and the
 * reference solution run in the lab session next to the cluster (the Web Worker); each frame
 * brings the lesson's status, and the player shows it: ticks, answers, the solution's progress,
 * watched events. It keeps what is the page's own: the hints revealed, the wall time spent and
 * the progress it saves through the `save` callback.
 */
import type { EventLogEntry } from '$lib/sim/observe';
import type { LessonInit, LessonStatus } from '$lib/sim/session/protocol';
import type { Language, Lesson } from '$lib/lessons/format';
import type { ProgressInput, ProgressRecord } from '$lib/persist';
import { challengeScore, type Score } from '$lib/lessons/score';
import {
  emptyState,
  MAX_SAVED_ACTIONS,
  progressInput,
  readState,
  totalHints,
  type PlayerState
} from './progress';
import type { Lab } from '$lib/ui/lab/lab.svelte';

/** What the player needs of the lab (`Lab` from src/lib/ui/lab satisfies it). */
export type PlayerLab = Pick<Lab, 'exec' | 'lessonOp'>;

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

/** What happened to the lesson, for whoever follows it from outside (the embed's host page). */
export type PlayerEvent =
  /** The lab runs the lesson: on attach, and again after "start over" (nothing done then). */
  | { type: 'started'; tasks: string[]; done: string[] }
  /** A task ticked in this visit (not one restored from saved progress). */
  | { type: 'task'; task: string; virtualMs: number; done: number; total: number }
  | { type: 'complete'; virtualMs: number; score?: Score; hints: number; solutionViewed: boolean };

export interface PlayerOptions {
  lang: () => Language;
  onevent?: (e: PlayerEvent) => void;
  save?: (input: ProgressInput) => Promise<unknown>;
  /** Wall clock in ms for the time spent (performance.now in the page). */
  wallClock?: () => number;
}

export class LessonPlayer {
  tasks = $state<TaskView[]>([]);
  answers = $state<PlayerState['answers']>({});
  hints = $state<Record<string, number>>({});
  /** Times the learner checked each question. */
  tries = $state<Record<string, number>>({});
  /** Virtual ms when each task was done. */
  taskDoneAt = $state<Record<string, number>>({});
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

  /** The reference solution's steps (their count shows the solution's progress). */
  readonly steps: readonly unknown[];
  private lab?: PlayerLab;
  private readonly watchReasons: string[];
  private visibleSince?: number;
  private saving: Promise<unknown> = Promise.resolve();
  /** A save waiting for the one before it to land (later saves join it). */
  private queued?: Promise<unknown>;
  private restored = false;
  /** The next save replaces the stored ticks (the learner started over) instead of joining them. */
  private nextSaveStartsOver = false;
  /** Where the lab is (saved with the progress, so a reload reopens the same cluster). */
  private labState?: () => Promise<PlayerState['lab']>;
  private lastLab?: PlayerState['lab'];
  private startingOver = false;

  constructor(
    readonly lesson: Lesson,
    private opts: PlayerOptions,
    watchReasons: string[] = []
  ) {
    this.tasks = lesson.spec.spec.tasks.map((t) => ({ id: t.id, done: false, detail: '' }));
    this.steps = lesson.spec.spec.solution;
    this.watchReasons = watchReasons;
  }

  /** What the lab session needs to run this lesson next to its cluster. */
  init(faultsHidden: boolean): LessonInit {
    return {
      lesson: this.lesson,
      lang: this.opts.lang(),
      watchReasons: this.watchReasons,
      faultsHidden
    };
  }

  /** Restore saved progress: answers, ticks, hints, solution viewed, time spent. */
  restore(record: ProgressRecord | undefined): void {
    const s = record ? readState(record) : emptyState();
    this.answers = s.answers;
    this.hints = s.hints;
    this.tries = s.tries ?? {};
    this.taskDoneAt = s.taskDoneAt ?? {};
    this.solutionViewed = s.solutionViewed;
    this.timeSpentMs = s.timeSpentMs;
    this.virtualDoneAt = s.virtualDoneAt;
    const done = record?.completedSteps ?? [];
    this.tasks = this.tasks.map((t) => ({ ...t, done: done.includes(t.id) }));
    this.complete = this.tasks.every((t) => t.done);
    this.restored = true;
    this.pushRestore();
  }

  /**
   * Another tab saved this lesson's progress: take in its ticks, correct answers, hints and
   * whether the solution was viewed (a tick stays a tick), so both tabs show one truth and this
   * tab's next save keeps what the other did. Returns whether anything changed here.
   */
  merge(record: ProgressRecord | undefined): boolean {
    if (!record || !this.restored || this.startingOver) return false;
    const s = readState(record);
    const theirs = record.completedSteps;
    const newly = this.tasks.filter((t) => !t.done && theirs.includes(t.id));
    let changed = newly.length > 0;
    if (newly.length) {
      this.tasks = this.tasks.map((t) => (theirs.includes(t.id) ? { id: t.id, done: true, detail: '' } : t));
      const at = { ...this.taskDoneAt };
      for (const t of newly) if (s.taskDoneAt?.[t.id] !== undefined) at[t.id] ??= s.taskDoneAt[t.id];
      this.taskDoneAt = at;
    }
    const answers = { ...this.answers };
    for (const [id, a] of Object.entries(s.answers))
      if (a.correct && !answers[id]?.correct) {
        answers[id] = a;
        changed = true;
      }
    if (changed) this.answers = answers;
    const hints = { ...this.hints };
    let moreHints = false;
    for (const [id, n] of Object.entries(s.hints))
      if (n > (hints[id] ?? 0)) {
        hints[id] = n;
        moreHints = true;
      }
    if (moreHints) this.hints = hints;
    const tries = { ...this.tries };
    for (const [id, n] of Object.entries(s.tries ?? {})) if (n > (tries[id] ?? 0)) tries[id] = n;
    this.tries = tries;
    if (s.solutionViewed && !this.solutionViewed) {
      this.solutionViewed = true;
      changed = true;
    }
    changed ||= moreHints;
    if (this.tasks.every((t) => t.done) && !this.complete) {
      this.pauseClock();
      this.complete = true;
      this.virtualDoneAt = s.virtualDoneAt ?? this.virtualDoneAt;
    }
    if (changed) this.pushRestore();
    return changed;
  }

  /** Bind to the lab once its session runs the lesson. */
  attach(lab: PlayerLab & Partial<Pick<Lab, 'recording'>>): void {
    this.lab = lab;
    const rec = lab.recording?.bind(lab);
    this.labState = rec
      ? async () => {
          const r = await rec();
          return r.actions.length <= MAX_SAVED_ACTIONS ? { t: r.t, actions: r.actions } : undefined;
        }
      : undefined;
    this.ready = true;
    this.pushRestore();
    this.emitStarted();
  }

  private emitStarted(): void {
    this.opts.onevent?.({
      type: 'started',
      tasks: this.tasks.map((t) => t.id),
      done: this.tasks.filter((t) => t.done).map((t) => t.id)
    });
  }

  private pushRestore(): void {
    if (!this.lab || !this.restored) return;
    void this.lab
      .lessonOp({
        op: 'restore',
        restore: {
          answers: $state.snapshot(this.answers),
          hints: $state.snapshot(this.hints),
          solutionViewed: this.solutionViewed,
          done: this.tasks.filter((t) => t.done).map((t) => t.id)
        }
      })
      .catch(() => {});
  }

  /** After each lab frame: the lesson's status as the session evaluated it. */
  frame(status: LessonStatus | undefined, now: number): void {
    this.now = now;
    if (!status || this.startingOver) return;
    // A task ticked here stays ticked (progress restored before the session knew of it).
    const newly = status.tasks.filter((t, i) => t.done && !this.tasks[i]?.done);
    const changed = status.tasks.some(
      (t, i) => t.done !== this.tasks[i]?.done || (t.done ? '' : t.detail) !== this.tasks[i]?.detail
    );
    if (changed)
      this.tasks = status.tasks.map((t, i) => {
        const done = t.done || !!this.tasks[i]?.done;
        return { id: t.id, done, detail: done ? '' : t.detail };
      });
    if (JSON.stringify(status.answers) !== JSON.stringify(this.answers)) this.answers = status.answers;
    if (status.solutionViewed && !this.solutionViewed) this.solutionViewed = true;
    if (
      status.solution.active !== this.solution.active ||
      status.solution.next !== this.solution.next ||
      status.solution.error !== this.solution.error
    )
      this.solution = status.solution;
    if (status.setupError !== this.setupError) this.setupError = status.setupError;
    if (status.watched !== this.watched) this.watched = status.watched;
    if (newly.length) {
      const at = { ...this.taskDoneAt };
      for (const t of newly) at[t.id] ??= t.doneAt ?? now;
      this.taskDoneAt = at;
      this.announcement = newly.map((t) => this.taskTitle(t.id)).join('; ');
      let finished = false;
      if (this.tasks.every((t) => t.done) && !this.complete) {
        finished = true;
        this.pauseClock();
        this.complete = true;
        this.completedLive = true;
        this.virtualDoneAt = status.completedAt ?? now;
      }
      const done = this.tasks.filter((t) => t.done).length;
      for (const t of newly)
        this.opts.onevent?.({
          type: 'task',
          task: t.id,
          virtualMs: Math.round(now),
          done,
          total: this.tasks.length
        });
      if (finished)
        this.opts.onevent?.({
          type: 'complete',
          virtualMs: Math.round(this.virtualDoneAt ?? now),
          score: this.score(),
          hints: totalHints(this.hints),
          solutionViewed: this.solutionViewed
        });
      void this.save();
    }
  }

  taskTitle(id: string): string {
    return this.lesson.text[this.opts.lang()].tasks[id]?.title ?? id;
  }

  /** Check an answer in the session; resolves to whether it is correct. A correct answer is kept. */
  async answer(id: string, value: string | number): Promise<boolean> {
    if (!this.lab) return false;
    const r = await this.lab.lessonOp({ op: 'answer', id, value });
    const correct = r.correct ?? false;
    this.tries = { ...this.tries, [id]: (this.tries[id] ?? 0) + 1 };
    if (!this.answers[id]?.correct) this.answers = { ...this.answers, [id]: { value, correct } };
    void this.save();
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
    this.hints = { ...this.hints, [taskId]: (this.hints[taskId] ?? 0) + 1 };
    void this.save();
    return this.hintsShown(taskId).at(-1);
  }

  /** Run a console command in the lab (the ```command embed). */
  run(command: string): void {
    void this.lab?.exec(command);
  }

  /** Back to the lesson's starting cluster; ticks and answers stay. */
  async resetLab(): Promise<void> {
    await this.lab?.lessonOp({ op: 'resetLab' });
  }

  /** Start the lesson over: a fresh cluster, no ticks, no answers (hints used stay counted). */
  async startOver(): Promise<void> {
    if (!this.lab) return;
    // Frames sent before the session started over still carry the old ticks: ignore them, or a
    // task ticked here would stay ticked.
    this.startingOver = true;
    try {
      await this.lab.lessonOp({ op: 'startOver' });
    } finally {
      this.startingOver = false;
    }
    this.answers = {};
    this.complete = false;
    this.completedLive = false;
    this.virtualDoneAt = undefined;
    this.taskDoneAt = {};
    this.tasks = this.tasks.map((t) => ({ id: t.id, done: false, detail: '' }));
    this.resumeClock();
    this.emitStarted();
    this.nextSaveStartsOver = true;
    await this.save();
  }

  /**
   * Play the reference solution on a fresh lab cluster: each step is applied when the clock
   * reaches its time. Marks the solution viewed; the tasks still tick only from the cluster.
   */
  async showSolution(): Promise<void> {
    if (!this.lab) return;
    this.solutionViewed = true;
    await this.lab.lessonOp({ op: 'showSolution' });
    await this.save();
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
      tries: this.tries,
      hints: this.hints,
      taskDoneAt: this.taskDoneAt,
      solutionViewed: this.solutionViewed,
      timeSpentMs: Math.round(this.spent()),
      ...(this.virtualDoneAt !== undefined ? { virtualDoneAt: this.virtualDoneAt } : {}),
      ...(v ? { challenge: { variant: v.id, ...(v.seed !== undefined ? { seed: v.seed } : {}) } } : {}),
      ...(score ? { score: score.total } : {})
    };
  }

  /** Resolves once every save asked for so far has landed (read progress after it). */
  saved(): Promise<unknown> {
    return this.saving;
  }

  /**
   * Save progress now. Writes land in order, and a save that is still waiting its turn writes the
   * progress of the moment it runs, so a burst of actions queues one write, not one per action
   * (each write asks the worker where the lab is): a reload right after the last action finds it.
   */
  save(opts: { join?: boolean } = {}): Promise<unknown> {
    const save = this.opts.save;
    if (!save) return this.saving;
    if (this.visibleSince !== undefined) {
      this.pauseClock();
      this.resumeClock();
    }
    // The page hiding or closing asks for a write of its own, queued now while the lab still answers.
    if (this.queued && opts.join !== false) return this.queued;
    const run = this.saving
      .then(async () => {
        this.queued = undefined;
        const done = this.tasks.filter((t) => t.done).map((t) => t.id);
        const complete = this.complete;
        const startOver = this.nextSaveStartsOver;
        this.nextSaveStartsOver = false;
        const state = this.state();
        const labState = this.labState;
        // The lab's place is asked for in order with the saves; once the lab is closed (the page
        // is leaving) the last place it gave is kept.
        const lab = labState ? await labState().catch(() => this.lastLab) : this.lastLab;
        this.lastLab = lab;
        await save(
          progressInput(this.lesson.slug, done, complete, lab ? { ...state, lab } : state, startOver)
        );
      })
      .catch((e) => console.error(e));
    this.queued = run;
    this.saving = run;
    return this.saving;
  }
}
