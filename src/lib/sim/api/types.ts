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
  if (v === null || typeof v !== 'object') return v;
  if (Object.isFrozen(v) && !snapshotCopies.has(v)) return v;
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const x: unknown = v[i];
      out[i] = x === null || typeof x !== 'object' ? x : copySharingFrozen(x);
    }
    return out as T;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const x = o[keys[i]];
    out[keys[i]] = x === null || typeof x !== 'object' ? x : copySharingFrozen(x);
  }
  return out as T;
}

/**
 * Copies `freezeForSnapshot` made of mutable state. They are frozen so that the next snapshot can
 * share them, but the state they were copied from is mutable, so `copySharingFrozen` (a restore)
 * copies them again rather than handing a component frozen state.
 */
const SNAPSHOT_COPY = Symbol('snapshot copy');
const snapshotCopies = {
  has: (o: object): boolean => (o as { [SNAPSHOT_COPY]?: true })[SNAPSHOT_COPY] === true,
  add: (o: object): void => {
    Object.defineProperty(o, SNAPSHOT_COPY, { value: true });
  }
};

/** Whether `o` is a copy `freezeForSnapshot` made (benchmarks count these as a snapshot's own size). */
export function isSnapshotCopy(o: unknown): boolean {
  return o !== null && typeof o === 'object' && snapshotCopies.has(o);
}

/**
 * A snapshot copy of `live` that shares what has not changed since the previous snapshot: frozen
 * data (stored objects, journal entries, log lines) is shared as it is, and a mutable object or
 * array equal (the same keys in the same order, the same values) to its counterpart in `prev` (the
 * previous snapshot's copy at the same place) is that counterpart; anything else is copied and
 * frozen. So a snapshot costs a walk of the mutable state and allocates only what changed, and a
 * ring of snapshots holds one copy of what stayed the same.
 */
export function freezeForSnapshot<T>(live: T, prev: unknown): T {
  return shareSnapshot(live, prev) as T;
}

function shareSnapshot(v: unknown, prev: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Object.isFrozen(v)) return v;
  const p =
    prev !== null && typeof prev === 'object' && snapshotCopies.has(prev)
      ? (prev as Record<string, unknown>)
      : undefined;
  if (Array.isArray(v)) {
    const pa = Array.isArray(p) ? (p as unknown[]) : undefined;
    let out: unknown[] | undefined = pa && pa.length === v.length ? undefined : new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      const px = pa?.[i];
      // The same value as the previous copy's (a primitive or a frozen, shared object).
      const c = x === px ? x : shareSnapshot(x, px);
      if (out) out[i] = c;
      else if (c !== pa![i]) {
        out = pa!.slice(0, i);
        out.length = v.length;
        out[i] = c;
      }
    }
    if (!out) return pa;
    snapshotCopies.add(out);
    Object.freeze(out);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  let same = p !== undefined && !Array.isArray(p);
  if (same) {
    const pk = Object.keys(p!);
    same = pk.length === keys.length;
    for (let i = 0; same && i < keys.length; i++) same = pk[i] === keys[i];
  }
  let out: Record<string, unknown> | undefined = same ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const x = o[k];
    const px = p?.[k];
    const c = x === px ? x : shareSnapshot(x, px);
    if (out) out[k] = c;
    else if (c !== p![k]) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = p![keys[j]];
      out[k] = c;
    }
  }
  if (!out) return p;
  snapshotCopies.add(out);
  Object.freeze(out);
  return out;
}

/**
 * Copy-on-write for the store: `next` (a new version, not yet frozen) keeps the frozen subtrees of
 * `prev` (the stored version it replaces) wherever it holds the same JSON at the same place (the
 * same keys in the same order, the same values). Returns `prev` itself when everything is equal,
 * otherwise `next` with its unchanged parts swapped for `prev`'s, so versions share what did not
 * change: readers, watchers, caches keyed by object and snapshots see one copy of it.
 */
export function shareUnchanged(next: unknown, prev: unknown): unknown {
  if (next === prev) return prev;
  if (next === null || prev === null || typeof next !== 'object' || typeof prev !== 'object') return next;
  if (!Object.isFrozen(prev) || Object.isFrozen(next)) return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = next.length === prev.length;
    for (let i = 0; i < next.length; i++) {
      const p = i < prev.length ? prev[i] : undefined;
      const c = shareUnchanged(next[i], p);
      if (c !== next[i]) next[i] = c;
      if (c !== p || i >= prev.length) same = false;
    }
    return same ? prev : next;
  }
  if (Array.isArray(prev)) return next;
  const n = next as Record<string, unknown>;
  const p = prev as Record<string, unknown>;
  const keys = Object.keys(n);
  const prevKeys = Object.keys(p);
  let same = keys.length === prevKeys.length;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (prevKeys[i] !== k) same = false;
    if (!Object.hasOwn(p, k)) {
      same = false;
      continue;
    }
    const c = shareUnchanged(n[k], p[k]);
    if (c !== n[k]) n[k] = c;
    if (c !== p[k]) same = false;
  }
  return same ? prev : next;
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
