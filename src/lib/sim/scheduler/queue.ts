/**
 * The scheduling queue (pkg/scheduler/backend/queue) as JSON state: activeQ ordered by
 * PrioritySort, backoffQ (1s doubling to 10s by default), and the unschedulable pods that wait for
 * a cluster event that may help them, or for the 5-minute leftover flush.
 */
import { less } from './plugins/PrioritySort';

export interface QueuedPod {
  key: string;
  where: 'active' | 'backoff' | 'unschedulable';
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

export function enqueue(q: QueueState, key: string, priority: number, now: number): void {
  const cur = q.pods[key];
  if (cur) {
    cur.priority = priority;
    return;
  }
  q.pods[key] = {
    key,
    where: 'active',
    priority,
    timestamp: now,
    attempts: 0,
    backoffUntil: 0,
    since: 0,
    plugins: []
  };
}

export function pop(q: QueueState): QueuedPod | undefined {
  let best: QueuedPod | undefined;
  for (const k in q.pods) {
    const p = q.pods[k];
    if (p.where !== 'active') continue;
    if (!best || less(p, best) || (!less(best, p) && p.key < best.key)) best = p;
  }
  return best;
}

export function hasActive(q: QueueState): boolean {
  for (const k in q.pods) if (q.pods[k].where === 'active') return true;
  return false;
}

/** Back to activeQ, or to backoffQ while its backoff has not run out. */
function activate(p: QueuedPod, now: number): void {
  p.where = p.backoffUntil > now ? 'backoff' : 'active';
}

/** A failed attempt: unschedulable pods wait for an event; errors go straight to backoff. */
export function requeueAfterFailure(
  q: QueueState,
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
  const p = q.pods[key];
  if (!p) return undefined;
  p.attempts++;
  p.backoffUntil = now + backoffDuration(p.attempts, opts.initialMs, opts.maxMs);
  p.plugins = opts.plugins;
  if (!opts.unschedulable || opts.moveRequested) p.where = 'backoff';
  else {
    p.where = 'unschedulable';
    p.since = now;
  }
  return p;
}

/** MoveAllToActiveOrBackoffQueue for the pods a cluster event may help. */
export function moveOnEvent(q: QueueState, now: number, relevant: (plugins: string[]) => boolean): number {
  let moved = 0;
  for (const k in q.pods) {
    const p = q.pods[k];
    if (p.where === 'unschedulable' && relevant(p.plugins)) {
      activate(p, now);
      moved++;
    }
  }
  return moved;
}

/** flushBackoffQCompleted and flushUnschedulablePodsLeftover. Returns the next time either is due. */
export function flush(q: QueueState, now: number): number {
  let next = Infinity;
  for (const k in q.pods) {
    const p = q.pods[k];
    if (p.where === 'backoff') {
      if (p.backoffUntil <= now) p.where = 'active';
      else next = Math.min(next, p.backoffUntil);
    } else if (p.where === 'unschedulable') {
      if (now - p.since >= MAX_IN_UNSCHEDULABLE_MS && now % UNSCHEDULABLE_FLUSH_PERIOD_MS === 0)
        activate(p, now);
      else {
        // The leftover flush runs on a 30s tick, so the pod leaves at the first tick after 5 minutes.
        const due =
          Math.ceil((p.since + MAX_IN_UNSCHEDULABLE_MS) / UNSCHEDULABLE_FLUSH_PERIOD_MS) *
          UNSCHEDULABLE_FLUSH_PERIOD_MS;
        next = Math.min(next, due);
      }
    }
  }
  return next;
}
