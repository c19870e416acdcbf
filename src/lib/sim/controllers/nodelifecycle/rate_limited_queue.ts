/**
 * The per-zone NoExecute tainting queue (pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go)
 * as JSON: a unique queue of node names and a token bucket (burst 1) whose rate the zone state
 * sets. A rate of 0 is the "never" limiter: nothing leaves the queue.
 */

/** EvictionRateLimiterBurst. */
const BURST = 1;
/** NodeEvictionPeriod: how often the tainting pass tries the queues. */
export const NODE_EVICTION_PERIOD_MS = 100;

export interface QueuedNode {
  value: string;
  uid: string;
  processAt: number;
  addedAt: number;
}

export interface RateLimitedQueueState {
  queue: QueuedNode[];
  /**
   * Nodes taken off the queue after a successful pass but kept in the unique set
   * (UniqueQueue.RemoveFromQueue), so later passes cannot queue them again until removed.
   */
  done: string[];
  qps: number;
  tokens: number;
  /** Time of the last refill (ms). */
  last: number;
}

export function newRateLimitedQueue(qps: number, now: number): RateLimitedQueueState {
  return { queue: [], done: [], qps, tokens: qps > 0 ? BURST : 0, last: now };
}

function tryAccept(q: RateLimitedQueueState, now: number): boolean {
  if (q.qps <= 0) return false;
  q.tokens = Math.min(BURST, q.tokens + ((now - q.last) / 1000) * q.qps);
  q.last = now;
  if (q.tokens >= 1) {
    q.tokens -= 1;
    return true;
  }
  return false;
}

/** UniqueQueue.Add: false when the node is already queued. */
export function add(q: RateLimitedQueueState, value: string, uid: string, now: number): boolean {
  if (q.done.includes(value) || queued(q, value) >= 0) return false;
  q.queue.push({ value, uid, processAt: now, addedAt: now });
  return true;
}

/** The node's place in the queue, or -1 (no callback: markNodeAsReachable asks it every pass). */
function queued(q: RateLimitedQueueState, value: string): number {
  for (let i = 0; i < q.queue.length; i++) if (q.queue[i].value === value) return i;
  return -1;
}

export function remove(q: RateLimitedQueueState, value: string): boolean {
  const d = q.done.indexOf(value);
  if (d >= 0) {
    q.done.splice(d, 1);
    return true;
  }
  const i = queued(q, value);
  if (i < 0) return false;
  q.queue.splice(i, 1);
  return true;
}

/**
 * RateLimitedTimedQueue.SwapLimiter: a new bucket for the new rate; if the old bucket was empty
 * the new one starts drained too (burst 1).
 */
export function swapLimiter(q: RateLimitedQueueState, qps: number, now: number): void {
  if (q.qps === qps) return;
  const wasEmpty = !tryAccept(q, now);
  q.qps = qps;
  q.last = now;
  q.tokens = qps > 0 ? BURST : 0;
  if (qps > 0 && wasEmpty) tryAccept(q, now);
}

/**
 * RateLimitedTimedQueue.Try: while the limiter accepts, hand the head to `fn`; a false result puts
 * it back to be retried, true removes it.
 */
export function tryQueue(
  q: RateLimitedQueueState,
  now: number,
  fn: (item: QueuedNode) => { ok: boolean; waitMs: number }
): void {
  let head = q.queue[0];
  while (head) {
    if (!tryAccept(q, now)) break;
    if (now < head.processAt) break;
    const { ok, waitMs } = fn(head);
    q.queue.shift();
    if (!ok) {
      head.processAt = now + waitMs + 1;
      q.queue.push(head);
      q.queue.sort((a, b) => a.processAt - b.processAt || a.addedAt - b.addedAt);
      break;
    }
    q.done.push(head.value);
    head = q.queue[0];
  }
}
