/**
 * The lab's Web Worker: hosts one lab session (engine, cluster, console, lesson checks, snapshots
 * and time travel) off the page's main thread. The page sends session-protocol commands and gets
 * replies and frames of read models back (src/lib/sim/session/protocol.ts).
 *
 * The loop ticks about 60 times a second while the clock runs; each tick simulates for at most
 * the host's frame budget, then yields so commands from the page are read between ticks.
 */
import { SessionHost } from '$lib/sim/session/host';

const TICK_MS = 16;

const scope = self as unknown as {
  postMessage(m: unknown): void;
  onmessage: ((e: MessageEvent) => void) | null;
};

const host = new SessionHost({
  post: (m) => scope.postMessage(m),
  wallClock: () => performance.now()
});

let timer: ReturnType<typeof setTimeout> | undefined;

function loop(): void {
  timer = undefined;
  host.tick();
  schedule();
}

function schedule(): void {
  // Paused, the host has nothing to run: the next command wakes the loop.
  if (timer === undefined && host.playing) timer = setTimeout(loop, TICK_MS);
}

scope.onmessage = (e: MessageEvent) => {
  host.receive(e.data);
  schedule();
};
