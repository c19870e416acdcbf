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

/** Events queued the same delay ahead, oldest first (`events[head]` is the next). */
class Lane {
  events: SimEvent[] = [];
  head = 0;

  push(ev: SimEvent): void {
    this.events.push(ev);
  }

  shift(): SimEvent {
    const ev = this.events[this.head++];
    // Drop the consumed front once it is most of the array (amortised constant time).
    if (this.head >= 1024 && this.head * 2 >= this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return ev;
  }

  get size(): number {
    return this.events.length - this.head;
  }
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

/** `nextSource`'s answers besides a lane. */
const HEAP = 0;
const NONE = 1;

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
  /**
   * Lanes (`declarePeriod`): the events queued a fixed delay ahead, in the order they were queued.
   * Queued at `now + delay` with `now` never going back and `seq` always growing, a lane is already
   * in (at, seq) order, so its events need no sifting: the periodic work of every node (a kubelet's
   * housekeeping, status, Lease and eviction passes) goes in and out of the queue in constant time.
   * The next event is the earliest of the heap's top and the lanes' heads.
   */
  private lanes = new Map<number, Lane>();
  private laneList: Lane[] = [];
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

  /**
   * Queue the events scheduled `delayMs` ahead in a lane (see `lanes`): for the periods components
   * schedule their passes with. Only how the queue holds them changes, never their order.
   */
  declarePeriod(delayMs: number): void {
    if (delayMs <= 0 || this.lanes.has(delayMs)) return;
    const lane = new Lane();
    this.lanes.set(delayMs, lane);
    this.laneList.push(lane);
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
    const delay = Math.max(0, delayMs);
    return this.queueEvent(this.now + delay, delay, target, type, data);
  }

  scheduleAt(at: number, target: string, type: string, data?: unknown): number {
    return this.queueEvent(Math.max(at, this.now), undefined, target, type, data);
  }

  private queueEvent(
    when: number,
    delay: number | undefined,
    target: string,
    type: string,
    data: unknown
  ): number {
    // One literal per shape, so `data` is an in-object field, not a property store added later.
    const ev: SimEvent =
      data === undefined
        ? { at: when, seq: ++this.seq, target, type }
        : { at: when, seq: ++this.seq, target, type, data: frozenData(data) };
    // Frozen, with a frozen copy of its data: a queued event never changes, so snapshots share it.
    this.enqueue(Object.freeze(ev), delay);
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
    const delay = Math.max(0, delayMs);
    const ev = new Repeating(this.now + delay, ++this.seq, target, type, frozenData(data), period);
    this.enqueue(ev, delay);
    return ev;
  }

  cancel(id: number | undefined): void {
    if (id !== undefined) this.cancelled.add(id);
  }

  /** Time of the next pending event, or undefined when the queue is empty. */
  peekTime(): number | undefined {
    const from = this.nextSource();
    return from === NONE ? undefined : from === HEAP ? this.ats[0] : from.events[from.head].at;
  }

  /** Process the next event (advancing the clock to it). Returns it, or null if none. */
  step(): SimEvent | null {
    const from = this.nextSource();
    if (from === NONE) return null;
    const ev = from === HEAP ? this.pop()! : from.shift();
    this.now = ev.at;
    if (ev instanceof Repeating && ev.quiet) return this.repeat(ev);
    this.dispatch(ev);
    return ev;
  }

  /** Process every event up to and including time `t`, then set the clock to `t`. */
  runUntil(t: number): void {
    for (;;) {
      const from = this.nextSource();
      if (from === NONE) break;
      let ev: SimEvent;
      if (from === HEAP) {
        if (this.ats[0] > t) break;
        ev = this.pop()!;
      } else {
        if (from.events[from.head].at > t) break;
        ev = from.shift();
      }
      this.now = ev.at;
      if (ev instanceof Repeating && ev.quiet) this.repeat(ev);
      else this.dispatch(ev);
    }
    if (t > this.now) this.now = t;
  }

  /**
   * Where the next event is: the heap, a lane, or nowhere. Cancelled events reached on the way are
   * dropped (they are dropped when they would be next, as they were before lanes existed).
   */
  private nextSource(): Lane | typeof HEAP | typeof NONE {
    for (;;) {
      let best: Lane | typeof HEAP | typeof NONE = this.heap.length ? HEAP : NONE;
      let bat = best === HEAP ? this.ats[0] : Infinity;
      let bseq = best === HEAP ? this.seqs[0] : Infinity;
      const lanes = this.laneList;
      for (let i = 0; i < lanes.length; i++) {
        const l = lanes[i];
        if (l.head === l.events.length) continue;
        const ev = l.events[l.head];
        if (ev.at < bat || (ev.at === bat && ev.seq < bseq)) {
          best = l;
          bat = ev.at;
          bseq = ev.seq;
        }
      }
      if (best === NONE || !this.cancelled.size || !this.cancelled.has(bseq)) return best;
      this.cancelled.delete(bseq);
      if (best === HEAP) this.pop();
      else best.shift();
    }
  }

  /** Run for `ms` more virtual milliseconds. */
  advance(ms: number): void {
    this.runUntil(this.now + ms);
  }

  pendingCount(): number {
    let n = this.heap.length;
    for (const l of this.laneList) n += l.size;
    return n;
  }

  snapshot(): EngineSnapshot {
    // A repeating event is queued as the plain event it stands for (a restore dispatches it).
    const queued = this.heap.slice();
    for (const l of this.laneList) for (let i = l.head; i < l.events.length; i++) queued.push(l.events[i]);
    const queue = queued.filter((e) => !this.cancelled.has(e.seq)).map(plainEvent);
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
    this.enqueue(ev, ev.period);
    if (this.listeners.size) for (const l of this.listeners) l(passed);
    return passed;
  }

  /** Into the lane of its delay when there is one (its place in (at, seq) order is the lane's end), else the heap. */
  private enqueue(ev: SimEvent, delay: number | undefined): void {
    const lane = delay === undefined ? undefined : this.lanes.get(delay);
    if (lane) lane.push(ev);
    else this.push(ev);
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
