/**
 * The cluster events that move a pod between the scheduling queue's sub-queues, named by their
 * upstream labels (pkg/scheduler/framework/events.go; `ClusterEvent.Label()` is the resource
 * followed by the action type, e.g. `NodeAdd`, `NodeUpdateNodeTaint`, `AssignedPodDelete`), and
 * the queueing hints that decide, per pod, whether an event moves it back
 * (pkg/scheduler/backend/queue/scheduling_queue.go isPodWorthRequeuing).
 *
 * Each plugin registers its own events and QueueingHintFns (EnqueueExtensions.EventsToRegister,
 * in the plugin's file); the framework collects them per profile into a QueueingHintMap. With
 * SchedulerQueueingHints on (GA in v1.35) there is no preCheck, so plugins register only the
 * events that can change their verdict: a Node label change is nothing to NodeResourcesFit.
 */
import type { KubeObject } from '../api/types';
import type { Handle } from './types';

/** Cluster events kube-scheduler reacts to. */
export type ClusterEventLabel =
  | 'NodeAdd'
  | 'NodeDelete'
  | 'NodeUpdateNodeAllocatable'
  | 'NodeUpdateNodeLabel'
  | 'NodeUpdateNodeTaint'
  | 'AssignedPodAdd'
  | 'AssignedPodUpdatePodLabel'
  | 'AssignedPodDelete'
  /** The waiting pod's own update (its tolerations: UpdatePodToleration). */
  | 'UnschedulablePodUpdate';

/** Labels of the queue's own moves (events.go's special event labels) and of a new pod. */
export type QueueMoveLabel =
  | ClusterEventLabel
  | 'UnschedulablePodAdd'
  | 'ScheduleAttemptFailure'
  | 'BackoffComplete'
  | 'UnschedulableTimeout';

/** The order events are listed in (the queue view's "moves back when"). */
export const CLUSTER_EVENT_ORDER: readonly ClusterEventLabel[] = [
  'NodeAdd',
  'NodeUpdateNodeAllocatable',
  'NodeUpdateNodeLabel',
  'NodeUpdateNodeTaint',
  'NodeDelete',
  'AssignedPodAdd',
  'AssignedPodUpdatePodLabel',
  'AssignedPodDelete',
  'UnschedulablePodUpdate'
];

/** fwk.QueueingHint. */
export type QueueingHint = 'Queue' | 'QueueSkip';

/**
 * QueueingHintFn: `pod` is the waiting pod; `oldObj`/`newObj` the event's object before and after
 * (undefined for an add or a delete). `h` is the scheduler's cache (namespaces, workloads).
 */
export type QueueingHintFn = (
  pod: KubeObject,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
  h: Handle
) => QueueingHint;

/** fwk.ClusterEventWithHint. Without a hint the event always queues the pod. */
export interface ClusterEventWithHint {
  events: readonly ClusterEventLabel[];
  hint?: QueueingHintFn;
}

/** One plugin's hint for one event (the QueueingHintMap entry). */
export interface QueueingHintFunction {
  plugin: string;
  hint?: QueueingHintFn;
}

/** Per event, the plugins registered for it with their hints (one map per profile). */
export type QueueingHintMap = ReadonlyMap<ClusterEventLabel, readonly QueueingHintFunction[]>;

export function buildQueueingHintMap(
  plugins: readonly { name: string; eventsToRegister?(): ClusterEventWithHint[] }[]
): Map<ClusterEventLabel, QueueingHintFunction[]> {
  const map = new Map<ClusterEventLabel, QueueingHintFunction[]>();
  for (const p of plugins) {
    for (const reg of p.eventsToRegister?.() ?? []) {
      for (const e of reg.events) {
        let list = map.get(e);
        if (!list) map.set(e, (list = []));
        list.push({ plugin: p.name, hint: reg.hint });
      }
    }
  }
  return map;
}

/**
 * isPodWorthRequeuing: a pod no plugin rejected moves on any event; otherwise one of its rejecting
 * plugins must be registered for the event and its hint (if any) must say Queue.
 */
export function isPodWorthRequeuing(
  map: QueueingHintMap,
  rejectors: readonly string[],
  event: ClusterEventLabel,
  pod: KubeObject,
  oldObj: KubeObject | undefined,
  newObj: KubeObject | undefined,
  h: Handle
): boolean {
  if (!rejectors.length) return true;
  for (const fn of map.get(event) ?? []) {
    if (!rejectors.includes(fn.plugin)) continue;
    if (!fn.hint || fn.hint(pod, oldObj, newObj, h) === 'Queue') return true;
  }
  return false;
}

/** One event that may move a waiting pod back, and the rejecting plugin registered for it. */
export interface RegisteredEvent {
  event: ClusterEventLabel;
  /** null: no plugin rejected the pod, so any event of interest moves it. */
  plugin: string | null;
}

/** The events the pod's rejecting plugins registered (what the queue view explains). */
export function registeredEvents(map: QueueingHintMap, rejectors: readonly string[]): RegisteredEvent[] {
  const out: RegisteredEvent[] = [];
  for (const event of CLUSTER_EVENT_ORDER) {
    const fns = map.get(event);
    if (!fns?.length) continue;
    if (!rejectors.length) {
      out.push({ event, plugin: null });
      continue;
    }
    for (const r of rejectors) if (fns.some((f) => f.plugin === r)) out.push({ event, plugin: r });
  }
  return out;
}

interface NodeFields {
  metadata: { labels?: unknown };
  spec?: { taints?: unknown; unschedulable?: unknown };
  status?: { allocatable?: unknown };
}

/** As JSON, with an absent field and null alike (as the scheduler's cache has always compared them). */
const same = (a: unknown, b: unknown) => JSON.stringify([a]) === JSON.stringify([b]);

/**
 * NodeSchedulingPropertiesChange: the update events a Node change is (none for a heartbeat), in
 * upstream's order. `spec.unschedulable` turning false (uncordon) is a taint change, as
 * extractNodeSpecUnschedulableChange; cordoning is no event (it makes nothing schedulable).
 * Conditions and annotations are events no default plugin registers, so they are not listed.
 */
export function nodeUpdateEvents(oldNode: NodeFields, newNode: NodeFields): ClusterEventLabel[] {
  const out: ClusterEventLabel[] = [];
  if (!!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable && !newNode.spec?.unschedulable)
    out.push('NodeUpdateNodeTaint');
  if (!same(oldNode.status?.allocatable, newNode.status?.allocatable)) out.push('NodeUpdateNodeAllocatable');
  if (!same(oldNode.metadata.labels, newNode.metadata.labels)) out.push('NodeUpdateNodeLabel');
  if (!same(oldNode.spec?.taints, newNode.spec?.taints) && !out.includes('NodeUpdateNodeTaint'))
    out.push('NodeUpdateNodeTaint');
  return out;
}
