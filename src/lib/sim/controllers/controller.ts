/**
 * The contract between kube-controller-manager and the controllers it hosts.
 *
 * Each controller keeps its mutable state in a JSON slice owned by the manager (so snapshots
 * capture it), talks to the cluster only through the API with the manager's RequestContext, and
 * receives engine events addressed to the manager, routed by controller name. Watch handlers only
 * enqueue keys into a work queue held in that slice; the manager drains it on a 'sync' event.
 */
import type { Cluster } from '../cluster';
import type { RequestContext } from '../api/types';
import { ApiError, ConnectionError } from '../api/errors';

/** A client-go style work queue held as JSON: pending keys, and per-key retry counts for backoff. */
export interface WorkQueueState {
  keys: string[];
  /** A 'sync' event for this queue is already scheduled. */
  scheduled: boolean;
  retries: Record<string, number>;
}

export function newWorkQueue(): WorkQueueState {
  return { keys: [], scheduled: false, retries: {} };
}

export interface ControllerHost {
  readonly cluster: Cluster;
  readonly ctx: RequestContext;
  /** Virtual now in milliseconds. */
  now(): number;
  /** Schedule an engine event for this controller; `type` is delivered back to `handle`. */
  schedule(delayMs: number, type: string, data?: unknown): number;
  scheduleAt(at: number, type: string, data?: unknown): number;
  /** Add a key to the controller's work queue and make sure a sync is scheduled. */
  enqueue(key: string): void;
  /**
   * Add a key to the work queue after `delayMs` (client-go's delaying queue AddAfter): a key
   * keeps one waiting entry, the earliest; a later AddAfter of a key already waiting to be added
   * sooner is dropped, an earlier one moves its entry forward.
   */
  enqueueAfter(key: string, delayMs: number): void;
  /** Requeue a key after the per-item exponential backoff (client-go default: 5ms × 2^n, max 1000s). */
  requeueWithBackoff(key: string): void;
  /** Forget a key's failure count after a successful sync. */
  forget(key: string): void;
  /** Record a failed API call the way klog would; the manager keeps the last few for the UI. */
  logError(what: string, err: unknown): void;
}

export interface Controller {
  /** Upstream controller name as in `--controllers` (node-lifecycle-controller, replicaset-controller...). */
  readonly name: string;
  /** Register API watches; returns the unsubscribe functions. Called on construction and restore. */
  watch(): (() => void)[];
  /** First periodic events (not called on restore); controllers driven only by watches omit it. */
  start?(): void;
  /** Process one key from the work queue. Throw to requeue with backoff. */
  sync?(key: string): void;
  /** Engine events other than 'sync' addressed to this controller. */
  handle?(type: string, data: unknown): void;
  /** Every key to enqueue after a restart (an informer's initial list). */
  resyncKeys?(): string[];
  /** Called when the manager starts again after StopControllerManager. */
  onRestart?(): void;
  /** JSON state beyond the work queue, for snapshots; stateless controllers omit both. */
  getState?(): unknown;
  setState?(s: unknown): void;
}

/** An API failure a controller retries: unreachable API server, etcd without quorum, conflicts. */
export function isRetryable(err: unknown): boolean {
  return err instanceof ConnectionError || err instanceof ApiError;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** client-go DefaultControllerRateLimiter per-item part: 5ms base, doubling, 1000s cap. */
export function backoffDelay(retries: number): number {
  return Math.min(5 * 2 ** retries, 1_000_000);
}
