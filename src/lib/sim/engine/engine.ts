/**
 * The simulation engine: one virtual clock (milliseconds), one queue of timed events, one
 * seeded random source. Components never call setTimeout or Date.now: they schedule events
 * addressed to themselves and handle them when the clock reaches them.
 *
 * Events are plain data ({at, seq, target, type, data}), so the queue serialises into a
 * snapshot and a restored engine continues exactly where the original left off. Events at
 * the same instant run in the order they were scheduled (seq), which makes every run with
 * the same seed produce the same sequence.
 */
import { copySharingFrozen, deepFreeze } from '../api/types';
import { Random, type RandomState } from './random';

export interface SimEvent {
  at: number;
  seq: number;
  target: string;
  type: string;
  data?: unknown;
}

export type EventHandler = (ev: SimEvent) => void;

/** An event's data as the queue keeps it: a deep-frozen copy (frozen parts are shared, not copied). */
function frozenData(data: unknown): unknown {
  return data !== null && typeof data === 'object' ? deepFreeze(copySharingFrozen(data)) : data;
}

export interface EngineSnapshot {
  now: number;
  seq: number;
  random: RandomState;
  queue: SimEvent[];
}

export class Engine {
  now = 0;
  readonly random: Random;
  private seq = 0;
  private heap: SimEvent[] = [];
  private cancelled = new Set<number>();
  private handlers = new Map<string, EventHandler>();
  private listeners = new Set<(ev: SimEvent) => void>();
  /** Events processed since creation (for benchmarks). */
  processed = 0;

  constructor(seed: number) {
    this.random = new Random(seed);
  }

  /** A component registers the handler for events addressed to `target`. */
  register(target: string, handler: EventHandler): void {
    this.handlers.set(target, handler);
  }

  unregister(target: string): void {
    this.handlers.delete(target);
  }

  hasTarget(target: string): boolean {
    return this.handlers.has(target);
  }

  /** Called after every processed event (the UI uses it to refresh). */
  onEvent(listener: (ev: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Schedule an event `delayMs` from now. Returns an id usable with cancel(). */
  schedule(delayMs: number, target: string, type: string, data?: unknown): number {
    return this.scheduleAt(this.now + Math.max(0, delayMs), target, type, data);
  }

  scheduleAt(at: number, target: string, type: string, data?: unknown): number {
    const ev: SimEvent = { at: Math.max(at, this.now), seq: ++this.seq, target, type };
    if (data !== undefined) ev.data = frozenData(data);
    // Frozen, with a frozen copy of its data: a queued event never changes, so snapshots share it.
    this.push(Object.freeze(ev));
    return ev.seq;
  }

  cancel(id: number | undefined): void {
    if (id !== undefined) this.cancelled.add(id);
  }

  /** Time of the next pending event, or undefined when the queue is empty. */
  peekTime(): number | undefined {
    this.dropCancelledHead();
    return this.heap[0]?.at;
  }

  /** Process the next event (advancing the clock to it). Returns it, or null if none. */
  step(): SimEvent | null {
    this.dropCancelledHead();
    const ev = this.pop();
    if (!ev) return null;
    this.now = ev.at;
    this.dispatch(ev);
    return ev;
  }

  /** Process every event up to and including time `t`, then set the clock to `t`. */
  runUntil(t: number): void {
    for (;;) {
      this.dropCancelledHead();
      const head = this.heap[0];
      if (!head || head.at > t) break;
      this.step();
    }
    if (t > this.now) this.now = t;
  }

  /** Run for `ms` more virtual milliseconds. */
  advance(ms: number): void {
    this.runUntil(this.now + ms);
  }

  pendingCount(): number {
    return this.heap.length;
  }

  snapshot(): EngineSnapshot {
    const queue = this.heap.filter((e) => !this.cancelled.has(e.seq));
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
    return { now: this.now, seq: this.seq, random: this.random.getState(), queue };
  }

  static fromSnapshot(s: EngineSnapshot): Engine {
    const e = new Engine(0);
    e.now = s.now;
    e.seq = s.seq;
    (e as { random: Random }).random = new Random(s.random);
    // A snapshot's events are the frozen ones it shares; parsed JSON is copied and frozen.
    for (const ev of s.queue)
      e.push(
        Object.isFrozen(ev)
          ? ev
          : Object.freeze({ ...ev, ...(ev.data !== undefined ? { data: frozenData(ev.data) } : {}) })
      );
    return e;
  }

  private dispatch(ev: SimEvent): void {
    this.processed++;
    const h = this.handlers.get(ev.target);
    // An event for a component that no longer exists (a deleted node's kubelet) is dropped.
    if (h) h(ev);
    for (const l of this.listeners) l(ev);
  }

  private dropCancelledHead(): void {
    while (this.heap.length && this.cancelled.has(this.heap[0].seq)) {
      this.cancelled.delete(this.heap[0].seq);
      this.pop();
    }
  }

  private less(a: SimEvent, b: SimEvent): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(ev: SimEvent): void {
    const h = this.heap;
    h.push(ev);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private pop(): SimEvent | undefined {
    const h = this.heap;
    if (!h.length) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
