/**
 * The scheduling queue (pkg/scheduler/backend/queue): activeQ ordered by PrioritySort, backoffQ
 * (1s doubling to 10s by default) ordered by backoff expiry, and the unschedulable pods that wait
 * for a cluster event that may help them, or for the 5-minute leftover flush.
 *
 * The queued pods are JSON state (`QueueState`, kept in snapshots); `SchedulingQueue` wraps that
 * state with indexes rebuilt from it: a heap per sub-queue and, for unschedulable pods, the set of
 * pods each rejecting plugin holds back, so a pop, a flush or a cluster event costs O(log n) per
 * pod it touches instead of a scan of every queued pod.
 */
import type { QueueMoveLabel } from './events';
import { KeyedHeap } from './heap';
import { less } from './plugins/PrioritySort';

export type QueueName = 'active' | 'backoff' | 'unschedulable';

/** One move between sub-queues and the event that made it (the queue's incoming-pods metric labels). */
export interface QueueMove {
  t: number;
  event: QueueMoveLabel;
  from: QueueName | null;
  to: QueueName;
}

/** Moves kept per queued pod (observation only: scheduling never reads them). */
export const MOVES_KEPT = 4;

export interface QueuedPod {
  key: string;
  where: QueueName;
  priority: number;
  /** When the pod entered the queue (PrioritySort's tie-breaker). */
  timestamp: number;
  attempts: number;
  /** End of the current backoff (ms). */
  backoffUntil: number;
  /** When it became unschedulable. */
  since: number;
  /** Plugins that rejected it: only events relevant to them move it back (queueing hints). */
  plugins: string[];
  /** The last moves, oldest first (at most MOVES_KEPT). */
  moves?: QueueMove[];
}

export interface QueueState {
  pods: Record<string, QueuedPod>;
}

/** podMaxInUnschedulablePodsDuration. */
export const MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;
/** flushUnschedulablePodsLeftover period. */
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;

export function backoffDuration(attempts: number, initialMs: number, maxMs: number): number {
  let d = initialMs;
  for (let i = 1; i < attempts; i++) {
    d *= 2;
    if (d > maxMs) return maxMs;
  }
  return d;
}

/** activeQ order: PrioritySort, then the key so that the order is total. */
function activeLess(a: QueuedPod, b: QueuedPod): boolean {
  return less(a, b) || (!less(b, a) && a.key < b.key);
}

function backoffLess(a: QueuedPod, b: QueuedPod): boolean {
  return a.backoffUntil < b.backoffUntil || (a.backoffUntil === b.backoffUntil && a.key < b.key);
}

function unschedulableLess(a: QueuedPod, b: QueuedPod): boolean {
  return a.since < b.since || (a.since === b.since && a.key < b.key);
}

/** The leftover flush runs on a 30s tick, so a pod leaves at the first tick after 5 minutes. */
export function leftoverDue(since: number): number {
  return (
    Math.ceil((since + MAX_IN_UNSCHEDULABLE_MS) / UNSCHEDULABLE_FLUSH_PERIOD_MS) *
    UNSCHEDULABLE_FLUSH_PERIOD_MS
  );
}

function record(p: QueuedPod, m: QueueMove): void {
  const moves = (p.moves ??= []);
  moves.push(m);
  if (moves.length > MOVES_KEPT) moves.splice(0, moves.length - MOVES_KEPT);
}

export class SchedulingQueue {
  private readonly active = new KeyedHeap<QueuedPod>(activeLess);
  private readonly backoff = new KeyedHeap<QueuedPod>(backoffLess);
  private readonly unschedulable = new KeyedHeap<QueuedPod>(unschedulableLess);
  /** Plugin name → keys of unschedulable pods it rejected. */
  private readonly byPlugin = new Map<string, Set<string>>();
  /** Unschedulable pods with no rejecting plugin recorded. */
  private readonly noPlugin = new Set<string>();

  constructor(readonly state: QueueState) {
    for (const k in state.pods) this.index(state.pods[k]);
  }

  get(key: string): QueuedPod | undefined {
    return this.state.pods[key];
  }

  get size(): number {
    return this.active.size + this.backoff.size + this.unschedulable.size;
  }

  /** Add a pod to activeQ, or update the priority of a pod already queued. */
  enqueue(key: string, priority: number, now: number): void {
    const cur = this.state.pods[key];
    if (cur) {
      cur.priority = priority;
      if (cur.where === 'active') this.active.upsert(key, cur);
      return;
    }
    const p: QueuedPod = {
      key,
      where: 'active',
      priority,
      timestamp: now,
      attempts: 0,
      backoffUntil: 0,
      since: 0,
      plugins: [],
      moves: [{ t: now, event: 'UnschedulablePodAdd', from: null, to: 'active' }]
    };
    this.state.pods[key] = p;
    this.index(p);
  }

  remove(key: string): void {
    const p = this.state.pods[key];
    if (!p) return;
    this.unindex(p);
    delete this.state.pods[key];
  }

  /** The head of activeQ (it stays queued until it is removed or requeued). */
  peekActive(): QueuedPod | undefined {
    return this.active.peek();
  }

  hasActive(): boolean {
    return this.active.size > 0;
  }

  /** Back to activeQ, or to backoffQ while its backoff has not run out. */
  activate(key: string, now: number, event: QueueMoveLabel): void {
    const p = this.state.pods[key];
    if (p) this.move(p, p.backoffUntil > now ? 'backoff' : 'active', now, event);
  }

  /** A failed attempt: unschedulable pods wait for an event; errors go straight to backoff. */
  requeueAfterFailure(
    key: string,
    now: number,
    opts: {
      unschedulable: boolean;
      plugins: string[];
      initialMs: number;
      maxMs: number;
      moveRequested: boolean;
    }
  ): QueuedPod | undefined {
    const p = this.state.pods[key];
    if (!p) return undefined;
    this.unindex(p);
    const from = p.where;
    p.attempts++;
    p.backoffUntil = now + backoffDuration(p.attempts, opts.initialMs, opts.maxMs);
    p.plugins = opts.plugins;
    if (!opts.unschedulable || opts.moveRequested) p.where = 'backoff';
    else {
      p.where = 'unschedulable';
      p.since = now;
    }
    record(p, { t: now, event: 'ScheduleAttemptFailure', from, to: p.where });
    this.index(p);
    return p;
  }

  /**
   * MoveAllToActiveOrBackoffQueue: of the unschedulable pods that no plugin rejected or that one of
   * `plugins` (those registered for the event) rejected, move those `worth` says the event may help
   * (isPodWorthRequeuing with the queueing hints); the others stay. Returns how many moved.
   */
  moveOnEvent(
    now: number,
    event: QueueMoveLabel,
    plugins: readonly string[],
    worth: (p: QueuedPod) => boolean = () => true
  ): number {
    const keys = new Set<string>(this.noPlugin);
    for (const pl of plugins) for (const k of this.byPlugin.get(pl) ?? []) keys.add(k);
    const moving: string[] = [];
    for (const k of keys) if (worth(this.state.pods[k])) moving.push(k);
    for (const k of moving) this.activate(k, now, event);
    return moving.length;
  }

  /** flushBackoffQCompleted and flushUnschedulablePodsLeftover. Returns the next time either is due. */
  flush(now: number): number {
    for (let p = this.backoff.peek(); p && p.backoffUntil <= now; p = this.backoff.peek()) {
      this.move(p, 'active', now, 'BackoffComplete');
    }
    // A pod the leftover flush sends to backoffQ below waits for the next flush to be counted.
    let next = this.backoff.peek()?.backoffUntil ?? Infinity;
    if (now % UNSCHEDULABLE_FLUSH_PERIOD_MS === 0) {
      for (
        let p = this.unschedulable.peek();
        p && now - p.since >= MAX_IN_UNSCHEDULABLE_MS;
        p = this.unschedulable.peek()
      ) {
        this.move(p, p.backoffUntil > now ? 'backoff' : 'active', now, 'UnschedulableTimeout');
      }
    }
    const oldest = this.unschedulable.peek();
    if (oldest) next = Math.min(next, leftoverDue(oldest.since));
    return next;
  }

  private move(p: QueuedPod, where: QueueName, now: number, event: QueueMoveLabel): void {
    if (p.where === where) return;
    this.unindex(p);
    record(p, { t: now, event, from: p.where, to: where });
    p.where = where;
    this.index(p);
  }

  private index(p: QueuedPod): void {
    if (p.where === 'active') this.active.upsert(p.key, p);
    else if (p.where === 'backoff') this.backoff.upsert(p.key, p);
    else {
      this.unschedulable.upsert(p.key, p);
      if (!p.plugins.length) this.noPlugin.add(p.key);
      for (const pl of p.plugins) {
        let set = this.byPlugin.get(pl);
        if (!set) this.byPlugin.set(pl, (set = new Set()));
        set.add(p.key);
      }
    }
  }

  private unindex(p: QueuedPod): void {
    if (p.where === 'active') this.active.delete(p.key);
    else if (p.where === 'backoff') this.backoff.delete(p.key);
    else {
      this.unschedulable.delete(p.key);
      this.noPlugin.delete(p.key);
      for (const pl of p.plugins) this.byPlugin.get(pl)?.delete(p.key);
    }
  }
}
