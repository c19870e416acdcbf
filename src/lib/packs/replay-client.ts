/**
 * `replayInWorker(lesson)`: the replay of packs/replay.ts, run in a Web Worker
 * (workers/replay.worker.ts) so a pack's lessons replay without blocking the page. A replay that
 * runs longer than the limit is stopped (the worker is terminated) and the lesson fails with that
 * reason. This module imports no simulator code, so the roadmap page stays small.
 */
import type { Lesson } from '../lessons/format';
import type { LessonReplay } from './replay';

export type { LessonReplay, TaskReplay } from './replay';

export interface ReplayRequest {
  id: number;
  lesson: Lesson;
}

export type ReplayResponse =
  { id: number; ok: true; result: LessonReplay } | { id: number; ok: false; error: string };

/** Wall-clock limit for one lesson's replay. */
export const REPLAY_TIMEOUT_MS = 120_000;

let worker: Worker | undefined;
let nextId = 1;

function spawn(): Worker {
  worker ??= new Worker(new URL('../workers/replay.worker.ts', import.meta.url), {
    type: 'module',
    name: 'nodeplane-replay'
  });
  return worker;
}

function failed(lesson: Lesson, message: string): LessonReplay {
  return {
    slug: lesson.slug,
    dir: lesson.paths.dir,
    ok: false,
    tasks: lesson.spec.spec.tasks.map((t) => ({ id: t.id, passesAtStart: false, reason: message })),
    problems: [`${lesson.paths.dir}: ${message}`]
  };
}

/** Replay one lesson in the replay worker; never rejects (a failure is a failed replay). */
export function replayInWorker(lesson: Lesson, timeoutMs = REPLAY_TIMEOUT_MS): Promise<LessonReplay> {
  const w = spawn();
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (r: LessonReplay) => {
      clearTimeout(timer);
      w.removeEventListener('message', onMessage);
      w.removeEventListener('error', onError);
      resolve(r);
    };
    const onMessage = (e: MessageEvent<ReplayResponse>) => {
      if (e.data.id !== id) return;
      done(e.data.ok ? e.data.result : failed(lesson, `the replay failed: ${e.data.error}`));
    };
    const onError = (e: ErrorEvent) => {
      e.preventDefault();
      stopReplayWorker();
      done(failed(lesson, `the replay worker stopped: ${e.message || 'unknown error'}`));
    };
    const timer = setTimeout(() => {
      stopReplayWorker();
      done(failed(lesson, `the replay took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
    }, timeoutMs);
    w.addEventListener('message', onMessage);
    w.addEventListener('error', onError);
    w.postMessage({ id, lesson } satisfies ReplayRequest);
  });
}

/** Terminate the replay worker (the next replay starts a new one). */
export function stopReplayWorker(): void {
  worker?.terminate();
  worker = undefined;
}
