/**
 * "The queue it waits in": kube-scheduler's scheduling queue as a read model, from the scheduler's
 * typed `queueStatus()`. Per pending pod: the sub-queue it is in (activeQ, backoffQ with the end
 * of its back-off, unschedulable pods with the time the 5-minute leftover flush will move it),
 * its attempts, the plugins that rejected it, the cluster events that may move it back (those its
 * rejecting plugins register, each judged by the plugin's queueing hint) and its last moves with
 * the event of each.
 * Plus the pod's attempts over time from the scheduler's recorded explanations.
 */
import type { Cluster } from '../cluster';
import { SCHEDULER_ID, type KubeScheduler } from '../scheduler/component';
import type { ClusterEventLabel, RegisteredEvent } from '../scheduler/events';
import { leftoverDue, type QueueMove, type QueueName, type QueuedPod } from '../scheduler/queue';
import { less } from '../scheduler/plugins/PrioritySort';
import { schedulingExplanations } from './scheduling';

export type { ClusterEventLabel, QueueMove, QueueName, RegisteredEvent };
export type { QueueMoveLabel } from '../scheduler/events';

export interface QueuedPodModel {
  /** `<namespace>/<name>`. */
  pod: string;
  queue: QueueName;
  priority: number;
  /** Failed attempts so far. */
  attempts: number;
  /** Plugins that rejected it in its last attempt. */
  plugins: string[];
  /** End of its back-off (virtual ms); 0 before its first attempt. */
  backoffUntil: number;
  /** In unschedulable pods: since when, and when the leftover flush moves it at the latest. */
  since?: number;
  leftoverAt?: number;
  /**
   * In unschedulable pods: the cluster events its rejecting plugins registered, each with the
   * plugin whose queueing hint decides whether that event moves it back (null: no plugin rejected
   * it, so any event a plugin registered moves it).
   */
  movesOn: RegisteredEvent[];
  /** Its last moves, oldest first. */
  moves: QueueMove[];
}

export interface AttemptResult {
  /** Attempt number (1 = the pod's first attempt). */
  n: number;
  t: number;
  result: 'scheduled' | 'unschedulable' | 'error';
  node?: string;
  /** Plugins that rejected it in a failed attempt (its node verdicts and PreFilter). */
  plugins: string[];
}

export interface SchedulingQueueModel {
  running: boolean;
  initialBackoffMs: number;
  maxBackoffMs: number;
  maxInUnschedulableMs: number;
  /** Pods in each sub-queue (all of them, though only the first LIST_LIMIT are listed). */
  counts: Record<QueueName, number>;
  /** activeQ in pop order (PrioritySort), backoffQ by back-off end, unschedulable pods by age. */
  active: QueuedPodModel[];
  backoff: QueuedPodModel[];
  unschedulable: QueuedPodModel[];
}

/** Pods listed per sub-queue (a 1,000-node cluster may hold thousands). */
export const LIST_LIMIT = 100;

function scheduler(cluster: Cluster): KubeScheduler | undefined {
  return cluster.component<KubeScheduler>(SCHEDULER_ID);
}

function model(s: KubeScheduler, p: QueuedPod): QueuedPodModel {
  const unschedulable = p.where === 'unschedulable';
  return {
    pod: p.key,
    queue: p.where,
    priority: p.priority,
    attempts: p.attempts,
    plugins: p.plugins,
    backoffUntil: p.backoffUntil,
    ...(unschedulable ? { since: p.since, leftoverAt: leftoverDue(p.since) } : {}),
    movesOn: unschedulable ? s.registeredEvents(p) : [],
    moves: p.moves ?? []
  };
}

const byKey = (a: QueuedPod, b: QueuedPod) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const ORDER: Record<QueueName, (a: QueuedPod, b: QueuedPod) => number> = {
  active: (a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : byKey(a, b)),
  backoff: (a, b) => a.backoffUntil - b.backoffUntil || byKey(a, b),
  unschedulable: (a, b) => a.since - b.since || byKey(a, b)
};

export function schedulingQueueModel(cluster: Cluster): SchedulingQueueModel | null {
  const ks = scheduler(cluster);
  const s = ks?.queueStatus();
  if (!ks || !s) return null;
  const by: Record<QueueName, QueuedPod[]> = { active: [], backoff: [], unschedulable: [] };
  for (const p of s.pods) by[p.where].push(p);
  const list = (q: QueueName) =>
    by[q]
      .sort(ORDER[q])
      .slice(0, LIST_LIMIT)
      .map((p) => model(ks, p));
  return {
    running: s.running,
    initialBackoffMs: s.initialBackoffMs,
    maxBackoffMs: s.maxBackoffMs,
    maxInUnschedulableMs: s.maxInUnschedulableMs,
    counts: { active: by.active.length, backoff: by.backoff.length, unschedulable: by.unschedulable.length },
    active: list('active'),
    backoff: list('backoff'),
    unschedulable: list('unschedulable')
  };
}

/** One pod's place in the queue, or null when it is not waiting there (bound, gated, not ours). */
export function queuedPodModel(cluster: Cluster, podKey: string): QueuedPodModel | null {
  const ks = scheduler(cluster);
  const p = ks?.queuedPod(podKey);
  return ks && p ? model(ks, p) : null;
}

/**
 * The pod's attempts over time, oldest first. The scheduler keeps the last attempts only: while
 * the pod waits, its failed-attempt count numbers them; once bound the numbering starts at the
 * oldest kept attempt.
 */
export function attemptResults(cluster: Cluster, podKey: string): AttemptResult[] {
  const explained = schedulingExplanations(cluster, podKey);
  const queued = scheduler(cluster)?.queuedPod(podKey);
  const first = queued ? Math.max(1, queued.attempts - explained.length + 1) : 1;
  return explained.map((a, i) => {
    const rejected = new Set<string>();
    if (!a.selectedNode) for (const r of a.summary.rejections) rejected.add(r.plugin);
    const result: AttemptResult['result'] = a.selectedNode
      ? 'scheduled'
      : a.summary.rejections.length || a.summary.noNodes || a.nominatedNodeName
        ? 'unschedulable'
        : 'error';
    return {
      n: first + i,
      t: a.t,
      result,
      ...(a.selectedNode ? { node: a.selectedNode } : {}),
      plugins: [...rejected].sort()
    };
  });
}
