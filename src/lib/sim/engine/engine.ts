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

/**
 * A periodic event its owner can make quiet (`scheduleRepeating`): while `quiet`, the engine, on
 * reaching it, dispatches nothing and queues it again `period` ms later with the next seq, which
 * is what the handler's own reschedule at the end of a pass with nothing to do would have done.
 * The owner clears `quiet` when the pass would have work again (the next time the event comes
 * it is dispatched as any other); `at` is always the next pass, so `at - period` is the last one.
 */
export interface RepeatingEvent extends SimEvent {
  readonly period: number;
  quiet: boolean;
}

/** The queue's own RepeatingEvent (told apart from plain events by its class). */
class Repeating implements RepeatingEvent {
  quiet = true;
  constructor(
    public at: number,
    public seq: number,
    readonly target: string,
    readonly type: string,
    readonly data: unknown,
    readonly period: number
  ) {}
}

/** An event's data as the queue keeps it: a deep-frozen copy (frozen parts are shared, not copied). */
function frozenData(data: unknown): unknown {
  return data !== null && typeof data === 'object' ? deepFreeze(copySharingFrozen(data)) : data;
}

/** The plain, frozen event a queued one stands for (a repeating event's current pass). */
function plainEvent(ev: SimEvent): SimEvent {
  if (!(ev instanceof Repeating)) return ev;
  const { at, seq, target, type, data } = ev;
  return Object.freeze(data === undefined ? { at, seq, target, type } : { at, seq, target, type, data });
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
  /**
   * Each queued event's `at` and `seq`, at its place in `heap`: sifting compares these (two
   * contiguous arrays) instead of reading the fields of events scattered through memory, which
   * in a cluster of thousands of nodes cost a cache miss per comparison.
   */
  private ats = new Float64Array(1024);
  private seqs = new Float64Array(1024);
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
    const when = Math.max(at, this.now);
    // One literal per shape, so `data` is an in-object field, not a property store added later.
    const ev: SimEvent =
      data === undefined
        ? { at: when, seq: ++this.seq, target, type }
        : { at: when, seq: ++this.seq, target, type, data: frozenData(data) };
    // Frozen, with a frozen copy of its data: a queued event never changes, so snapshots share it.
    this.push(Object.freeze(ev));
    return ev.seq;
  }

  /**
   * Schedule a periodic event that is quiet from the start (see RepeatingEvent). Its place among
   * the events of the same instant is the one a plain event scheduled now would have.
   */
  scheduleRepeating(
    delayMs: number,
    target: string,
    type: string,
    data: unknown,
    period: number
  ): RepeatingEvent {
    const ev = new Repeating(
      this.now + Math.max(0, delayMs),
      ++this.seq,
      target,
      type,
      frozenData(data),
      period
    );
    this.push(ev);
    return ev;
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
    if (ev instanceof Repeating && ev.quiet) return this.repeat(ev);
    this.dispatch(ev);
    return ev;
  }

  /** Process every event up to and including time `t`, then set the clock to `t`. */
  runUntil(t: number): void {
    const h = this.heap;
    for (;;) {
      if (this.cancelled.size) this.dropCancelledHead();
      if (!h.length || this.ats[0] > t) break;
      const ev = this.pop()!;
      this.now = ev.at;
      if (ev instanceof Repeating && ev.quiet) this.repeat(ev);
      else this.dispatch(ev);
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
    // A repeating event is queued as the plain event it stands for (a restore dispatches it).
    const queue = this.heap.filter((e) => !this.cancelled.has(e.seq)).map(plainEvent);
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
    if (this.listeners.size) for (const l of this.listeners) l(ev);
  }

  /** A quiet repeating event reached: counted as processed, queued again one period later. */
  private repeat(ev: RepeatingEvent): SimEvent {
    this.processed++;
    const passed = this.listeners.size ? plainEvent(ev) : ev;
    ev.at += ev.period;
    ev.seq = ++this.seq;
    this.push(ev);
    if (this.listeners.size) for (const l of this.listeners) l(passed);
    return passed;
  }

  private dropCancelledHead(): void {
    const h = this.heap;
    while (h.length && this.cancelled.size && this.cancelled.has(h[0].seq)) {
      this.cancelled.delete(h[0].seq);
      this.pop();
    }
  }

  /**
   * The queue is a binary heap ordered by (at, seq), with the keys beside it (`ats`, `seqs`).
   * Sifting moves a hole instead of swapping pairs, so a push or pop writes each level once and
   * allocates nothing (but for growing the key arrays).
   */
  private push(ev: SimEvent): void {
    const h = this.heap;
    let i = h.length;
    h.push(ev);
    if (i >= this.ats.length) this.grow(i + 1);
    const ats = this.ats;
    const seqs = this.seqs;
    const at = ev.at;
    const seq = ev.seq;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pat = ats[p];
      if (pat < at || (pat === at && seqs[p] < seq)) break;
      h[i] = h[p];
      ats[i] = pat;
      seqs[i] = seqs[p];
      i = p;
    }
    h[i] = ev;
    ats[i] = at;
    seqs[i] = seq;
  }

  private grow(size: number): void {
    let n = this.ats.length * 2;
    while (n < size) n *= 2;
    const ats = new Float64Array(n);
    const seqs = new Float64Array(n);
    ats.set(this.ats);
    seqs.set(this.seqs);
    this.ats = ats;
    this.seqs = seqs;
  }

  private pop(): SimEvent | undefined {
    const h = this.heap;
    const n = h.length;
    if (!n) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (n > 1) {
      const ats = this.ats;
      const seqs = this.seqs;
      const size = n - 1;
      const at = ats[size];
      const seq = seqs[size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        let m = l;
        let cat = ats[l];
        let cseq = seqs[l];
        const r = l + 1;
        if (r < size) {
          const rat = ats[r];
          if (rat < cat || (rat === cat && seqs[r] < cseq)) {
            m = r;
            cat = rat;
            cseq = seqs[r];
          }
        }
        if (at < cat || (at === cat && seq < cseq)) break;
        h[i] = h[m];
        ats[i] = cat;
        seqs[i] = cseq;
        i = m;
      }
      h[i] = last;
      ats[i] = at;
      seqs[i] = seq;
    }
    return top;
  }
}
