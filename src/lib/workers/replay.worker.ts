/**
 * Replays lessons off the main thread before a pack is accepted (packs/replay.ts): the page stays
 * responsive while each lesson's start state and reference solution run on a cluster of their own.
 */
import { replayLesson } from '../packs/replay';
import type { ReplayRequest, ReplayResponse } from '../packs/replay-client';

self.onmessage = (e: MessageEvent<ReplayRequest>) => {
  const { id, lesson } = e.data;
  let reply: ReplayResponse;
  try {
    reply = { id, ok: true, result: replayLesson(lesson) };
  } catch (err) {
    reply = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};
