/** Object shapes: the real Kubernetes types (kubernetes-types) plus the generic envelope the store holds. */
import type { ObjectMeta } from 'kubernetes-types/meta/v1';

export type { ObjectMeta, OwnerReference, LabelSelector, Time } from 'kubernetes-types/meta/v1';
export type {
  Pod,
  PodSpec,
  PodStatus,
  PodCondition,
  Container,
  ContainerStatus,
  ContainerState,
  Node,
  NodeSpec,
  NodeStatus,
  NodeCondition,
  Taint,
  Toleration,
  Namespace,
  Event,
  Service,
  ServiceSpec,
  ServicePort,
  ConfigMap,
  ResourceRequirements,
  Affinity,
  NodeAffinity,
  NodeSelectorTerm,
  NodeSelectorRequirement,
  PodAffinityTerm,
  WeightedPodAffinityTerm,
  TopologySpreadConstraint,
  ContainerImage,
  EnvVar,
  Volume
} from 'kubernetes-types/core/v1';
export type { Deployment, ReplicaSet, DaemonSet } from 'kubernetes-types/apps/v1';
export type { Lease } from 'kubernetes-types/coordination/v1';
export type { EndpointSlice } from 'kubernetes-types/discovery/v1';
export type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
export type { PriorityClass } from 'kubernetes-types/scheduling/v1';

/**
 * kubernetes-types declares every field readonly. Stored objects are frozen anyway; code that
 * builds or changes an object works on `Mutable<T>` (what `clone` returns).
 */
export type Mutable<T> = T extends (infer U)[]
  ? Mutable<U>[]
  : T extends readonly (infer U)[]
    ? Mutable<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: Mutable<T[K]> }
      : T;

/** Any object the API server stores. Every stored object has a name and a resourceVersion. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: Mutable<ObjectMeta> & { name: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  [key: string]: unknown;
}

/** Who is calling the API (its user agent). Used for request metrics and for connectivity checks. */
export interface RequestContext {
  /** kubelet, kube-scheduler, kube-controller-manager, kubectl, cluster-autoscaler, kube-proxy, ... */
  component: string;
  /** Set for node-local callers (kubelet, kube-proxy): a partitioned node cannot reach the API. */
  node?: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as Record<string, unknown>)) deepFreeze(v);
  }
  return o;
}

/**
 * A mutable deep copy of a stored (frozen) object. API objects are JSON-shaped trees, so plain
 * objects and arrays are copied directly (several times faster than structuredClone, which every
 * write and most controllers' reads went through); anything else falls back to structuredClone.
 */
export function clone<T>(o: T): Mutable<T> {
  return copyValue(o) as Mutable<T>;
}

/**
 * A deep copy for snapshots that shares frozen subtrees instead of copying them: stored API objects,
 * journal entries and log lines are deep-frozen and never change, so a snapshot (and a cluster
 * restored from it) can hold the same objects as the live cluster.
 */
export function copySharingFrozen<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copySharingFrozen(v[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copySharingFrozen((v as Record<string, unknown>)[k]);
  return out as T;
}

function copyValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyValue(v[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyValue((v as Record<string, unknown>)[k]);
  return out;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
