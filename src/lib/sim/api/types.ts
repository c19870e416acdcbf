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
    // Frozen subtrees (a version's parts shared with the one before) are left at once.
    if (Array.isArray(o)) for (let i = 0; i < o.length; i++) deepFreeze(o[i]);
    else for (const k in o) if (Object.hasOwn(o, k)) deepFreeze((o as Record<string, unknown>)[k]);
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
  // for-in walks a plain object's own keys in Object.keys order (its prototype, Object.prototype
  // or null, has no enumerable keys) without allocating the key list.
  for (const k in v) out[k] = copyValue((v as Record<string, unknown>)[k]);
  return out;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * `JSON.stringify(a) === JSON.stringify(b)`, without writing either out: the same keys in the
 * same order (keys whose value JSON drops, such as undefined, left out), equal values, arrays'
 * holes and undefined elements as null, non-finite numbers as null. A subtree shared by both (the
 * stored version's frozen object) is equal at once. Values JSON treats specially (toJSON, class
 * instances, bigint) are compared by their JSON text.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const r = jsonEqual(a, b, false);
  return r === undefined ? JSON.stringify(a) === JSON.stringify(b) : r;
}

const DROPPED = Symbol('dropped by JSON');

/** A primitive as JSON writes it: in an array, a dropped value is null. */
function jsonPrimitive(v: unknown, inArray: boolean): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return inArray ? null : DROPPED;
    default:
      return v;
  }
}

function plainJson(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null && proto !== Array.prototype) return false;
  return typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

function droppedByJson(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** undefined: cannot tell without JSON.stringify (a value it treats specially). */
function jsonEqual(a: unknown, b: unknown, inArray: boolean): boolean | undefined {
  if (a === b && typeof a !== 'bigint') return true;
  const ao = a !== null && typeof a === 'object';
  const bo = b !== null && typeof b === 'object';
  if (ao && !plainJson(a as object)) return undefined;
  if (bo && !plainJson(b as object)) return undefined;
  if (typeof a === 'bigint' || typeof b === 'bigint') return undefined;
  if (!ao || !bo) return !ao && !bo && jsonPrimitive(a, inArray) === jsonPrimitive(b, inArray);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) {
      const r = jsonEqual(a[i], bb[i], true);
      if (r !== true) return r;
    }
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && droppedByJson(ra[ka[i]])) i++;
    while (j < kb.length && droppedByJson(rb[kb[j]])) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    if (ka[i] !== kb[j]) return false;
    const r = jsonEqual(ra[ka[i]], rb[kb[j]], false);
    if (r !== true) return r;
    i++;
    j++;
  }
}
