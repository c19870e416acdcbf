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

/** A mutable deep copy of a stored (frozen) object. */
export function clone<T>(o: T): Mutable<T> {
  return structuredClone(o) as Mutable<T>;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
