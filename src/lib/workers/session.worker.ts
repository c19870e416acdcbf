/**
 * The lab's Web Worker: hosts one lab session (engine, cluster, console, lesson checks, snapshots
 * and time travel) off the page's main thread. The page sends session-protocol commands and gets
 * replies and frames of read models back (src/lib/sim/session/protocol.ts).
 *
 * The loop ticks about 60 times a second while the clock runs; each tick simulates for at most
 * the host's frame budget, then yields so commands from the page are read between ticks. While
 * the simulation falls behind the requested speed (a large cluster at 60×), the next tick follows
 * at once instead of after a pause — still as a new task, so a command waits at most one tick.
 * Paused, the worker uses its idle time to restore ahead the snapshot a jump back would need
 * (`SessionHost.idle`), so the learner's jump on a large cluster skips the restore.
 */
import { SessionHost } from '$lib/sim/session/host';

const TICK_MS = 16;
/** Quiet wall ms after the last message before idle work starts (commands often come in runs). */
const IDLE_AFTER_MS = 50;

const scope = self as unknown as {
  postMessage(m: unknown): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

const host = new SessionHost({
  post: (m) => scope.postMessage(m),
  wallClock: () => performance.now()
});

let timer: ReturnType<typeof setTimeout> | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** A tick queued as a message task (no timer clamping), while the simulation lags. */
let immediate = false;
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  immediate = false;
  loop();
};

function loop(): void {
  timer = undefined;
  host.tick();
  schedule();
}

function idle(): void {
  idleTimer = undefined;
  if (!host.playing) host.idle();
}

function schedule(): void {
  // Paused, the host has nothing to run but idle work: the next command wakes the loop.
  if (!host.playing) {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = setTimeout(idle, IDLE_AFTER_MS);
    return;
  }
  if (timer !== undefined || immediate) return;
  if (host.lagging) {
    immediate = true;
    channel.port2.postMessage(null);
  } else timer = setTimeout(loop, TICK_MS);
}

scope.onmessage = (e: MessageEvent) => {
  host.receive(e.data);
  schedule();
};
