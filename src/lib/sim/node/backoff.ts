/**
 * client-go flowcontrol.Backoff as the kubelet uses it for image pulls and container restarts:
 * the first Next() sets the initial delay, each further Next() doubles it up to the max, and an
 * entry idle for more than 2 × max is forgotten (that is the 10 min CrashLoopBackOff reset).
 */
import type { BackoffEntry } from './state';

export interface BackoffPolicy {
  initial: number;
  max: number;
}

function expired(eventTime: number, e: BackoffEntry, p: BackoffPolicy): boolean {
  return eventTime - e.last > 2 * p.max;
}

export function backoffNext(
  table: Record<string, BackoffEntry>,
  key: string,
  eventTime: number,
  now: number,
  p: BackoffPolicy
): BackoffEntry {
  const e = table[key];
  const next: BackoffEntry =
    !e || expired(eventTime, e, p)
      ? { backoff: p.initial, last: now }
      : { backoff: Math.min(e.backoff * 2, p.max), last: now };
  table[key] = next;
  return next;
}

/** IsInBackOffSince: still inside the delay counted from `eventTime` (a container's finish). */
export function inBackOffSince(
  table: Record<string, BackoffEntry>,
  key: string,
  eventTime: number,
  now: number,
  p: BackoffPolicy
): BackoffEntry | undefined {
  const e = table[key];
  if (!e || expired(eventTime, e, p)) return undefined;
  return now - eventTime < e.backoff ? e : undefined;
}

/** IsInBackOffSinceUpdate: still inside the delay counted from the last Next() (image pulls). */
export function inBackOffSinceUpdate(
  table: Record<string, BackoffEntry>,
  key: string,
  now: number,
  p: BackoffPolicy
): BackoffEntry | undefined {
  const e = table[key];
  if (!e || expired(now, e, p)) return undefined;
  return now - e.last < e.backoff ? e : undefined;
}
