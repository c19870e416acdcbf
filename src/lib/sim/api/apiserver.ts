/**
 * kube-apiserver: the object store every component talks to, and nothing else.
 *
 * - Objects are stored deep-frozen; readers get the stored object and must clone before changing it.
 * - Every write gets the next resourceVersion (the etcd revision); a write with a stale
 *   resourceVersion fails with 409 Conflict.
 * - Writes go through admission (mutating, then validating plugins), then to etcd: without
 *   quorum every write fails with `etcdserver: request timed out`.
 * - Watches are delivered synchronously after each committed write. Handlers must only enqueue
 *   work (like client-go event handlers feeding a workqueue): writing from a handler throws.
 */
import { EventLeases, LESSOR_CHECK_MS, type EventLeasesSnapshot } from './event-ttl';
import type { Engine } from '../engine/engine';
import type { Etcd } from '../etcd/etcd';
import { ApiError, alreadyExists, conflict, etcdUnavailable, notFound, ConnectionError } from './errors';
import { isKnownKind, resourceForKind } from './resources';
import {
  matchFields,
  matchRequirements,
  parseFieldSelector,
  parseLabelSelector,
  type FieldRequirement,
  type Requirement
} from './selectors';
import {
  clone,
  deepFreeze,
  freezeForSnapshot,
  objectKey,
  sameJson,
  shareUnchanged,
  type KubeObject,
  type RequestContext,
  type WatchEventType
} from './types';
import { objectLogKey, type RequestLog, type RequestRecord } from './requestlog';
import type { AggregatedServer } from './aggregator';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionPlugin {
  name: string;
  /**
   * Mutating admission: may change `obj` (a private copy) in place, except the parts that are the
   * stored version's own frozen objects (`obj.spec === old.spec` on a status write or a patch that
   * left the spec alone): those were admitted when they were written and are left as they are.
   */
  admit?(op: Operation, obj: KubeObject, old: KubeObject | undefined, api: ApiServer): void;
  /** Validating admission: throw an ApiError (usually `invalid(...)`) to reject. */
  validate?(op: Operation, obj: KubeObject, old: KubeObject | undefined, api: ApiServer): void;
}

export type WatchHandler<T extends KubeObject = KubeObject> = (
  type: WatchEventType,
  obj: T,
  old: T | undefined
) => void;

/** A watch on the pods of one node (the kubelet's `fieldSelector=spec.nodeName=<node>` watch). */
export interface WatchOptions {
  nodeName?: string;
  /** Who holds the watch (for the request log); defaults to the one set by `watchingAs`. */
  by?: RequestContext;
}

interface Watcher {
  /** Registration order: handlers run in it, whatever their filter. */
  seq: number;
  handler: WatchHandler;
  by?: RequestContext;
}

/**
 * The watchers of one kind. Arrays are replaced, not changed, when a watch starts or stops, so a
 * dispatch in progress walks the list it started with.
 */
interface KindWatchers {
  all: Watcher[];
  byNode: Map<string, Watcher[]>;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  /** Only delete if the object still has this uid (used by evictions and the taint manager). */
  uid?: string;
}

export interface ApiServerSnapshot {
  resourceVersion: number;
  objects: KubeObject[];
  requests: Record<string, number>;
  /** Failed requests by "<verb> <resource> <code>" (apiserver_request_total's error codes). */
  requestErrors?: Record<string, number>;
  /**
   * The order of the pods-by-node and by-controller indexes (object keys). An object moves to the
   * end of its index entry when it is updated, so the order differs from the store's; controllers
   * walk these lists, and a restored cluster must walk them in the same order to continue the same.
   */
  indexOrder?: { pods: Record<string, string[]>; owned: Record<string, Record<string, string[]>> };
  /** The Events' etcd leases (event-ttl.ts); absent in older snapshots (nothing expires then). */
  eventLeases?: EventLeasesSnapshot;
}

/** The engine target of etcd's lessor loop (event-ttl.ts): revoking expired leases. */
const LESSOR = 'etcd-lessor';
/** A lease's own check, and the lessor's next tick while quorum is lost. */
const CHECK = 'RevokeExpired';
const RETRY = 'RevokeRetry';

/** Kinds whose status is a subresource: a plain update keeps the old status, an update of status keeps the spec. */
const STATUS_KINDS = new Set([
  'Pod',
  'Node',
  'Deployment',
  'ReplicaSet',
  'DaemonSet',
  'Service',
  'PodDisruptionBudget',
  'APIService'
]);

const MUTATING_VERB = /^(create|update|patch|delete|deletecollection) /;

/** The store key of each object of a snapshot's object list, by list (see `snapshot`). */
const storeKeys = new WeakMap<readonly KubeObject[], readonly string[]>();

export class ApiServer {
  /** Scenario epoch: creationTimestamp = epoch + virtual time. */
  epochMs = Date.UTC(2026, 0, 1);
  readonly admission: AdmissionPlugin[] = [];
  /** Request counts per "<verb> <resource>", e.g. "update leases". */
  requests = new Map<string, number>();
  /** Requests that failed inside the API server, by "<verb> <resource> <code>". */
  requestErrors = new Map<string, number>();
  /** The request being served (its "<verb> <resource>"), for the error count. */
  private current = '';
  private nested = false;
  /** Connectivity hook set by the cluster: throws ConnectionError when `ctx` cannot reach any API server. */
  reachable: (ctx: RequestContext) => void = () => {};
  /** The request log, while a view draws the traffic (observation only; see requestlog.ts). */
  requestLog: RequestLog | undefined;
  /**
   * Aggregated API servers by the Service they sit behind ("kube-system/metrics-server"): the
   * process each one is, registered by its component; kube-aggregator proxies to it (aggregator.ts).
   */
  readonly aggregatedServers = new Map<string, AggregatedServer>();
  private watchOwner: RequestContext | undefined;
  /** The last second `timestamp` formatted, and its text. */
  private stampSecond = NaN;
  private stampText = '';

  private rv = 0;
  private store = new Map<string, Map<string, KubeObject>>();
  private podsByNode = new Map<string, Map<string, KubeObject>>();
  /**
   * The store again by kind, namespace ('' for cluster-scoped objects) and name: a get looks an
   * object up by the strings it is given, without joining them into a store key first (a new
   * string, hashed again on every call).
   */
  private byName = new Map<string, Map<string, Map<string, KubeObject>>>();
  /**
   * kind → controller owner uid → key → object. Objects without a controller are under '' for the
   * kinds controllers adopt (ADOPTED_KINDS); the others (Nodes, Leases, Events) are not indexed.
   */
  private byController = new Map<string, Map<string, Map<string, KubeObject>>>();
  /**
   * Each stored object's place in its kind's store (the order `list` returns): an update keeps
   * the place of the object it replaces, a new object goes last.
   */
  private storeOrder = new Map<string, Map<string, number>>();
  private storeSeq = 0;
  /** The object list of the last snapshot taken (or restored): the next one shares it if equal. */
  private lastSnapshotObjects: readonly KubeObject[] | undefined;
  private watchers = new Map<string, KindWatchers>();
  private watchSeq = 0;
  private dispatching = 0;
  /** Set while a client collects response warnings (collectWarnings). */
  private warningSink: string[] | undefined;
  /** The Events' leases: each Event expires an hour after its last write (event-ttl.ts). */
  private eventLeases = new EventLeases();

  constructor(
    private engine: Engine,
    private etcd: Etcd
  ) {
    engine.register(LESSOR, (ev) => this.revokeExpiredLeases(ev.type === RETRY));
  }

  // ---- reads -------------------------------------------------------------------------------

  get<T extends KubeObject>(kind: string, namespace: string | undefined, name: string): T {
    const o = this.tryGet<T>(kind, namespace, name);
    if (!o) throw notFound(resourceForKind(kind).plural, name);
    return o;
  }

  tryGet<T extends KubeObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    const r = resourceForKind(kind);
    return this.byName
      .get(kind)
      ?.get((r.namespaced && namespace) || '')
      ?.get(name) as T | undefined;
  }

  list<T extends KubeObject>(kind: string, opts: ListOptions = {}): T[] {
    const labels: Requirement[] = parseLabelSelector(opts.labelSelector);
    const fields: FieldRequirement[] = parseFieldSelector(opts.fieldSelector);
    // spec.nodeName on pods has an index, as the kubelet's own pod watch does.
    const nodeReq =
      kind === 'Pod' ? fields.find((f) => f.path === 'spec.nodeName' && f.op === '=') : undefined;
    const source = nodeReq ? this.podsByNode.get(nodeReq.value) : this.store.get(kind);
    const out: T[] = [];
    if (!source) return out;
    const namespace = opts.namespace;
    // forEach, not an iterator: no result object per stored object (the node lifecycle
    // controller lists every Node every 5 s).
    source.forEach((o) => {
      if (namespace && o.metadata.namespace !== namespace) return;
      if (labels.length && !matchRequirements(labels, o.metadata.labels)) return;
      if (fields.length && !matchFields(fields, o)) return;
      out.push(o as T);
    });
    return out;
  }

  /** Pods bound to a node, from the spec.nodeName index. */
  podsOnNode<T extends KubeObject>(nodeName: string): T[] {
    return [...(this.podsByNode.get(nodeName)?.values() ?? [])] as T[];
  }

  /**
   * Objects of `kind` whose controller ownerReference has `ownerUid` ('' lists the objects with
   * no controller, the orphans a controller may adopt: of the kinds in ADOPTED_KINDS only). An
   * index, as controllers' informers keep.
   */
  listByController<T extends KubeObject>(
    kind: string,
    ownerUid: string,
    namespace?: string,
    opts: { order?: 'index' | 'list' } = {}
  ): T[] {
    const m = this.byController.get(kind)?.get(ownerUid);
    if (!m) return [];
    const out: T[] = [];
    for (const o of m.values()) if (!namespace || o.metadata.namespace === namespace) out.push(o as T);
    // `order: 'list'`: the order `list` would give them (the store's), for callers that used to filter a list.
    if (opts.order === 'list') {
      const order = this.storeOrder.get(kind)!;
      // Each object's place looked up once, not once per comparison.
      const placed = out.map((o) => ({
        o,
        at: order.get(objectKey(o.metadata.namespace, o.metadata.name))!
      }));
      placed.sort((a, b) => a.at - b.at);
      for (let i = 0; i < placed.length; i++) out[i] = placed[i].o;
    }
    return out;
  }

  count(kind: string): number {
    return this.store.get(kind)?.size ?? 0;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** Reads are served from the watch cache; without etcd quorum they may be stale. */
  get readsMayBeStale(): boolean {
    return !this.etcd.hasQuorum();
  }

  /**
   * Watch a kind. With `nodeName` (Pods only) the handler sees only the pods bound to that node,
   * before or after the change, and costs nothing for other nodes' pods.
   */
  watch<T extends KubeObject>(kind: string, handler: WatchHandler<T>, opts: WatchOptions = {}): () => void {
    let w = this.watchers.get(kind);
    if (!w) this.watchers.set(kind, (w = { all: [], byNode: new Map() }));
    const kw = w;
    const by = opts.by ?? this.watchOwner;
    const entry: Watcher = { seq: ++this.watchSeq, handler: handler as WatchHandler, ...(by ? { by } : {}) };
    const node = kind === 'Pod' ? opts.nodeName : undefined;
    if (node === undefined) kw.all = [...kw.all, entry];
    else kw.byNode.set(node, [...(kw.byNode.get(node) ?? []), entry]);
    return () => {
      if (node === undefined) kw.all = kw.all.filter((e) => e !== entry);
      else {
        const left = (kw.byNode.get(node) ?? []).filter((e) => e !== entry);
        if (left.length) kw.byNode.set(node, left);
        else kw.byNode.delete(node);
      }
    };
  }

  /** Run `fn` with watches it starts held by `ctx` (a process whose parts watch, like kube-controller-manager). */
  watchingAs<T>(ctx: RequestContext, fn: () => T): T {
    const saved = this.watchOwner;
    this.watchOwner = ctx;
    try {
      return fn();
    } finally {
      this.watchOwner = saved;
    }
  }

  // ---- writes ------------------------------------------------------------------------------

  /**
   * POST. The API server stores its own copy of `input`; with `handOver` the caller gives it
   * `input` itself (a new object it built for this request, shares with nothing and never reads
   * or writes again), which is then stored without a copy.
   */
  create<T extends KubeObject>(input: T, ctx?: RequestContext, opts: { handOver?: boolean } = {}): T {
    const rec = this.begin('create', input.kind, ctx, undefined, input.metadata);
    const obj = (opts.handOver ? input : clone(input)) as KubeObject;
    const r = resourceForKind(obj.kind);
    obj.metadata = obj.metadata ?? ({} as KubeObject['metadata']);
    if (r.namespaced) obj.metadata.namespace = obj.metadata.namespace || 'default';
    else delete obj.metadata.namespace;
    if (!obj.metadata.name && obj.metadata.generateName) {
      obj.metadata.name = obj.metadata.generateName + this.engine.random.nameSuffix();
      if (rec) this.requestLog?.named(rec, obj.metadata.name);
    }
    if (
      r.namespaced &&
      obj.kind !== 'Namespace' &&
      !this.tryGet('Namespace', undefined, obj.metadata.namespace!)
    ) {
      throw notFound('namespaces', obj.metadata.namespace!);
    }
    for (const p of this.admission) p.admit?.('CREATE', obj, undefined, this);
    for (const p of this.admission) p.validate?.('CREATE', obj, undefined, this);
    if (!obj.metadata.name) {
      throw new ApiError(
        422,
        'Invalid',
        `${obj.kind} "" is invalid: metadata.name: Required value: name or generateName is required`
      );
    }
    if (this.tryGet(obj.kind, obj.metadata.namespace, obj.metadata.name)) {
      throw alreadyExists(r.plural, obj.metadata.name);
    }
    this.requireQuorum();
    obj.apiVersion = obj.apiVersion || (r.group ? `${r.group}/${r.version}` : r.version);
    obj.metadata.uid = this.engine.random.uid();
    obj.metadata.creationTimestamp = this.timestamp();
    if (obj.spec !== undefined && !NO_GENERATION.has(obj.kind)) obj.metadata.generation = 1;
    delete obj.metadata.deletionTimestamp;
    const committed = this.commit('ADDED', obj, undefined) as T;
    if (rec && obj.kind === 'Event') this.logEventAbout(rec, obj);
    return committed;
  }

  /**
   * PUT. With `subresource: 'status'` only the status changes; otherwise the status is kept. With
   * `handOver` on a status write the caller gives the API server the request's status (a new
   * object it built for this write, shares nothing mutable and never reads or writes again),
   * which is stored without a copy.
   */
  update<T extends KubeObject>(
    input: T,
    ctx?: RequestContext,
    opts: { subresource?: 'status'; handOver?: boolean } = {}
  ): T {
    this.begin('update', input.kind, ctx, opts.subresource, input.metadata);
    const r = resourceForKind(input.kind);
    const old = this.get(input.kind, input.metadata.namespace, input.metadata.name);
    if (input.metadata.resourceVersion && input.metadata.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(r.plural, input.metadata.name);
    }
    const statusKind = STATUS_KINDS.has(input.kind);
    const toStatus = statusKind && opts.subresource === 'status';
    // The parts of the request the write keeps, copied (the caller's object is never stored);
    // the parts it takes from the stored version (the spec of a status write, the status of a
    // spec write) are the stored, frozen objects themselves, not copies.
    const obj = copyForWrite(input, old, statusKind, toStatus, toStatus && !!opts.handOver);
    obj.apiVersion = old.apiVersion;
    // Identity and system fields cannot be changed by clients.
    obj.metadata.uid = old.metadata.uid;
    obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
    obj.metadata.namespace = old.metadata.namespace;
    if (old.metadata.deletionTimestamp) {
      obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
      obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    } else {
      delete obj.metadata.deletionTimestamp;
    }
    if (statusKind) {
      if (toStatus) {
        obj.spec = old.spec;
        obj.metadata.labels = old.metadata.labels;
        obj.metadata.annotations = old.metadata.annotations;
        obj.metadata.finalizers = old.metadata.finalizers;
        obj.metadata.ownerReferences = old.metadata.ownerReferences;
      } else {
        obj.status = old.status;
      }
    }
    if (old.metadata.generation !== undefined) {
      obj.metadata.generation =
        opts.subresource !== 'status' && !sameJson(obj.spec, old.spec)
          ? old.metadata.generation + 1
          : old.metadata.generation;
    }
    const admission = this.admission;
    for (let i = 0; i < admission.length; i++) admission[i].admit?.('UPDATE', obj, old, this);
    // Copy on write, before validation (which only reads): what the write did not change is the
    // stored version's frozen object, so validators can tell an untouched spec by identity.
    shareWithStored(obj, old);
    for (let i = 0; i < admission.length; i++) admission[i].validate?.('UPDATE', obj, old, this);
    this.requireQuorum();
    // Finalizers all gone on an object being deleted: it goes now.
    if (obj.metadata.deletionTimestamp && !obj.metadata.finalizers?.length && this.gracePassed(obj)) {
      return this.remove(obj) as T;
    }
    return this.commit('MODIFIED', obj, old, false) as T;
  }

  /** JSON merge patch (RFC 7386), as `kubectl patch --type merge` and most controllers use. */
  patch<T extends KubeObject>(
    kind: string,
    namespace: string | undefined,
    name: string,
    patch: Record<string, unknown>,
    ctx?: RequestContext,
    opts: { subresource?: 'status' } = {}
  ): T {
    const cur = this.get<T>(kind, namespace, name);
    // The merged object shares what the patch did not touch with the stored version; update
    // copies the parts it keeps.
    const merged = mergePatch(cur, patch) as T;
    // The scheduler binds by setting spec.nodeName; upstream POSTs pods/binding, and the log says so.
    const binding = kind === 'Pod' && !opts.subresource && isBinding(patch);
    this.countOnly('patch', kind, ctx, opts.subresource, { name, namespace }, binding);
    return this.updateInternal(merged, opts);
  }

  delete(
    kind: string,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
    ctx?: RequestContext
  ): KubeObject | undefined {
    this.begin('delete', kind, ctx, undefined, { name, namespace });
    const old = this.get(kind, namespace, name);
    if (opts.uid && old.metadata.uid !== opts.uid) {
      throw new ApiError(
        409,
        'Conflict',
        `Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${old.metadata.uid}`
      );
    }
    for (const p of this.admission) p.validate?.('DELETE', old, old, this);
    this.requireQuorum();
    const obj = clone(old);
    let grace = 0;
    if (kind === 'Pod') {
      // pod strategy CheckGracefulDelete: unbound and terminal pods go at once.
      const phase = obj.status?.phase;
      const requested = opts.gracePeriodSeconds ?? obj.spec?.terminationGracePeriodSeconds ?? 30;
      grace = !obj.spec?.nodeName || phase === 'Failed' || phase === 'Succeeded' ? 0 : Math.max(0, requested);
      if (obj.metadata.deletionGracePeriodSeconds !== undefined) {
        grace = Math.min(grace, obj.metadata.deletionGracePeriodSeconds);
      }
    }
    const hasFinalizers = !!obj.metadata.finalizers?.length;
    if (grace > 0 || hasFinalizers) {
      let changed = false;
      if (!obj.metadata.deletionTimestamp || grace < (obj.metadata.deletionGracePeriodSeconds ?? Infinity)) {
        obj.metadata.deletionTimestamp = this.timestamp(grace * 1000);
        obj.metadata.deletionGracePeriodSeconds = grace;
        changed = true;
      }
      if (!hasFinalizers && grace === 0) return this.remove(obj);
      // Deleting an object that is already terminating on the same terms writes nothing.
      if (!changed) return old;
      return this.commit('MODIFIED', obj, old);
    }
    return this.remove(obj);
  }

  // ---- request accounting and connectivity ----------------------------------------------------

  /** Count a read made by a component (list/get/watch) for the load model. */
  countRead(verb: 'get' | 'list' | 'watch', kind: string, ctx?: RequestContext): void {
    this.countOnly(verb, kind, ctx);
  }

  /** Writes that reached etcd: mutating requests less those that failed in the API server. */
  committedWrites(): number {
    let n = 0;
    for (const [key, c] of this.requests) if (MUTATING_VERB.test(key)) n += c;
    for (const [key, c] of this.requestErrors) if (MUTATING_VERB.test(key)) n -= c;
    return n;
  }

  /** Requests that failed with a server error, by "<verb> <resource> <code>". */
  requestErrorCounts(): Record<string, number> {
    return Object.fromEntries(
      [...this.requestErrors.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    );
  }

  requestCounts(): Record<string, number> {
    return Object.fromEntries([...this.requests.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  // ---- snapshots ---------------------------------------------------------------------------

  /** The stored objects are frozen, so the snapshot holds them as they are (no copy). */
  snapshot(): ApiServerSnapshot {
    const live: KubeObject[] = [];
    const liveKeys: string[] = [];
    for (const m of this.store.values())
      for (const [key, o] of m) {
        live.push(o);
        liveKeys.push(key);
      }
    // Frozen copies shared with the previous snapshot while the store is the same; the keys go
    // with the list (not into the JSON), so a restore puts each object under the store's own key.
    const objects = freezeForSnapshot(live, this.lastSnapshotObjects);
    if (!storeKeys.has(objects)) {
      const prevKeys = this.lastSnapshotObjects && storeKeys.get(this.lastSnapshotObjects);
      storeKeys.set(objects, freezeForSnapshot(liveKeys, prevKeys));
    }
    this.lastSnapshotObjects = objects;
    const pods: Record<string, string[]> = {};
    for (const [node, m] of this.podsByNode) if (m.size) pods[node] = [...m.keys()];
    const owned: Record<string, Record<string, string[]>> = {};
    for (const [kind, byOwner] of this.byController) {
      const o: Record<string, string[]> = {};
      for (const [uid, m] of byOwner) if (m.size > 1) o[uid] = [...m.keys()];
      if (Object.keys(o).length) owned[kind] = o;
    }
    return {
      resourceVersion: this.rv,
      objects,
      requests: this.requestCounts(),
      requestErrors: this.requestErrorCounts(),
      indexOrder: { pods, owned },
      eventLeases: this.eventLeases.snapshot()
    };
  }

  /** Frozen objects (from `snapshot()`) are stored as they are; others (parsed JSON) are copied and frozen. */
  restore(s: ApiServerSnapshot): void {
    this.store.clear();
    this.storeOrder.clear();
    this.podsByNode.clear();
    this.byController.clear();
    this.byName.clear();
    this.restoreObjects(s.objects);
    if (s.indexOrder) {
      for (const [node, keys] of Object.entries(s.indexOrder.pods)) {
        const m = this.podsByNode.get(node);
        if (m) this.podsByNode.set(node, reordered(m, keys));
      }
      for (const [kind, byUid] of Object.entries(s.indexOrder.owned)) {
        const byOwner = this.byController.get(kind);
        if (!byOwner) continue;
        for (const [uid, keys] of Object.entries(byUid)) {
          const m = byOwner.get(uid);
          if (m) byOwner.set(uid, reordered(m, keys));
        }
      }
    }
    this.rv = s.resourceVersion;
    this.lastSnapshotObjects = Object.isFrozen(s.objects) ? s.objects : undefined;
    this.requests = new Map(Object.entries(s.requests));
    this.requestErrors = new Map(Object.entries(s.requestErrors ?? {}));
    this.eventLeases = EventLeases.restore(s.eventLeases);
  }

  /**
   * `put` for every object of a snapshot, into empty maps: the same maps in the same order, with
   * each object's key made once and each kind's maps looked up once per run of that kind (a
   * snapshot lists the objects kind by kind).
   */
  private restoreObjects(objects: readonly KubeObject[]): void {
    const keys = storeKeys.get(objects);
    let kind: string | undefined;
    let m: Map<string, KubeObject> | undefined;
    let order: Map<string, number> | undefined;
    let byOwner: Map<string, Map<string, KubeObject>> | undefined;
    for (let i = 0; i < objects.length; i++) {
      const stored = objects[i];
      const o = Object.isFrozen(stored) ? stored : deepFreeze(clone(stored));
      if (o.kind !== kind || !m || !order || !byOwner) {
        kind = o.kind;
        m = this.store.get(kind);
        if (!m) this.store.set(kind, (m = new Map()));
        order = this.storeOrder.get(kind);
        if (!order) this.storeOrder.set(kind, (order = new Map()));
        byOwner = this.byController.get(kind);
        if (!byOwner) this.byController.set(kind, (byOwner = new Map()));
      }
      const key = keys?.[i] ?? objectKey(o.metadata.namespace, o.metadata.name);
      m.set(key, o);
      this.indexName(o);
      if (!order.has(key)) order.set(key, ++this.storeSeq);
      indexOwned(byOwner, key, o);
      const node = kind === 'Pod' ? (o.spec?.nodeName as string | undefined) : undefined;
      if (node) {
        let idx = this.podsByNode.get(node);
        if (!idx) this.podsByNode.set(node, (idx = new Map()));
        idx.set(key, o);
      }
    }
  }

  /**
   * etcd's keyspace was replaced under the API server (an etcd started on a restored snapshot).
   * The store becomes `objects` and the revision `revision`; every watcher sees the difference
   * as informers do when they relist after the restart: objects that are gone are DELETED, the
   * ones that came back ADDED, the ones that differ MODIFIED.
   */
  resetStore(objects: readonly KubeObject[], revision: number): void {
    const next = new Map<string, KubeObject>();
    for (const o of objects) next.set(`${o.kind}/${objectKey(o.metadata.namespace, o.metadata.name)}`, o);
    const current: KubeObject[] = [];
    for (const m of this.store.values()) for (const o of m.values()) current.push(o);
    for (const o of current) {
      if (next.has(`${o.kind}/${objectKey(o.metadata.namespace, o.metadata.name)}`)) continue;
      this.store.get(o.kind)!.delete(objectKey(o.metadata.namespace, o.metadata.name));
      this.unindexName(o);
      this.storeOrder.get(o.kind)?.delete(objectKey(o.metadata.namespace, o.metadata.name));
      if (o.kind === 'Pod') this.unindexPod(o);
      this.unindexController(o);
      this.notify('DELETED', o, o);
    }
    this.rv = revision;
    for (const o of next.values()) {
      const frozen = Object.isFrozen(o) ? o : deepFreeze(clone(o));
      const old = this.store.get(o.kind)?.get(objectKey(o.metadata.namespace, o.metadata.name));
      if (old === frozen) continue;
      this.put(frozen, old);
      this.notify(old ? 'MODIFIED' : 'ADDED', frozen, old);
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  private updateInternal<T extends KubeObject>(merged: T, opts: { subresource?: 'status' }): T {
    // The patch was already counted; skip the update's own count.
    const saved = this.requests;
    this.requests = new Map();
    this.nested = true;
    try {
      return this.update(merged, undefined, opts);
    } finally {
      this.requests = saved;
      this.nested = false;
    }
  }

  private begin(
    verb: string,
    kind: string,
    ctx: RequestContext | undefined,
    sub?: string,
    obj?: { name?: string; namespace?: string }
  ): RequestRecord | undefined {
    if (this.dispatching) {
      throw new Error(`${verb} ${kind} from inside a watch handler: handlers must only enqueue work`);
    }
    if (!isKnownKind(kind))
      throw new ApiError(404, 'NotFound', `the server could not find the requested resource`);
    return this.countOnly(verb, kind, ctx, sub, obj);
  }

  /**
   * Run `fn` (one client's requests) and return the warnings the responses carried: the
   * deprecation warning of each deprecated resource touched, once each, in request order.
   */
  collectWarnings<T>(fn: () => T): { result: T; warnings: string[] } {
    const saved = this.warningSink;
    const sink: string[] = [];
    this.warningSink = sink;
    try {
      return { result: fn(), warnings: sink };
    } finally {
      this.warningSink = saved;
    }
  }

  private countOnly(
    verb: string,
    kind: string,
    ctx: RequestContext | undefined,
    sub?: string,
    obj?: { name?: string; namespace?: string },
    binding = false
  ): RequestRecord | undefined {
    if (ctx) this.reachable(ctx);
    const r = resourceForKind(kind);
    if (this.warningSink && r.deprecationWarning && !this.warningSink.includes(r.deprecationWarning))
      this.warningSink.push(r.deprecationWarning);
    const { resource, key } = requestKey(verb, r.plural, sub);
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    if (!this.nested) this.current = key;
    if (!this.requestLog || !ctx) return undefined;
    if (binding) return this.requestLog.record(this.engine.now, 'in', ctx, 'create', 'pods/binding', obj);
    return this.requestLog.record(this.engine.now, 'in', ctx, verb, resource, obj);
  }

  /** An Event is part of the story of the object it is about ("follow this pod / node"). */
  private logEventAbout(rec: RequestRecord, ev: KubeObject): void {
    const io = ev.involvedObject as { kind?: string; namespace?: string; name?: string } | undefined;
    if ((io?.kind !== 'Pod' && io?.kind !== 'Node') || !io.name) return;
    const ns = io.kind === 'Node' ? undefined : io.namespace;
    this.requestLog?.about(rec, objectLogKey(resourceForKind(io.kind).plural, ns, io.name), {
      reason: String(ev.reason ?? ''),
      message: String(ev.message ?? ''),
      type: String(ev.type ?? 'Normal')
    });
  }

  private requireQuorum(): void {
    if (this.etcd.hasQuorum()) return;
    const err = etcdUnavailable();
    const key = `${this.current} ${err.code}`;
    this.requestErrors.set(key, (this.requestErrors.get(key) ?? 0) + 1);
    throw err;
  }

  private gracePassed(obj: KubeObject): boolean {
    const ts = obj.metadata.deletionTimestamp;
    return !ts || Date.parse(ts as string) <= this.epochMs + this.engine.now;
  }

  timestamp(offsetMs = 0): string {
    // RFC 3339 to the second: every write within one virtual second gets the same text, so it
    // is formatted once per second, not once per write.
    const ms = this.epochMs + this.engine.now + offsetMs;
    const second = Math.floor(ms / 1000);
    if (second !== this.stampSecond) {
      this.stampSecond = second;
      this.stampText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    return this.stampText;
  }

  /** Virtual time (ms) of an RFC 3339 timestamp written by this API server. */
  timeOf(ts: string | undefined): number {
    return ts ? Date.parse(ts) - this.epochMs : 0;
  }

  private commit(
    type: WatchEventType,
    obj: KubeObject,
    old: KubeObject | undefined,
    share = true
  ): KubeObject {
    obj.metadata.resourceVersion = String(++this.rv);
    // What the write did not change stays the stored version's (frozen, shared) object.
    if (old && share) shareUnchanged(obj, old);
    const frozen = deepFreeze(obj);
    const key = this.put(frozen, old);
    if (obj.kind === 'Event') {
      const granted = this.eventLeases.attach(key, this.engine.now);
      if (granted !== undefined) this.engine.scheduleAt(EventLeases.checkAt(granted), LESSOR, CHECK);
    }
    this.notify(type, frozen, old);
    return frozen;
  }

  /**
   * etcd's lessor at a check: the leases that expired are revoked and their Events deleted (watchers
   * see them DELETED). Without quorum nothing is revoked: the lessor looks again every 500 ms.
   */
  private revokeExpiredLeases(retry: boolean): void {
    if (retry) this.eventLeases.retrying = false;
    if (!this.etcd.hasQuorum()) {
      // One tick looks again, however many leases came due meanwhile.
      if (!this.eventLeases.retrying) {
        this.eventLeases.retrying = true;
        this.engine.schedule(LESSOR_CHECK_MS, LESSOR, RETRY);
      }
      return;
    }
    for (const key of this.eventLeases.revokeExpired(this.engine.now)) {
      const stored = this.store.get('Event')?.get(key);
      // The deleted version differs in its resourceVersion only: new metadata, the rest shared.
      if (stored) this.remove({ ...stored, metadata: { ...stored.metadata } });
    }
  }

  private remove(obj: KubeObject): KubeObject {
    const stored = this.get(obj.kind, obj.metadata.namespace, obj.metadata.name);
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    this.store.get(obj.kind)!.delete(key);
    if (obj.kind === 'Event') this.eventLeases.detach(key);
    this.unindexName(stored);
    this.storeOrder.get(obj.kind)?.delete(key);
    if (obj.kind === 'Pod') this.unindexPod(stored);
    this.unindexController(stored);
    obj.metadata.resourceVersion = String(++this.rv);
    const frozen = deepFreeze(obj);
    this.notify('DELETED', frozen, stored);
    return frozen;
  }

  /** Store `obj`; returns its store key (the map's own string). */
  private put(obj: KubeObject, old?: KubeObject): string {
    let m = this.store.get(obj.kind);
    if (!m) this.store.set(obj.kind, (m = new Map()));
    // `old` is the version `obj` replaces: the same key.
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    m.set(key, obj);
    this.indexName(obj);
    let order = this.storeOrder.get(obj.kind);
    if (!order) this.storeOrder.set(obj.kind, (order = new Map()));
    if (!order.has(key)) order.set(key, ++this.storeSeq);
    let byOwner = this.byController.get(obj.kind);
    if (!byOwner) this.byController.set(obj.kind, (byOwner = new Map()));
    // An updated object moves to the end of its index entries (delete, then set).
    if (old) {
      const was = indexedController(old);
      if (was !== undefined) byOwner.get(was)?.delete(key);
    }
    indexOwned(byOwner, key, obj);
    if (obj.kind === 'Pod') {
      const oldNode = old?.spec?.nodeName as string | undefined;
      if (oldNode) this.podsByNode.get(oldNode)?.delete(key);
      const node = obj.spec?.nodeName as string | undefined;
      if (node) {
        let idx = this.podsByNode.get(node);
        if (!idx) this.podsByNode.set(node, (idx = new Map()));
        idx.set(key, obj);
      }
    }
    return key;
  }

  /** `obj` in `byName` (as the store holds it under its key). */
  private indexName(obj: KubeObject): void {
    let byNs = this.byName.get(obj.kind);
    if (!byNs) this.byName.set(obj.kind, (byNs = new Map()));
    const ns = obj.metadata.namespace || '';
    let names = byNs.get(ns);
    if (!names) byNs.set(ns, (names = new Map()));
    names.set(obj.metadata.name, obj);
  }

  private unindexName(obj: KubeObject): void {
    this.byName
      .get(obj.kind)
      ?.get(obj.metadata.namespace || '')
      ?.delete(obj.metadata.name);
  }

  private unindexController(old: KubeObject): void {
    const owner = indexedController(old);
    if (owner === undefined) return;
    const owned = this.byController.get(old.kind)?.get(owner);
    owned?.delete(objectKey(old.metadata.namespace, old.metadata.name));
  }

  private unindexPod(old: KubeObject): void {
    const node = old.spec?.nodeName as string | undefined;
    if (node) this.podsByNode.get(node)?.delete(objectKey(old.metadata.namespace, old.metadata.name));
  }

  private notify(type: WatchEventType, obj: KubeObject, old: KubeObject | undefined): void {
    const w = this.watchers.get(obj.kind);
    if (!w) return;
    let list = w.all;
    if (w.byNode.size) {
      const node = obj.spec?.nodeName as string | undefined;
      const oldNode = old?.spec?.nodeName as string | undefined;
      const a = node !== undefined ? w.byNode.get(node) : undefined;
      const b = oldNode !== undefined && oldNode !== node ? w.byNode.get(oldNode) : undefined;
      if (a) list = mergedWithNode(list, a);
      if (b) list = mergeBySeq(list, b);
    }
    if (!list.length) return;
    const log = this.requestLog;
    if (log) {
      const plural = resourceForKind(obj.kind).plural;
      // One watch event per holder: a process's controllers share one informer, as upstream's do.
      let last: RequestContext | undefined;
      const seen = new Set<RequestContext>();
      for (const e of list) {
        if (!e.by || e.by === last || seen.has(e.by)) continue;
        seen.add((last = e.by));
        log.record(this.engine.now, 'out', e.by, 'watch', plural, obj.metadata);
      }
    }
    this.dispatching++;
    try {
      for (const e of list) e.handler(type, obj, old);
    } finally {
      this.dispatching--;
    }
  }
}

/**
 * shareUnchanged for a new version before it is committed: every top-level part and every
 * metadata field, but never the metadata object itself, which the commit still writes
 * (resourceVersion).
 */
function shareWithStored(obj: KubeObject, old: KubeObject): void {
  const o = obj as Record<string, unknown>;
  for (const k in o) {
    if (k === 'metadata' || !Object.hasOwn(o, k)) continue;
    const c = shareUnchanged(o[k], old[k]);
    if (c !== o[k]) o[k] = c;
  }
  const m = obj.metadata as Record<string, unknown>;
  const om = old.metadata as Record<string, unknown>;
  for (const k in m) {
    if (!Object.hasOwn(m, k)) continue;
    const c = shareUnchanged(m[k], om[k]);
    if (c !== m[k]) m[k] = c;
  }
}

/**
 * Kinds with a spec whose registry strategy does not set metadata.generation: Pods and Nodes, and
 * Leases (pkg/registry/coordination/lease/strategy.go: PrepareForCreate and PrepareForUpdate do
 * nothing), so a kubelet's renewal every 10 s does not count generations.
 */
const NO_GENERATION = new Set(['Pod', 'Node', 'Lease']);

/** Metadata fields a status write takes from the stored version. */
const STATUS_WRITE_KEEPS = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences']);

/**
 * The new version a write starts from: `input`'s parts copied, in `input`'s key order, except the
 * ones the write takes from `old` (filled in from `old` by the caller right after, at the same
 * place): the spec and the metadata `STATUS_WRITE_KEEPS` of a status write, the status of a spec
 * write of a kind with a status subresource. A spec that is the stored one itself (a patch that
 * did not touch it) stays the stored one; any other spec is copied whole (admission may default
 * it in place). Everything else keeps its frozen subtrees (the stored version's, or the writer's
 * own deep-frozen parts) and copies the rest; a status handed over (`statusHandedOver`) is taken
 * as it is.
 */
function copyForWrite(
  input: KubeObject,
  old: KubeObject,
  statusKind: boolean,
  toStatus: boolean,
  statusHandedOver = false
): KubeObject {
  const src = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in src) {
    if (!Object.hasOwn(src, k)) continue;
    const v = src[k];
    if (k === 'metadata' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      // A new metadata object (the commit writes its resourceVersion), whose fields that are the
      // stored version's own frozen ones stay those (the share of the stored version would put
      // them back anyway); the rest is copied.
      const m = v as Record<string, unknown>;
      const om = old.metadata as Record<string, unknown>;
      const meta: Record<string, unknown> = {};
      for (const mk in m) {
        if (!Object.hasOwn(m, mk)) continue;
        const mv = m[mk];
        meta[mk] =
          toStatus && STATUS_WRITE_KEEPS.has(mk)
            ? undefined
            : mv === om[mk] && (mv === null || typeof mv !== 'object' || Object.isFrozen(mv))
              ? mv
              : clone(mv);
      }
      out[k] = meta;
    } else if (k === 'spec') out[k] = toStatus || v === old.spec ? old.spec : clone(v);
    else if (k === 'status' && statusKind)
      out[k] = !toStatus ? old.status : statusHandedOver ? v : copyKeepingStored(v, old.status);
    // The other fields (an Endpoints object's subsets, an EndpointSlice's endpoints, a ConfigMap's
    // data) keep their frozen parts too: a controller that writes back the stored endpoints it
    // keeps, and its own frozen ones, is not copied a thousand addresses at a time.
    else out[k] = copyKeepingStored(v, (old as Record<string, unknown>)[k]);
  }
  return out as KubeObject;
}

/**
 * A copy of `v` that keeps its frozen subtrees (`stored`'s own where `v` holds them at the same
 * place, or frozen parts of the request: frozen data is deep-frozen and never changes).
 */
function copyKeepingStored(v: unknown, stored: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  // Frozen data (the stored version's, or the writer's own frozen parts) never changes: kept.
  if (Object.isFrozen(v)) return v;
  const s = stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : undefined;
  if (Array.isArray(v)) {
    const sa = Array.isArray(s) ? (s as unknown[]) : undefined;
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyKeepingStored(v[i], sa?.[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return clone(v);
  const so = s && !Array.isArray(s) ? s : undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyKeepingStored((v as Record<string, unknown>)[k], so?.[k]);
  return out;
}

/** "<plural>[/<sub>]" and "<verb> <plural>[/<sub>]" of each kind of request, built once. */
const requestKeys = new Map<string, Map<string, { resource: string; key: string }>>();
function requestKey(
  verb: string,
  plural: string,
  sub: string | undefined
): { resource: string; key: string } {
  let byPlural = requestKeys.get(sub ? `${verb} /${sub}` : verb);
  if (!byPlural) requestKeys.set(sub ? `${verb} /${sub}` : verb, (byPlural = new Map()));
  let k = byPlural.get(plural);
  if (!k) {
    const resource = sub ? `${plural}/${sub}` : plural;
    byPlural.set(plural, (k = { resource, key: `${verb} ${resource}` }));
  }
  return k;
}

/**
 * mergeBySeq of the all-pods watchers and one node's, kept per node list while both lists are
 * the same arrays (watch and unwatch replace them): a pod write on a node merges them once, not
 * on every write.
 */
const mergedLists = new WeakMap<Watcher[], { all: Watcher[]; merged: Watcher[] }>();
function mergedWithNode(all: Watcher[], node: Watcher[]): Watcher[] {
  const hit = mergedLists.get(node);
  if (hit?.all === all) return hit.merged;
  const merged = mergeBySeq(all, node);
  mergedLists.set(node, { all, merged });
  return merged;
}

/** Two watcher lists, each in registration order, as one in registration order. */
function mergeBySeq(x: Watcher[], y: Watcher[]): Watcher[] {
  if (!x.length) return y;
  const out: Watcher[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) out.push(x[i].seq < y[j].seq ? x[i++] : y[j++]);
  while (i < x.length) out.push(x[i++]);
  while (j < y.length) out.push(y[j++]);
  return out;
}

/** A merge patch that only sets spec.nodeName: the scheduler's bind. */
function isBinding(patch: Record<string, unknown>): boolean {
  const spec = patch.spec as Record<string, unknown> | undefined;
  return Object.keys(patch).length === 1 && !!spec && Object.keys(spec).length === 1 && 'nodeName' in spec;
}

/** `m` with `keys` first, in that order, then any other entries as they were. */
function reordered<V>(m: Map<string, V>, keys: string[]): Map<string, V> {
  // Usually the objects were put back in the order the index had: nothing to rebuild.
  if (m.size === keys.length) {
    let same = true;
    let i = 0;
    for (const k of m.keys())
      if (k !== keys[i++]) {
        same = false;
        break;
      }
    if (same) return m;
  }
  const out = new Map<string, V>();
  for (const k of keys) {
    const v = m.get(k);
    if (v !== undefined) out.set(k, v);
  }
  for (const [k, v] of m) if (!out.has(k)) out.set(k, v);
  return out;
}

/** The kinds whose objects without a controller are orphans a controller adopts (listed under ''). */
const ADOPTED_KINDS: ReadonlySet<string> = new Set([
  'Pod',
  'ReplicaSet',
  'ControllerRevision',
  'EndpointSlice',
  'Job'
]);

/** Where `o` is in the controller index: its controller's uid, '' for an orphan, undefined when not indexed. */
function indexedController(o: KubeObject): string | undefined {
  const uid = controllerUid(o);
  return uid || ADOPTED_KINDS.has(o.kind) ? uid : undefined;
}

/** `o` under its controller in one kind's controller index (when its kind is indexed there). */
function indexOwned(byOwner: Map<string, Map<string, KubeObject>>, key: string, o: KubeObject): void {
  const owner = indexedController(o);
  if (owner === undefined) return;
  let owned = byOwner.get(owner);
  if (!owned) byOwner.set(owner, (owned = new Map()));
  owned.set(key, o);
}

function controllerUid(o: KubeObject): string {
  const refs = o.metadata.ownerReferences;
  if (refs) for (let i = 0; i < refs.length; i++) if (refs[i].controller) return refs[i].uid ?? '';
  return '';
}

/** RFC 7386 JSON merge patch: objects merge, null deletes, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  // Arrays replace whole; a copy, so the result shares nothing mutable with the caller's patch (a
  // frozen array, like the kubelet's kept image list, cannot change: it is taken as it is).
  if (Array.isArray(patch)) return Object.isFrozen(patch) ? patch : clone(patch);
  if (patch === null || typeof patch !== 'object') return patch;
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  const p = patch as Record<string, unknown>;
  for (const k in p) {
    if (!Object.hasOwn(p, k)) continue;
    const v = p[k];
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export { ConnectionError };
