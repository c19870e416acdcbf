/**
 * Replay a lesson before a pack is accepted, with the checks of `nodeplane lessons check`
 * (lessons/session.ts): the starting state fails every task and the reference solution passes
 * every task within the time budget. A challenge is replayed once per variant. The result is per
 * task, for the import's report and the authoring view.
 */
import { formatClock } from '../sim/engine/duration';
import type { Lesson } from '../lessons/format';
import { simRuntime } from '../lessons/runtime';
import { playableLessons, replaySolution, startingState, type LessonRuntime } from '../lessons/session';

export interface TaskReplay {
  id: string;
  /** The task already holds before the learner does anything (a broken lesson). */
  passesAtStart: boolean;
  /** Virtual ms at which the reference solution made it hold (the latest over a challenge's variants). */
  solutionPassedAt?: number;
  /** Why the task fails the check, when it does. */
  reason?: string;
}

export interface LessonReplay {
  /** The lesson's slug (a pack lesson's progress key). */
  slug: string;
  /** The lesson's folder inside the pack, for messages. */
  dir: string;
  ok: boolean;
  tasks: TaskReplay[];
  /** Every problem, worded like `nodeplane lessons check`, including steps that failed. */
  problems: string[];
  /** Virtual ms at which the solution completed the lesson (the latest variant). */
  completedAt?: number;
}

export function replayLesson(lesson: Lesson, runtime: LessonRuntime = simRuntime): LessonReplay {
  const tasks = new Map<string, TaskReplay>(
    lesson.spec.spec.tasks.map((t) => [t.id, { id: t.id, passesAtStart: false }])
  );
  const problems: string[] = [];
  const passedAt = new Map<string, number[]>();
  const played = playableLessons(lesson);
  let completedAt: number | undefined = 0;
  const reason = (id: string, message: string) => {
    const t = tasks.get(id);
    if (t && !t.reason) t.reason = message;
  };
  for (const p of played) {
    const where = p.variant ? `variant "${p.variant.id}": ` : '';
    try {
      const start = startingState(p, runtime);
      problems.push(...start.failures);
      for (const x of start.passing) {
        tasks.get(x.id)!.passesAtStart = true;
        reason(x.id, x.message);
      }
      const r = replaySolution(p, runtime);
      problems.push(...r.failures);
      for (const t of r.tasks) {
        if (t.done && t.doneAt !== undefined) passedAt.set(t.id, [...(passedAt.get(t.id) ?? []), t.doneAt]);
        else
          reason(
            t.id,
            `${where}not done after replaying the solution for ${lesson.spec.spec.timeBudget}${t.detail ? `: ${t.detail}` : ''}`
          );
      }
      completedAt =
        completedAt === undefined || r.completedAt === undefined
          ? undefined
          : Math.max(completedAt, r.completedAt);
    } catch (e) {
      const message = `${lesson.paths.dir}: ${where}${(e as Error).message}`;
      problems.push(message);
      for (const id of tasks.keys()) reason(id, message);
      completedAt = undefined;
    }
  }
  for (const t of tasks.values()) {
    const times = passedAt.get(t.id) ?? [];
    if (times.length === played.length) t.solutionPassedAt = Math.max(...times);
  }
  const list = [...tasks.values()];
  const ok = problems.length === 0 && list.every((t) => !t.passesAtStart && t.solutionPassedAt !== undefined);
  return {
    slug: lesson.slug,
    dir: lesson.paths.dir,
    ok,
    tasks: list,
    problems,
    ...(ok && completedAt !== undefined ? { completedAt } : {})
  };
}

/** One line per task for a report: `✓ drain — passed at t=1m30s` or the reason. */
export function describeTask(t: TaskReplay): string {
  if (t.passesAtStart) return `✗ ${t.id} — ${t.reason ?? 'already holds at the start'}`;
  if (t.solutionPassedAt === undefined)
    return `✗ ${t.id} — ${t.reason ?? 'the solution does not make it hold'}`;
  return `✓ ${t.id} — passed at t=${formatClock(t.solutionPassedAt)}`;
}
