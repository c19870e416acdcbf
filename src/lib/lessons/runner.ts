/**
 * A lesson running next to the lab's cluster, inside the lab session (the Web Worker in the app):
 * after every frame it plays the challenge's setup and, when asked, the reference solution at
 * their times, then evaluates the task checks, so a task ticks the moment the cluster satisfies
 * it. The page's player shows `status()` and keeps what is the page's own: progress storage and
 * the wall time spent.
 */
import type { Cluster } from '../sim/cluster';
import { parseDuration } from '../sim/engine/duration';
import type { EventLogEntry } from '../sim/events/recorder';
import type {
  ApplyResult,
  LabActionInput,
  LessonInit,
  LessonRestore,
  LessonStatus,
  LessonTaskStatus
} from '../sim/session/protocol';
import type { Language, Lesson, SolutionStep } from './format';
import { LessonSession } from './session';

/** What the runner needs of the lab session: its doors, the same a learner has. */
export interface RunnerLab {
  readonly cluster: Cluster;
  /** A console line, printed in the console like the learner's own. */
  exec(line: string): void;
  apply(yaml: string, fileName: string): ApplyResult;
  /** A fault as the fault panel applies it (SetProxyMode with its mode); returns the refusal. */
  fault(action: string, target?: string, mode?: string): string | undefined;
  /** A recorded action that prints nothing (a challenge's setup). */
  perform(a: LabActionInput): void;
  reset(): void;
  setPlaying(on: boolean): void;
}

interface Timed {
  step: SolutionStep;
  at: number;
}

const timed = (steps: readonly SolutionStep[]): Timed[] =>
  steps.map((step) => ({ step, at: parseDuration(step.at) })).sort((a, b) => a.at - b.at);

export class LessonRunner {
  readonly session: LessonSession;
  readonly lesson: Lesson;
  private readonly steps: Timed[];
  private readonly setupSteps: Timed[];
  private setupNext = 0;
  private solution = { active: false, next: 0, error: '' };
  private setupError = '';
  private lastNow = 0;
  private completedAt?: number;
  private readonly watchReasons: ReadonlySet<string>;
  private watched: EventLogEntry[] = [];
  private watchedLog?: readonly EventLogEntry[];
  private watchedFrom = 0;
  private readonly faultsHidden: boolean;

  constructor(
    init: LessonInit,
    private readonly lab: RunnerLab
  ) {
    this.lesson = init.lesson;
    this.steps = timed(init.lesson.spec.spec.solution);
    this.setupSteps = timed(init.lesson.variant?.setup ?? []);
    this.watchReasons = new Set(init.watchReasons);
    this.faultsHidden = init.faultsHidden;
    this.session = new LessonSession(init.lesson, lab.cluster, init.lang);
    if (init.restore) this.restore(init.restore);
  }

  /** Progress from storage: answers, hints and ticks already earned stay. */
  restore(r: LessonRestore): void {
    const s = this.session;
    for (const [id, a] of Object.entries(r.answers)) if (!s.answers[id]?.correct) s.answers[id] = { ...a };
    s.hintsUsed = { ...r.hints };
    s.solutionViewed = s.solutionViewed || r.solutionViewed;
    for (const t of s.tasks) if (r.done.includes(t.id)) t.done = true;
    if (s.complete && this.completedAt === undefined) this.completedAt = this.lab.cluster.now;
  }

  /**
   * After the lab replayed a recording: the setup steps up to now are in it, so they are not
   * applied again; the reference solution is not playing.
   */
  resume(): void {
    const now = this.lab.cluster.now;
    this.session.cluster = this.lab.cluster;
    this.setupNext = this.setupSteps.filter((x) => x.at <= now).length;
    this.solution = { active: false, next: 0, error: '' };
    this.lastNow = now;
  }

  setLang(lang: Language): void {
    this.session.lang = lang;
  }

  /** After each frame: follow the lab's cluster, play due setup and solution steps, evaluate. */
  frame(): void {
    const s = this.session;
    const cluster = this.lab.cluster;
    if (s.cluster !== cluster) s.cluster = cluster;
    const now = cluster.now;
    if (this.setupSteps.length) {
      // Jumping back in time drops the lab's later actions, so the later steps apply again.
      if (now < this.lastNow) this.setupNext = this.setupSteps.filter((x) => x.at <= now).length;
      this.playSetup(now);
    }
    if (this.solution.active) {
      if (now < this.lastNow) this.solution.next = this.steps.filter((x) => x.at <= now).length;
      this.playDueSteps(now);
    }
    this.lastNow = now;
    this.evaluate();
  }

  private evaluate(): void {
    const s = this.session;
    const wasComplete = this.completedAt !== undefined;
    s.evaluateTasks();
    if (!wasComplete && s.complete) {
      this.completedAt = s.cluster.now;
      this.solution.active = false;
    }
  }

  status(): LessonStatus {
    const s = this.session;
    const log = s.cluster.eventLog;
    if (this.watchReasons.size) {
      if (log !== this.watchedLog || log.length < this.watchedFrom) {
        this.watchedLog = log;
        this.watched = log.filter((e) => this.watchReasons.has(e.reason));
      } else {
        const more = log.slice(this.watchedFrom).filter((e) => this.watchReasons.has(e.reason));
        if (more.length) this.watched = [...this.watched, ...more];
      }
      this.watchedFrom = log.length;
    }
    const tasks: LessonTaskStatus[] = s.tasks.map((t) => ({
      id: t.id,
      done: t.done,
      detail: t.done ? '' : t.detail,
      ...(t.doneAt !== undefined ? { doneAt: t.doneAt } : {})
    }));
    return {
      tasks,
      complete: s.complete,
      ...(this.completedAt !== undefined ? { completedAt: this.completedAt } : {}),
      answers: structuredClone(s.answers),
      hints: { ...s.hintsUsed },
      solutionViewed: s.solutionViewed,
      solution: { ...this.solution },
      setupError: this.setupError,
      watched: this.watched
    };
  }

  /** Check an answer; a correct answer is kept. */
  answer(id: string, value: string | number): boolean {
    const correct = this.session.answer(id, value);
    this.evaluate();
    return correct;
  }

  /** The console's `disabled` hook. */
  disabledReason(argv: string[]): string | undefined {
    return this.session.disabledReason(argv);
  }

  /** Why a fault from the page is refused: disabled by the lesson, or no fault panel here. */
  faultRefusal(action: string): string | undefined {
    if (this.faultsHidden && !this.solution.active) return NO_FAULTS[this.session.lang];
    return this.session.faultDisabled(action);
  }

  /** Back to the lesson's starting cluster; ticks and answers stay. */
  resetLab(): void {
    this.solution = { active: false, next: 0, error: '' };
    this.setupNext = 0;
    this.lastNow = 0;
    this.lab.reset();
    this.session.reset(this.lab.cluster);
  }

  /** Start the lesson over: a fresh cluster, no ticks, no answers (hints used stay counted). */
  startOver(): void {
    this.resetLab();
    this.session.reset(this.lab.cluster, true);
    this.completedAt = undefined;
  }

  /**
   * Play the reference solution on a fresh cluster: each step is applied when the clock reaches
   * its time. Marks the solution viewed; the tasks still tick only from the cluster.
   */
  showSolution(): void {
    this.session.solutionViewed = true;
    this.resetLab();
    this.solution = { active: true, next: 0, error: '' };
    this.frame();
    this.lab.setPlaying(true);
  }

  private playSetup(now: number): void {
    while (this.setupNext < this.setupSteps.length && this.setupSteps[this.setupNext].at <= now) {
      const { step } = this.setupSteps[this.setupNext++];
      try {
        if (step.fault)
          this.lab.perform({ kind: 'fault', action: step.fault.action, target: step.fault.target });
        if (step.run) this.lab.perform({ kind: 'console', line: step.run });
        if (step.apply) this.lab.perform({ kind: 'apply', yaml: step.apply, fileName: 'setup.yaml' });
      } catch (e) {
        this.setupError = e instanceof Error ? e.message : String(e);
      }
    }
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
    if (step.run) this.lab.exec(step.run);
    if (step.apply) {
      const r = this.lab.apply(step.apply, 'solution.yaml');
      if (!r.ok) return r.message;
    }
    if (step.fault) {
      const { action, target, mode } = step.fault;
      const err = this.lab.fault(action, target, typeof mode === 'string' ? mode : undefined);
      if (err) return err;
    }
    if (step.answer) this.session.answer(step.answer.question, step.answer.value);
    return '';
  }
}

const NO_FAULTS: Record<Language, string> = {
  en: 'There is no fault panel in this lesson.',
  ru: 'В этом уроке нет панели сбоев.'
};
