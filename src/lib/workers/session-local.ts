/**
 * The lab session in-process: the same host and the same messages as the Web Worker, for tests
 * and for tools that run without one. Every message is structured-cloned on the way in and out,
 * as postMessage does, so what works here crosses the worker boundary too.
 */
import { SessionHost } from '$lib/sim/session/host';
import type { SessionCommand, SessionMessage } from '$lib/sim/session/protocol';

export interface LocalTransport {
  post(message: { id: number; command: SessionCommand }): void;
  onmessage?: (message: SessionMessage) => void;
  close(): void;
  /** One turn of the host's loop (what the worker's timer does). */
  tick(): void;
  readonly host: SessionHost;
}

export interface LocalOptions {
  wallClock?: () => number;
  /** Tick every `tickMs` wall ms while the clock runs, as the worker does (default: only by hand). */
  tickMs?: number;
}

export function localTransport(opts: LocalOptions = {}): LocalTransport {
  let open = true;
  let timer: ReturnType<typeof setInterval> | undefined;
  const t: LocalTransport = {
    host: new SessionHost({
      post: (m) => {
        const copy = structuredClone(m);
        queueMicrotask(() => open && t.onmessage?.(copy));
      },
      wallClock: opts.wallClock ?? (() => performance.now())
    }),
    post: (m) => {
      const copy = structuredClone(m);
      queueMicrotask(() => open && t.host.receive(copy));
    },
    tick: () => t.host.tick(),
    close: () => {
      open = false;
      if (timer !== undefined) clearInterval(timer);
    }
  };
  if (opts.tickMs) timer = setInterval(() => open && t.host.tick(), opts.tickMs);
  return t;
}
