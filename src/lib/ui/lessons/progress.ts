/**
 * Lesson progress as stored in IndexedDB (`ProgressRecord`, src/lib/persist) and read back by the
 * player and the roadmap. The record's `state` holds what the common fields do not: the answers,
 * hints per task, whether the solution was viewed and the time spent.
 */
import type { JsonValue, ProgressInput, ProgressRecord } from '$lib/persist';
import type { LessonSummary } from '$lib/lessons/bundle';
import type { LabAction } from '$lib/sim/session/protocol';
import { isLabAction } from '$lib/ui/lab/action';

/** Saved lab actions beyond this many are not kept (the lab reopens at the lesson's start). */
export const MAX_SAVED_ACTIONS = 2000;

export interface PlayerState {
  answers: Record<string, { value: string | number; correct: boolean }>;
  /** Times the learner checked each question's answer (records before this field have none). */
  tries?: Record<string, number>;
  hints: Record<string, number>;
  /** Virtual ms of the lab clock when each task was done (records before this field have none). */
  taskDoneAt?: Record<string, number>;
  solutionViewed: boolean;
  /** Wall-clock milliseconds the lesson page was open and visible. */
  timeSpentMs: number;
  /** Virtual ms of the lab clock when the last task was done. */
  virtualDoneAt?: number;
  /** A challenge: the variant of this attempt and the seed it was drawn from. */
  challenge?: { variant: string; seed?: number };
  /** A challenge: the score when it was solved (0-100). */
  score?: number;
  /** The lab where the learner left it: its virtual time and their actions, replayed on reload. */
  lab?: { t: number; actions: LabAction[] };
}

export const emptyState = (): PlayerState => ({
  answers: {},
  hints: {},
  solutionViewed: false,
  timeSpentMs: 0
});

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read the player state out of a record, tolerating missing or foreign fields. */
export function readState(record: ProgressRecord | undefined): PlayerState {
  const s = emptyState();
  const raw = record?.state;
  if (!isObj(raw)) return s;
  if (isObj(raw.answers)) {
    for (const [k, v] of Object.entries(raw.answers)) {
      if (
        isObj(v) &&
        (typeof v.value === 'string' || typeof v.value === 'number') &&
        typeof v.correct === 'boolean'
      )
        s.answers[k] = { value: v.value, correct: v.correct };
    }
  }
  if (isObj(raw.hints)) {
    for (const [k, v] of Object.entries(raw.hints))
      if (Number.isInteger(v) && (v as number) > 0) s.hints[k] = v as number;
  }
  if (isObj(raw.tries)) {
    const tries: Record<string, number> = {};
    for (const [k, v] of Object.entries(raw.tries))
      if (Number.isInteger(v) && (v as number) > 0) tries[k] = v as number;
    s.tries = tries;
  }
  if (isObj(raw.taskDoneAt)) {
    const at: Record<string, number> = {};
    for (const [k, v] of Object.entries(raw.taskDoneAt))
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) at[k] = v;
    s.taskDoneAt = at;
  }
  s.solutionViewed = raw.solutionViewed === true;
  if (typeof raw.timeSpentMs === 'number' && raw.timeSpentMs >= 0) s.timeSpentMs = raw.timeSpentMs;
  if (typeof raw.virtualDoneAt === 'number') s.virtualDoneAt = raw.virtualDoneAt;
  const ch = raw.challenge;
  if (isObj(ch) && typeof ch.variant === 'string' && /^[a-z0-9][-a-z0-9]*$/.test(ch.variant)) {
    s.challenge = { variant: ch.variant };
    if (Number.isInteger(ch.seed) && (ch.seed as number) >= 0 && (ch.seed as number) <= 0xffffffff)
      s.challenge.seed = ch.seed as number;
  }
  if (typeof raw.score === 'number' && raw.score >= 0 && raw.score <= 100) s.score = raw.score;
  const lab = raw.lab;
  if (
    isObj(lab) &&
    typeof lab.t === 'number' &&
    Number.isFinite(lab.t) &&
    lab.t >= 0 &&
    Array.isArray(lab.actions) &&
    lab.actions.length <= MAX_SAVED_ACTIONS &&
    lab.actions.every(isLabAction)
  )
    s.lab = { t: lab.t, actions: lab.actions as LabAction[] };
  return s;
}

export function totalHints(hints: Record<string, number>): number {
  return Object.values(hints).reduce((a, b) => a + b, 0);
}

/** The record to save for a lesson in this state. */
export function progressInput(
  slug: string,
  done: string[],
  complete: boolean,
  state: PlayerState,
  startOver = false
): ProgressInput {
  return {
    ...(startOver ? { startOver: true } : {}),
    slug,
    status: complete ? 'completed' : 'started',
    completedSteps: done,
    hintsUsed: totalHints(state.hints),
    state: JSON.parse(JSON.stringify(state)) as JsonValue
  };
}

export type RoadmapStatus = 'new' | 'started' | 'completed';

export interface RoadmapEntry {
  lesson: LessonSummary;
  status: RoadmapStatus;
  /** Tasks of this lesson done (only ids the lesson still has count). */
  done: number;
  total: number;
}

export function roadmapEntries(lessons: LessonSummary[], records: ProgressRecord[]): RoadmapEntry[] {
  const bySlug = new Map(records.map((r) => [r.slug, r]));
  return lessons.map((lesson) => {
    const r = bySlug.get(lesson.slug);
    const done = r ? lesson.tasks.filter((t) => r.completedSteps.includes(t)).length : 0;
    return {
      lesson,
      status: !r ? 'new' : r.status === 'completed' ? 'completed' : 'started',
      done,
      total: lesson.tasks.length
    };
  });
}

/** The roadmap's sections by lesson number; a lesson outside every range goes to `more`. */
export const ROADMAP_SECTIONS = [
  { id: 'foundations', from: 1, to: 14 },
  { id: 'operating', from: 15, to: 20 }
] as const;

export type RoadmapSectionId = (typeof ROADMAP_SECTIONS)[number]['id'] | 'more';

export interface RoadmapSection {
  id: RoadmapSectionId;
  entries: RoadmapEntry[];
}

/** The entries grouped into the roadmap's sections, in order; empty sections are left out. */
export function roadmapSections(entries: RoadmapEntry[]): RoadmapSection[] {
  const out: RoadmapSection[] = ROADMAP_SECTIONS.map((s) => ({
    id: s.id,
    entries: entries.filter((e) => e.lesson.order >= s.from && e.lesson.order <= s.to)
  }));
  const placed = new Set(out.flatMap((s) => s.entries));
  out.push({ id: 'more', entries: entries.filter((e) => !placed.has(e)) });
  return out.filter((s) => s.entries.length);
}

/**
 * "Continue where you left off": the lesson in progress touched last; else the first lesson not
 * yet completed; undefined when every lesson is done.
 */
export function continueTarget(
  lessons: LessonSummary[],
  records: ProgressRecord[]
): LessonSummary | undefined {
  const started = records
    .filter((r) => r.status === 'started' && lessons.some((l) => l.slug === r.slug))
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  if (started) return lessons.find((l) => l.slug === started.slug);
  const completed = new Set(records.filter((r) => r.status === 'completed').map((r) => r.slug));
  return lessons.find((l) => !completed.has(l.slug));
}

/** Wall-clock duration for the summary: `42s`, `7m05s`, `1h02m`. */
export function formatSpent(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
