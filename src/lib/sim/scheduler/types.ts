/**
 * The scheduling framework's vocabulary (k8s.io/kube-scheduler/framework): status codes, the
 * per-node cache entry (NodeInfo), the plugin contract and the recorded explanation of an attempt.
 */
import type { KubeObject, Taint } from '../api/types';
import type { NodeColumns } from './columns';
import type { ClusterEventWithHint } from './events';
import type { ResourceVector } from './resources';

/** Status codes with upstream's names. UnschedulableAndUnresolvable rules a node out of preemption. */
export type Code = 'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Wait' | 'Skip';

export interface Status {
  code: Code;
  reasons: string[];
  /** The plugin that returned it (set by the framework). */
  plugin?: string;
}

export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

export function status(code: Code, ...reasons: string[]): Status {
  return { code, reasons };
}

export function isFailure(s: Status | null | undefined): s is Status {
  return !!s && s.code !== 'Success' && s.code !== 'Skip';
}

export interface PodInfo {
  pod: KubeObject;
  key: string;
  namespace: string;
  priority: number;
  /** Real requests (filtering) and requests with the non-zero defaults for cpu/memory (scoring). */
  requests: ResourceVector;
  nonZero: { cpu: number; memory: number };
  hostPorts: { hostIP: string; protocol: string; port: number }[];
  hasAffinityTerms: boolean;
  hasRequiredAntiAffinity: boolean;
}

/** One node with the pods assigned to it and running sums of their requests (NodeInfo). */
export interface NodeInfo {
  name: string;
  node: KubeObject;
  labels: Record<string, string>;
  /** `spec.taints` and `spec.unschedulable`, read once per Node object (filters read them per pod). */
  taints: readonly Taint[];
  unschedulable: boolean;
  allocatable: ResourceVector;
  requested: ResourceVector;
  nonZeroRequested: { cpu: number; memory: number };
  pods: PodInfo[];
  /** Pods on this node that carry any (anti-)affinity term, for InterPodAffinity. */
  podsWithAffinity: number;
  podsWithRequiredAntiAffinity: number;
  usedPorts: { hostIP: string; protocol: string; port: number }[];
  /** Image name → size in bytes (ImageLocality). */
  images: Map<string, number>;
  /** Bumped on every change; plugins may cache per node generation. */
  generation: number;
  /**
   * Names the node's pods as label selectors see them (which pods, their namespaces, labels objects
   * and whether they are terminating): a number never used for other pods, kept when a pod is
   * replaced by an update that changes none of those (a status write). Counts of matching pods may
   * be cached per version.
   */
  podLabelsVersion: number;
  /**
   * Namespace → `key\u0000value` → how many of the node's pods not terminating carry that label:
   * a selector of labels one of whose pairs is missing here matches none of the node's pods.
   */
  labelPairs: Map<string, Map<string, number>>;
}

/** Everything a plugin may read about the cluster during one cycle (the framework Handle). */
export interface Handle {
  nodes: NodeInfo[];
  nodeByName: Map<string, NodeInfo>;
  /** Name of image → number of nodes that have it (ImageLocality's spread). */
  imageNodeCount: Map<string, number>;
  /** Services, ReplicaSets, ReplicationControllers, StatefulSets: for PodTopologySpread system defaults. */
  selectorsFor(pod: KubeObject): Record<string, string>[];
  namespaceLabels(ns: string): Record<string, string> | undefined;
  /** Cluster-wide counts that let InterPodAffinity skip its scans when no pod has terms. */
  stats: { podsWithAffinity: number; podsWithRequiredAntiAffinity: number };
  /** Minor Kubernetes version (35 for v1.35). */
  minor: number;
  /** The `nodes`' hot numbers by position (absent in views with copied nodes). */
  columns?: NodeColumns;
  /** Run the profile's PreFilter and Filter plugins for `pod` on `node` in the `nodes` view (preemption). */
  runFilters?(pod: PodInfo, node: NodeInfo, nodes: NodeInfo[]): Status | null;
  /** An integer in [0, n) from the scenario's seeded random. */
  randomInt?(n: number): number;
}

/** Per-cycle scratch data shared by a plugin's extension points. */
export type CycleState = Map<string, unknown>;

export interface PostFilterResult {
  status: Status;
  nominatedNodeName?: string;
  victims?: { key: string; node: string }[];
  /** Why preemption could not help on each node it ruled out (the counts its message prints). */
  nodeStatuses?: Map<string, Status>;
}

export interface Plugin {
  readonly name: string;
  /**
   * EnqueueExtensions.EventsToRegister: the cluster events that may make a pod this plugin
   * rejected schedulable, each with the QueueingHintFn that checks the event against the pod.
   */
  eventsToRegister?(): ClusterEventWithHint[];
  preFilter?(state: CycleState, pod: PodInfo, h: Handle): Status | null;
  filter?(state: CycleState, pod: PodInfo, node: NodeInfo, h: Handle): Status | null;
  /**
   * Filter the nodes whose `out` entry is still null; set a failure Status where one fails and
   * return how many it set (the same verdicts as `filter` node by node).
   */
  filterAll?(
    state: CycleState,
    pod: PodInfo,
    nodes: NodeInfo[],
    out: (Status | null)[],
    h: Handle,
    at?: Int32Array
  ): number;
  postFilter?(state: CycleState, pod: PodInfo, statuses: Map<string, Status>, h: Handle): PostFilterResult;
  preScore?(state: CycleState, pod: PodInfo, nodes: NodeInfo[], h: Handle): Status | null;
  score?(state: CycleState, pod: PodInfo, node: NodeInfo, h: Handle): number;
  /**
   * Score every node into `out` (same result as `score` per node; one monomorphic loop per plugin).
   * `at`, when given, holds each node's position in `h.columns` (batch filters take it too).
   */
  scoreAll?(
    state: CycleState,
    pod: PodInfo,
    nodes: NodeInfo[],
    out: number[],
    h: Handle,
    at?: Int32Array
  ): void;
  normalizeScore?(state: CycleState, pod: PodInfo, scores: number[], nodes: NodeInfo[]): void;
  reserve?(state: CycleState, pod: PodInfo, node: string): Status | null;
  unreserve?(state: CycleState, pod: PodInfo, node: string): void;
  permit?(state: CycleState, pod: PodInfo, node: string): Status | null;
  bind?(state: CycleState, pod: PodInfo, node: string): Status | null;
}

export type ExtensionPoint =
  'queueSort' | 'preFilter' | 'filter' | 'postFilter' | 'preScore' | 'score' | 'reserve' | 'permit' | 'bind';

export const EXTENSION_POINTS: ExtensionPoint[] = [
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'bind'
];

/** The recorded verdicts of every plugin on one node in one attempt. */
export interface NodeExplanation {
  filter: Record<string, { code: Code; reasons: string[] }>;
  /** Normalized score (0-100) before weight, per score plugin. */
  score: Record<string, number>;
  /** Raw score returned by Score, before NormalizeScore. */
  rawScore: Record<string, number>;
  /** Normalized score × weight. */
  weightedScore: Record<string, number>;
  finalScore: number | null;
}

export interface SchedulingAttempt {
  /** Virtual time of the attempt (ms), 0 in the offline simulator. */
  t: number;
  pod: string;
  profile: string;
  selectedNode: string | null;
  /** FailedScheduling text, empty on success. */
  message: string;
  nominatedNodeName?: string;
  victims?: string[];
  /** Nodes the filters looked at before reaching the feasible quota (percentageOfNodesToScore). */
  evaluatedNodes: number;
  totalNodes: number;
  nodes: Record<string, NodeExplanation>;
  /** PreFilter/PreScore statuses that are not Success (Skip shows which plugins sat out). */
  preFilter: Record<string, { code: Code; reasons: string[] }>;
  preScore: Record<string, { code: Code; reasons: string[] }>;
  postFilter?: {
    code: Code;
    reasons: string[];
    /** Per node, why preemption would not make room there (DefaultPreemption). */
    nodes?: Record<string, { code: Code; reasons: string[]; plugin?: string }>;
  };
}
