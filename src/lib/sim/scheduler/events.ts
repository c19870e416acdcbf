/**
 * The cluster events that move a pod between the scheduling queue's sub-queues, named by their
 * upstream labels (pkg/scheduler/framework/events.go; `ClusterEvent.Label()` is the resource
 * followed by the action type, e.g. `NodeAdd`, `NodeUpdateNodeTaint`, `AssignedPodDelete`), and
 * for each the unschedulable pods it moves back (MoveAllToActiveOrBackoffQueue): all of them, or
 * those a given plugin rejected (the plugins' EventsToRegister).
 *
 * This table is what the simulation's plugins register: kube-scheduler reads it to move pods, and
 * the queue view reads it to tell a learner which event will move a waiting pod. Upstream's
 * queueing hint functions narrow some of these further (NodeResourcesFit's hint for NodeAdd looks
 * at the new node's allocatable first); the simulation moves every pod the event is registered
 * for and lets the next attempt decide.
 */
import type { MoveFilter } from './queue';

/** Cluster events kube-scheduler reacts to. */
export type ClusterEventLabel =
  | 'NodeAdd'
  | 'NodeUpdateNodeAllocatable'
  | 'NodeUpdateNodeLabel'
  | 'NodeUpdateNodeTaint'
  /** The kubelet's image list (ImageLocality); upstream registers no event for it. */
  | 'NodeUpdate'
  | 'AssignedPodAdd'
  | 'AssignedPodDelete'
  | 'UnschedulablePodUpdate';

/** Labels of the queue's own moves (events.go's special event labels) and of a new pod. */
export type QueueMoveLabel =
  | ClusterEventLabel
  | 'UnschedulablePodAdd'
  | 'ScheduleAttemptFailure'
  | 'BackoffComplete'
  | 'UnschedulableTimeout';

/** Plugins whose rejections a deleted (or finished) assigned pod may resolve: it frees room. */
const ASSIGNED_POD_DELETE_PLUGINS = [
  'NodeResourcesFit',
  'NodePorts',
  'InterPodAffinity',
  'PodTopologySpread',
  'DefaultPreemption'
];
/** Plugins that count the pods already on a node (affinity terms, spread constraints). */
const ASSIGNED_POD_ADD_PLUGINS = ['InterPodAffinity', 'PodTopologySpread'];

/**
 * Which unschedulable pods each cluster event moves back. `UnschedulablePodUpdate` moves only the
 * updated pod itself (a changed spec: new tolerations, a different node selector).
 */
export const CLUSTER_EVENTS: Readonly<Record<ClusterEventLabel, MoveFilter | 'self'>> = {
  NodeAdd: 'all',
  NodeUpdateNodeAllocatable: 'all',
  NodeUpdateNodeLabel: 'all',
  NodeUpdateNodeTaint: 'all',
  NodeUpdate: 'all',
  AssignedPodAdd: { plugins: ASSIGNED_POD_ADD_PLUGINS, unknownPlugins: false },
  AssignedPodDelete: { plugins: ASSIGNED_POD_DELETE_PLUGINS, unknownPlugins: true },
  UnschedulablePodUpdate: 'self'
};

const ORDER = Object.keys(CLUSTER_EVENTS) as ClusterEventLabel[];

/** The cluster events that may move back a pod the given plugins rejected (none recorded: unknown). */
export function eventsThatMove(plugins: readonly string[]): ClusterEventLabel[] {
  return ORDER.filter((label) => {
    const f = CLUSTER_EVENTS[label];
    if (f === 'all' || f === 'self') return true;
    if (!plugins.length) return f.unknownPlugins;
    return plugins.some((p) => f.plugins.includes(p));
  });
}

interface NodeFields {
  metadata: { labels?: unknown };
  spec?: { taints?: unknown; unschedulable?: unknown };
  status?: { allocatable?: unknown; images?: unknown };
}

/** As JSON, with an absent field and null alike (as the scheduler's cache has always compared them). */
const same = (a: unknown, b: unknown) => JSON.stringify([a]) === JSON.stringify([b]);

/**
 * NodeSchedulingPropertiesChange: the update events a Node change is (none for a heartbeat).
 * `spec.unschedulable` counts as a taint change, as upstream's extractNodeSpecUnschedulableChange.
 */
export function nodeUpdateEvents(oldNode: NodeFields, newNode: NodeFields): ClusterEventLabel[] {
  const out: ClusterEventLabel[] = [];
  if (!same(oldNode.status?.allocatable, newNode.status?.allocatable)) out.push('NodeUpdateNodeAllocatable');
  if (!same(oldNode.metadata.labels, newNode.metadata.labels)) out.push('NodeUpdateNodeLabel');
  if (
    !same(oldNode.spec?.taints, newNode.spec?.taints) ||
    !same(oldNode.spec?.unschedulable, newNode.spec?.unschedulable)
  )
    out.push('NodeUpdateNodeTaint');
  if (!out.length && !same(oldNode.status?.images, newNode.status?.images)) out.push('NodeUpdate');
  return out;
}
