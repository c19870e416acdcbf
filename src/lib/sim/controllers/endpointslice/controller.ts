/**
 * The EndpointSlice controller (kube-controller-manager `endpointslice`): for every Service with a
 * selector it keeps EndpointSlices listing the matching pods that have an IP, with ready / serving /
 * terminating conditions, at most 100 endpoints per slice (--max-endpoints-per-slice default).
 * Runs as its own component kind `endpointslice-controller`; kube-controller-manager hosts it.
 */
import { ApiError, ConnectionError } from '../../api/errors';
import { matchRequirements, parseLabelSelector, type Requirement } from '../../api/selectors';
import { deepFreeze, type KubeObject, type RequestContext } from '../../api/types';
import { defineComponent, type Cluster, type Component } from '../../cluster';
import type { SimEvent } from '../../engine/engine';
import type { Controller, ControllerHost } from '../controller';

export const MAX_ENDPOINTS_PER_SLICE = 100;
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
const CTX: RequestContext = { component: 'kube-controller-manager' };

interface State {
  queue: string[];
  pending: boolean;
}

interface SlicePort {
  name: string;
  port: number;
  protocol: string;
}

interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  zone?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

function selectorString(sel: Record<string, string>): string {
  return Object.entries(sel)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** A Service's selector as requirements, parsed once per stored Service object. */
const parsedSelectors = new WeakMap<KubeObject, { text: string; reqs: Requirement[] } | null>();

export function serviceSelector(svc: KubeObject): { text: string; reqs: Requirement[] } | null {
  let s = parsedSelectors.get(svc);
  if (s === undefined) {
    const sel = svc.spec?.selector as Record<string, string> | undefined;
    if (!sel || !Object.keys(sel).length) s = null;
    else {
      const text = selectorString(sel);
      s = { text, reqs: parseLabelSelector(text) };
    }
    if (Object.isFrozen(svc)) parsedSelectors.set(svc, s);
  }
  return s;
}

interface Selection {
  namespace: string;
  reqs: Requirement[];
  pods: Map<string, KubeObject>;
  /** The selected pods' names in order, until one is added or removed. */
  names?: string[];
  /** Names of pods changed, added or removed since each follower last cleared its set. */
  followers: Set<Set<string>>;
}

/**
 * The pods each selector selects in a namespace, kept from Pod watch events as the controllers'
 * informer caches are: a sync reads its Service's pods without walking every pod in the namespace.
 * A selection is listed once, the first time a Service with that selector is synced.
 */
export class SelectedPodsIndex {
  private selections = new Map<string, Selection>();
  /** Each follower's selection and set of changed names (see follow). */
  private following = new Map<string, { selection: Selection; changes: Set<string> }>();

  constructor(private cluster: Cluster) {}

  watch(): () => void {
    return this.cluster.api.watch('Pod', (type, pod) => {
      const ns = pod.metadata.namespace;
      const name = pod.metadata.name;
      for (const s of this.selections.values()) {
        if (s.namespace !== ns) continue;
        if (type !== 'DELETED' && matchRequirements(s.reqs, pod.metadata.labels)) {
          if (!s.pods.has(name)) s.names = undefined;
          s.pods.set(name, pod);
        } else if (s.pods.delete(name)) s.names = undefined;
        else continue;
        for (const changes of s.followers) changes.add(name);
      }
    });
  }

  private selection(namespace: string, text: string, reqs: Requirement[]): Selection {
    const key = `${namespace}/${text}`;
    let s = this.selections.get(key);
    if (!s) {
      const pods = new Map<string, KubeObject>();
      for (const p of this.cluster.api.list('Pod', { namespace }))
        if (matchRequirements(reqs, p.metadata.labels)) pods.set(p.metadata.name, p);
      this.selections.set(key, (s = { namespace, reqs, pods, followers: new Set() }));
    }
    return s;
  }

  /** The pods `reqs` (the selector `text`) selects in `namespace`, by name, as the index holds them (read only). */
  pods(namespace: string, text: string, reqs: Requirement[]): ReadonlyMap<string, KubeObject> {
    return this.selection(namespace, text, reqs).pods;
  }

  /**
   * The names of the pods of a selection that change, are added or are removed from now on, for
   * `follower` (a Service's key): an empty set the index fills and the follower clears once it has
   * looked at them. Following another selection stops following the one before.
   */
  follow(follower: string, namespace: string, text: string, reqs: Requirement[]): Set<string> {
    this.unfollow(follower);
    const selection = this.selection(namespace, text, reqs);
    const changes = new Set<string>();
    selection.followers.add(changes);
    this.following.set(follower, { selection, changes });
    return changes;
  }

  unfollow(follower: string): void {
    const f = this.following.get(follower);
    if (!f) return;
    f.selection.followers.delete(f.changes);
    this.following.delete(follower);
  }

  /** The pods `reqs` (the selector `text`) selects in `namespace`, sorted by name. */
  select(namespace: string, text: string, reqs: Requirement[]): KubeObject[] {
    const s = this.selection(namespace, text, reqs);
    const names = (s.names ??= [...s.pods.keys()].sort());
    const out: KubeObject[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) out[i] = s.pods.get(names[i])!;
    return out;
  }
}

/**
 * The pods a Service selects, sorted by name, or undefined when the Service has no selector (its
 * endpoints are then written by someone else). Shared by the Endpoints and EndpointSlice
 * controllers; with `index`, read from it instead of listing the namespace's pods.
 */
export function selectedPods(
  cluster: Cluster,
  svc: KubeObject,
  index?: SelectedPodsIndex
): KubeObject[] | undefined {
  const sel = serviceSelector(svc);
  if (!sel) return undefined;
  if (index) return index.select(svc.metadata.namespace ?? 'default', sel.text, sel.reqs);
  return cluster.api
    .list('Pod', { namespace: svc.metadata.namespace })
    .filter((p) => matchRequirements(sel.reqs, p.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}

/** The Services in the pod's namespace whose selector matches the pod now or matched it before. */
export function servicesOfPod(cluster: Cluster, pod: KubeObject, old?: KubeObject): string[] {
  const keys: string[] = [];
  for (const svc of cluster.api.list('Service', { namespace: pod.metadata.namespace })) {
    const sel = serviceSelector(svc);
    if (!sel) continue;
    if (
      matchRequirements(sel.reqs, pod.metadata.labels) ||
      (old && matchRequirements(sel.reqs, old.metadata.labels))
    )
      keys.push(`${svc.metadata.namespace}/${svc.metadata.name}`);
  }
  return keys;
}

/** The pod's IPs (status.podIPs, or status.podIP alone). */
function podIPs(pod: KubeObject): string[] {
  const ips = pod.status?.podIPs as { ip: string }[] | undefined;
  if (ips) return ips.map((x) => x.ip);
  const ip = pod.status?.podIP as string | undefined;
  return ip ? [ip] : [];
}

/** Two string maps (labels) with the same keys and values, in any order. */
export function sameStrings(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined
): boolean {
  const x = Object.keys(a ?? {});
  if (x.length !== Object.keys(b ?? {}).length) return false;
  for (const k of x) if (!b || !Object.hasOwn(b, k) || a![k] !== b[k]) return false;
  return true;
}

/**
 * endpointslice/util podEndpointsChanged: whether a pod update may change its endpoint (deletion
 * timestamp, readiness, IPs) and whether it may change which Services select it (labels, hostname,
 * subdomain). NodeName is set before the pod has an IP, and name, namespace and UID never change.
 */
export function podEndpointsChanged(
  old: KubeObject,
  cur: KubeObject
): { podChanged: boolean; labelsChanged: boolean } {
  const labelsChanged =
    !sameStrings(old.metadata.labels, cur.metadata.labels) ||
    old.spec?.hostname !== cur.spec?.hostname ||
    old.spec?.subdomain !== cur.spec?.subdomain;
  // Upstream compares the two *metav1.Time pointers, which differ whenever either is set.
  if (old.metadata.deletionTimestamp !== undefined || cur.metadata.deletionTimestamp !== undefined)
    return { podChanged: true, labelsChanged };
  if (podReady(old) !== podReady(cur)) return { podChanged: true, labelsChanged };
  const a = podIPs(old);
  const b = podIPs(cur);
  const podChanged = a.length !== b.length || a.some((ip, i) => ip !== b[i]);
  return { podChanged, labelsChanged };
}

/**
 * The Services a pod watch event concerns, as the Endpoints and EndpointSlice controllers' pod
 * handlers find them (staging/src/k8s.io/endpointslice/util/controller_utils.go
 * GetServicesToUpdateOnPodChange): an added or deleted pod concerns the Services selecting it; an
 * update only when podEndpointsChanged says so, and then the Services selecting the pod now or
 * before (with only its labels changed, those that selected it before or now but not both).
 */
export function servicesToUpdateOnPodChange(cluster: Cluster, pod: KubeObject, old?: KubeObject): string[] {
  if (!old) return servicesOfPod(cluster, pod);
  if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
  const { podChanged, labelsChanged } = podEndpointsChanged(old, pod);
  if (!podChanged && !labelsChanged) return [];
  const keys: string[] = [];
  for (const svc of cluster.api.list('Service', { namespace: pod.metadata.namespace })) {
    const sel = serviceSelector(svc);
    if (!sel) continue;
    const now = matchRequirements(sel.reqs, pod.metadata.labels);
    const before = labelsChanged ? matchRequirements(sel.reqs, old.metadata.labels) : now;
    if (podChanged ? now || before : now !== before)
      keys.push(`${svc.metadata.namespace}/${svc.metadata.name}`);
  }
  return keys;
}

function podReady(pod: KubeObject): boolean {
  return ((pod.status?.conditions ?? []) as { type: string; status: string }[]).some(
    (c) => c.type === 'Ready' && c.status === 'True'
  );
}

/** targetPort as a number, or the named container port of this pod (undefined if it has none). */
export function resolveTargetPort(
  pod: KubeObject,
  target: number | string | undefined,
  port: number
): number | undefined {
  if (target === undefined) return port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return parseInt(target, 10);
  for (const c of (pod.spec?.containers ?? []) as { ports?: { name?: string; containerPort: number }[] }[])
    for (const p of c.ports ?? []) if (p.name === target) return p.containerPort;
  return undefined;
}

/**
 * One pod's endpoint for a Service: its resolved ports (and their key), the endpoint, its key in
 * the reconciler's endpoint set, and the endpoint as JSON.
 */
interface PodEndpoint {
  ports: SlicePort[];
  portsKey: string;
  ep: SliceEndpoint;
  /** endpointsliceutil hashEndpoint's fields: sorted addresses, hostname, target namespace/name. */
  key: string;
  json: string;
  zone: string | undefined;
  /** The reconcile that found it in an existing slice (reconcileByPortMapping's desiredSet.Delete). */
  placed?: number;
  /** The slice the last reconcile put it in (DesiredEndpointsCache marks that slice when it changes). */
  slice?: string;
}

/**
 * Endpoints already built, by the Service spec (ports, publishNotReadyAddresses) and the stored pod
 * they were built from; both are frozen, so an entry holds while they are the same objects and the
 * pod's node is in the same zone.
 */
const builtEndpoints = new WeakMap<object, WeakMap<KubeObject, PodEndpoint | null>>();

function podEndpoint(cluster: Cluster, svc: KubeObject, pod: KubeObject): PodEndpoint | null {
  const nodeName = pod.spec?.nodeName as string | undefined;
  const zone = nodeName
    ? cluster.api.tryGet('Node', undefined, nodeName)?.metadata.labels?.['topology.kubernetes.io/zone']
    : undefined;
  const spec = svc.spec as object | undefined;
  const cacheable = !!spec && Object.isFrozen(spec) && Object.isFrozen(pod);
  let byPod = cacheable ? builtEndpoints.get(spec!) : undefined;
  if (cacheable && !byPod) builtEndpoints.set(spec!, (byPod = new WeakMap()));
  const hit = byPod?.get(pod);
  if (hit !== undefined && (hit === null || hit.zone === zone)) return hit;
  const built = buildPodEndpoint(svc, pod, nodeName, zone);
  byPod?.set(pod, built);
  return built;
}

/** hashEndpoint (staging/src/k8s.io/endpointslice/util/endpointset.go): what makes two endpoints the same one. */
function endpointKey(ep: SliceEndpoint): string {
  const addresses = ep.addresses.length > 1 ? [...ep.addresses].sort() : ep.addresses;
  const ref = ep.targetRef ? `${ep.targetRef.namespace}/${ep.targetRef.name}` : '';
  return `${addresses.join(',')}|${(ep as { hostname?: string }).hostname ?? ''}|${ref}`;
}

function buildPodEndpoint(
  svc: KubeObject,
  pod: KubeObject,
  nodeName: string | undefined,
  zone: string | undefined
): PodEndpoint | null {
  const ip = pod.status?.podIP as string | undefined;
  const phase = pod.status?.phase;
  if (!ip || phase === 'Succeeded' || phase === 'Failed') return null;
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  const ports: SlicePort[] = [];
  for (const p of (svc.spec?.ports ?? []) as {
    name?: string;
    port: number;
    targetPort?: number | string;
    protocol?: string;
  }[]) {
    const resolved = resolveTargetPort(pod, p.targetPort, p.port);
    if (resolved !== undefined)
      ports.push({ name: p.name ?? '', port: resolved, protocol: p.protocol ?? 'TCP' });
  }
  const terminating = !!pod.metadata.deletionTimestamp;
  const serving = publishNotReady || podReady(pod);
  const ep: SliceEndpoint = {
    addresses: [ip],
    conditions: { ready: serving && !terminating, serving, terminating },
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name,
      uid: pod.metadata.uid!
    }
  };
  if (nodeName) {
    ep.nodeName = nodeName;
    if (zone) ep.zone = zone;
  }
  // Frozen: the slices that list it share it with the stored versions instead of copying it.
  deepFreeze(ep);
  deepFreeze(ports);
  return { ports, portsKey: JSON.stringify(ports), ep, key: endpointKey(ep), json: JSON.stringify(ep), zone };
}

/** A Service's desired endpoints for one resolved port set, by endpoint key. */
interface EndpointGroup {
  ports: SlicePort[];
  set: Map<string, PodEndpoint>;
}

/** The desired endpoints of a Service by resolved port set (pods with different named ports get separate slices). */
export function desiredEndpoints(
  cluster: Cluster,
  svc: KubeObject,
  index?: SelectedPodsIndex
): Map<string, EndpointGroup> {
  const groups = new Map<string, EndpointGroup>();
  const pods = selectedPods(cluster, svc, index);
  if (!pods) return groups;
  for (const pod of pods) {
    const e = podEndpoint(cluster, svc, pod);
    if (e) addEndpoint(groups, e);
  }
  return groups;
}

function addEndpoint(groups: Map<string, EndpointGroup>, e: PodEndpoint): void {
  let g = groups.get(e.portsKey);
  if (!g) groups.set(e.portsKey, (g = { ports: e.ports, set: new Map() }));
  g.set.set(e.key, e);
}

function removeEndpoint(groups: Map<string, EndpointGroup>, e: PodEndpoint): void {
  const g = groups.get(e.portsKey);
  if (g?.set.get(e.key) !== e) return;
  g.set.delete(e.key);
  if (!g.set.size) groups.delete(e.portsKey);
}

/** One Service's desired endpoints as the last sync left them, with the stored pods they came from. */
interface DesiredMemo {
  svc: KubeObject;
  zones: number;
  pods: Map<string, { pod: KubeObject; pe: PodEndpoint | null }>;
  groups: Map<string, EndpointGroup>;
  /** The pods changed since (the index's follow set). */
  changes: Set<string>;
  /** The Service's slices as the last reconcile left them. */
  sliceMemo: SliceMemo;
}

/**
 * The desired endpoints of each Service, kept between syncs: a sync rebuilds the endpoints of the
 * pods whose stored object changed since the last one (a new version of a pod, a pod added or gone)
 * instead of every selected pod's. The result is the same as building them all (the reconciler
 * places new endpoints in pod-name order either way); a new Service object, or a Node whose zone
 * may have changed (an endpoint carries its node's zone), starts over.
 */
export class DesiredEndpointsCache {
  private memos = new Map<string, DesiredMemo>();
  private zones = 0;

  constructor(
    private cluster: Cluster,
    private index: SelectedPodsIndex
  ) {}

  watch(): () => void {
    const zone = (n: KubeObject | undefined) => n?.metadata.labels?.['topology.kubernetes.io/zone'];
    return this.cluster.api.watch('Node', (t, o, old) => {
      if (t !== 'MODIFIED' || (o.metadata.labels !== old?.metadata.labels && zone(o) !== zone(old)))
        this.zones++;
    });
  }

  desired(key: string, svc: KubeObject): Map<string, EndpointGroup> {
    const sel = serviceSelector(svc);
    if (!sel) return new Map();
    const ns = svc.metadata.namespace ?? 'default';
    const pods = this.index.pods(ns, sel.text, sel.reqs);
    let m = this.memos.get(key);
    let names: Iterable<string>;
    if (!m || m.svc !== svc || m.zones !== this.zones) {
      const changes = this.index.follow(key, ns, sel.text, sel.reqs);
      m = {
        svc,
        zones: this.zones,
        pods: new Map(),
        groups: new Map(),
        changes,
        sliceMemo: { slices: new Map(), dirty: new Set() }
      };
      this.memos.set(key, m);
      names = pods.keys();
    } else names = m.changes;
    for (const name of names) {
      const pod = pods.get(name);
      const prev = m.pods.get(name);
      if (prev?.pod === pod) continue;
      if (prev?.pe) {
        removeEndpoint(m.groups, prev.pe);
        // The slice that holds it is to be looked at again.
        if (prev.pe.slice !== undefined) m.sliceMemo.dirty.add(prev.pe.slice);
      }
      if (!pod) {
        m.pods.delete(name);
        continue;
      }
      const pe = podEndpoint(this.cluster, svc, pod);
      if (pe) addEndpoint(m.groups, pe);
      m.pods.set(name, { pod, pe });
    }
    m.changes.clear();
    return m.groups;
  }

  /** The Service's slices as its last reconcile left them (after `desired`, for the same Service). */
  slices(key: string): SliceMemo | undefined {
    return this.memos.get(key)?.sliceMemo;
  }

  forget(key: string): void {
    this.memos.delete(key);
    this.index.unfollow(key);
  }
}

/** The endpoint keys of a stored slice's endpoints, once per stored (frozen) array. */
const storedSliceKeys = new WeakMap<object, string[]>();

function storedKeys(eps: SliceEndpoint[]): string[] {
  let keys = Object.isFrozen(eps) ? storedSliceKeys.get(eps) : undefined;
  if (!keys) {
    keys = eps.map((ep) => storedEndpoint(ep).key);
    if (Object.isFrozen(eps)) storedSliceKeys.set(eps, keys);
  }
  return keys;
}

/** A stored endpoint's key and JSON, once per stored (frozen) endpoint. */
const storedEndpoints = new WeakMap<object, { key: string; json: string }>();

function storedEndpoint(ep: SliceEndpoint): { key: string; json: string } {
  let s = Object.isFrozen(ep) ? storedEndpoints.get(ep) : undefined;
  if (!s) {
    s = { key: endpointKey(ep), json: JSON.stringify(ep) };
    if (Object.isFrozen(ep)) storedEndpoints.set(ep, s);
  }
  return s;
}

/**
 * The Service keys an object change concerns (informer event handlers of the real controller).
 * `own` says whether a slice event comes from this controller's own write: upstream's
 * endpointSliceTracker (staging/src/k8s.io/endpointslice/util/endpointslice_tracker.go, used by
 * pkg/controller/endpointslice/endpointslice_controller.go onEndpointSliceAdd / Update / Delete)
 * remembers the generation of every slice the controller wrote or deleted, and ShouldSync queues
 * the Service again only for a slice someone else changed.
 */
function watchKeys(
  cluster: Cluster,
  enqueue: (key: string) => void,
  own: (key: string) => boolean = () => false
): (() => void)[] {
  const api = cluster.api;
  return [
    api.watch('Service', (_t, o) => enqueue(`${o.metadata.namespace}/${o.metadata.name}`)),
    api.watch('Pod', (t, o, old) => {
      const keys =
        t === 'MODIFIED' && old
          ? servicesToUpdateOnPodChange(cluster, o, old)
          : servicesOfPod(cluster, o, old);
      for (const k of keys) enqueue(k);
    }),
    api.watch('EndpointSlice', (_t, o) => {
      const svc = o.metadata.labels?.['kubernetes.io/service-name'];
      if (svc && o.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === MANAGED_BY) {
        const key = `${o.metadata.namespace}/${svc}`;
        if (!own(key)) enqueue(key);
      }
    })
  ];
}

/** A slice the reconciler works on: the stored one, or a copy with new endpoints or labels. */
interface WorkSlice {
  stored?: KubeObject;
  labels: Record<string, string>;
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
  /** The desired endpoint each of `endpoints` stands for, in the same order. */
  pes: PodEndpoint[];
}

/** What a reconcile decided: slices to create, update, delete, and the ones left as they are. */
interface Reconciled {
  create: WorkSlice[];
  update: WorkSlice[];
  delete: KubeObject[];
  unchanged: WorkSlice[];
}

/**
 * The slices a Service's last reconcile left, each with the desired endpoints it holds, and the
 * slices holding an endpoint that changed or went since (see DesiredEndpointsCache).
 */
interface SliceMemo {
  slices: Map<string, { stored: KubeObject; pes: PodEndpoint[] }>;
  dirty: Set<string>;
}

/** The Service's slice labels (setEndpointSliceLabels): managed-by, service-name, headless. */
function sliceLabels(svc: KubeObject): Record<string, string> {
  return {
    'endpointslice.kubernetes.io/managed-by': MANAGED_BY,
    'kubernetes.io/service-name': svc.metadata.name,
    ...(svc.spec?.clusterIP === 'None' ? { 'service.kubernetes.io/headless': '' } : {})
  };
}

/** Reconciles so far: each marks the desired endpoints it found in existing slices with its number. */
let reconciles = 0;

/**
 * reconcileByPortMapping (staging/src/k8s.io/endpointslice/reconciler.go) for one port set:
 * 1. each existing slice keeps the endpoints still desired, in place (an endpoint whose conditions,
 *    node or zone changed is replaced where it is); a slice that lost or changed one is updated, one
 *    left empty is deleted;
 * 2. endpoints still to place fill the slices being updated, fullest first;
 * 3. what is left goes into the unchanged slice it fills closest to full (getSliceToFill) when
 *    fewer than a slice's worth remain, else into new slices.
 * The set's "any" endpoint is the first in pod-name order, so the result is the same every run.
 */
function reconcileByPortMapping(
  svc: KubeObject,
  existing: KubeObject[],
  desired: EndpointGroup,
  out: Reconciled,
  memo?: SliceMemo
): void {
  const labels = sliceLabels(svc);
  const toUpdate: WorkSlice[] = [];
  const unchanged: WorkSlice[] = [];
  const set = desired.set;
  const stamp = ++reconciles;
  for (const slice of existing) {
    const eps = (slice.endpoints ?? []) as SliceEndpoint[];
    // A slice as this controller's last reconcile left it, none of whose endpoints changed since:
    // each of its endpoints is still desired as it is, so it is unchanged (what the walk below
    // would find, without looking each one up).
    const rec = memo?.slices.get(slice.metadata.name);
    if (
      rec &&
      rec.stored === slice &&
      !memo!.dirty.has(slice.metadata.name) &&
      sameStrings(slice.metadata.labels, labels)
    ) {
      for (const pe of rec.pes) pe.placed = stamp;
      unchanged.push({ stored: slice, labels, ports: desired.ports, endpoints: eps, pes: rec.pes });
      continue;
    }
    const kept: SliceEndpoint[] = [];
    const keptPes: PodEndpoint[] = [];
    let updated = false;
    const keys = storedKeys(eps);
    for (let i = 0; i < eps.length; i++) {
      const ep = eps[i];
      const got = set.get(keys[i]);
      if (!got || got.placed === stamp) continue;
      // EndpointsEqualBeyondHash: the stored endpoint stays as it is when nothing else changed
      // (most often it is the desired endpoint itself, which the slice's last write stored).
      if (got.ep === ep || got.json === storedEndpoint(ep).json) kept.push(ep);
      else {
        kept.push(got.ep);
        updated = true;
      }
      keptPes.push(got);
      got.placed = stamp;
    }
    const labelsChanged = !sameStrings(slice.metadata.labels, labels);
    const work: WorkSlice = { stored: slice, labels, ports: desired.ports, endpoints: kept, pes: keptPes };
    if (updated || kept.length !== eps.length) {
      if (kept.length === 0) out.delete.push(slice);
      else toUpdate.push(work);
    } else if (labelsChanged) {
      toUpdate.push({ ...work, endpoints: [...eps] });
    } else unchanged.push({ ...work, endpoints: eps });
  }
  // The endpoints no slice holds yet, in pod-name order.
  const rest: PodEndpoint[] = [];
  for (const e of set.values()) if (e.placed !== stamp) rest.push(e);
  if (rest.length > 1)
    rest.sort((a, b) =>
      a.ep.targetRef.name < b.ep.targetRef.name ? -1 : a.ep.targetRef.name > b.ep.targetRef.name ? 1 : 0
    );
  let next = 0;
  // 2. Fill the slices being updated, fullest first.
  if (rest.length && toUpdate.length) {
    const fullestFirst = [...toUpdate].sort((a, b) => b.endpoints.length - a.endpoints.length);
    for (const w of fullestFirst)
      while (next < rest.length && w.endpoints.length < MAX_ENDPOINTS_PER_SLICE) {
        w.pes.push(rest[next]);
        w.endpoints.push(rest[next++].ep);
      }
  }
  // 3. The rest: into the unchanged slice it fills closest to full, or new slices.
  while (next < rest.length) {
    const left = rest.length - next;
    let fill: WorkSlice | undefined;
    if (left < MAX_ENDPOINTS_PER_SLICE && unchanged.length) {
      let closest = MAX_ENDPOINTS_PER_SLICE;
      for (const w of unchanged) {
        const diff = MAX_ENDPOINTS_PER_SLICE - (left + w.endpoints.length);
        if (diff >= 0 && diff < closest) {
          closest = diff;
          fill = w;
          if (diff === 0) break;
        }
      }
    }
    if (fill) {
      unchanged.splice(unchanged.indexOf(fill), 1);
      fill.endpoints = [...fill.endpoints];
      fill.pes = [...fill.pes];
      toUpdate.push(fill);
    } else {
      fill = { labels, ports: desired.ports, endpoints: [], pes: [] };
      out.create.push(fill);
    }
    while (next < rest.length && fill.endpoints.length < MAX_ENDPOINTS_PER_SLICE) {
      fill.pes.push(rest[next]);
      fill.endpoints.push(rest[next++].ep);
    }
  }
  out.update.push(...toUpdate);
  out.unchanged.push(...unchanged);
}

/**
 * Reconcile the EndpointSlices of one Service ("namespace/name"), as the reconciler's
 * reconcileByAddressType and finalize do (IPv4 only). Throws API errors for the caller to retry.
 */
export function syncEndpointSlices(
  cluster: Cluster,
  key: string,
  ctx: RequestContext = CTX,
  index?: SelectedPodsIndex,
  cache?: DesiredEndpointsCache
): void {
  const [ns, name] = key.split('/');
  const api = cluster.api;
  const svc = api.tryGet('Service', ns, name);
  // The Service's own slices come from the owner index (a label selector over every slice would
  // cost O(Services) per sync); without the Service, every slice labelled with its name.
  const existing = (
    svc
      ? api
          .listByController('EndpointSlice', svc.metadata.uid!, ns, { order: 'list' })
          .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name)
      : api.list('EndpointSlice', { namespace: ns, labelSelector: `kubernetes.io/service-name=${name}` })
  )
    .filter((s) => s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === MANAGED_BY)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  if (!svc || !svc.spec?.selector || svc.spec?.type === 'ExternalName') {
    // Slices are garbage-collected through their ownerReference; delete directly when the Service is gone.
    cache?.forget(key);
    for (const s of existing) api.delete('EndpointSlice', ns, s.metadata.name, {}, ctx);
    return;
  }
  const existingByPorts = new Map<string, KubeObject[]>();
  for (const s of existing) {
    const k = JSON.stringify(s.ports ?? []);
    const list = existingByPorts.get(k);
    if (list) list.push(s);
    else existingByPorts.set(k, [s]);
  }
  const out: Reconciled = { create: [], update: [], delete: [], unchanged: [] };
  const groups = cache ? cache.desired(key, svc) : desiredEndpoints(cluster, svc, index);
  const memo = cache?.slices(key);
  for (const [k, g] of groups) reconcileByPortMapping(svc, existingByPorts.get(k) ?? [], g, out, memo);
  // Port sets no longer desired: their slices go.
  for (const [k, slices] of existingByPorts) if (!groups.has(k)) out.delete.push(...slices);
  // When no slice would be left, a placeholder without endpoints or ports stands for the Service
  // (kept as it is when it is the one slice about to be deleted).
  if (existing.length === out.delete.length && out.create.length < 1) {
    const only = out.delete.length === 1 ? out.delete[0] : undefined;
    const isPlaceholder =
      only &&
      !((only.endpoints as unknown[] | undefined) ?? []).length &&
      !((only.ports as unknown[] | undefined) ?? []).length &&
      sameStrings(only.metadata.labels, sliceLabels(svc));
    if (isPlaceholder) out.delete.length = 0;
    else out.create.push({ labels: sliceLabels(svc), ports: [], endpoints: [], pes: [] });
  }
  if (!memo) {
    finalize(cluster, svc, out, ctx);
    return;
  }
  try {
    finalize(cluster, svc, out, ctx, memo);
  } catch (e) {
    // A write failed half way: what the memo holds is not known any more.
    cache!.forget(key);
    throw e;
  }
}

/**
 * finalize (reconciler.go): a slice to create takes the place of one about to be deleted (an
 * update instead of a create and a delete); then the creates (none while the Service is being
 * deleted), the updates and the deletes.
 */
function finalize(
  cluster: Cluster,
  svc: KubeObject,
  out: Reconciled,
  ctx: RequestContext,
  memo?: SliceMemo
): void {
  const api = cluster.api;
  const ns = svc.metadata.namespace!;
  const name = svc.metadata.name;
  for (let i = 0; i < out.delete.length && out.create.length;) {
    const gone = out.delete[i];
    if (gone.addressType === 'IPv4') {
      out.update.push({ ...out.create.pop()!, stored: gone });
      out.delete.splice(i, 1);
    } else i++;
  }
  const body = (w: WorkSlice): KubeObject => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: '',
      generateName: `${name}-`,
      namespace: ns,
      labels: w.labels,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name,
          uid: svc.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true
        }
      ]
    },
    addressType: 'IPv4',
    endpoints: w.endpoints,
    ports: w.ports
  });
  // The memo: every slice as it is stored now, with the endpoints it holds. A slice left with the
  // list of endpoints it was recorded with (unchanged since the last reconcile) has them marked.
  const recorded = new Set<string>();
  const record = (stored: KubeObject, pes: PodEndpoint[]) => {
    if (!memo) return;
    const sliceName = stored.metadata.name;
    recorded.add(sliceName);
    const rec = memo.slices.get(sliceName);
    if (rec?.pes === pes && rec.stored === stored) return;
    memo.slices.set(sliceName, { stored, pes });
    if (rec?.pes !== pes) for (const pe of pes) pe.slice = sliceName;
  };
  if (memo) memo.dirty.clear();
  try {
    for (const w of out.unchanged) record(w.stored!, w.pes);
    if (!svc.metadata.deletionTimestamp) for (const w of out.create) record(api.create(body(w), ctx), w.pes);
    // An update's endpoint list is frozen (its endpoints are already): the write stores it as it
    // is instead of copying it and comparing it with the stored slice's, endpoint by endpoint.
    for (const w of out.update)
      record(
        api.update(
          {
            ...w.stored!,
            metadata: { ...w.stored!.metadata, labels: w.labels },
            endpoints: deepFreeze(w.endpoints),
            ports: w.ports
          },
          ctx
        ),
        w.pes
      );
    for (const s of out.delete) api.delete('EndpointSlice', ns, s.metadata.name, {}, ctx);
  } finally {
    // The slices not recorded (deleted, or not reached when a write failed) are walked next time.
    if (memo)
      for (const sliceName of memo.slices.keys()) if (!recorded.has(sliceName)) memo.slices.delete(sliceName);
  }
}

/**
 * The controller as kube-controller-manager hosts it (controllers/controller.ts contract):
 * `new EndpointSliceKcmController(this.host('endpointslice-controller'))` in the manager's list.
 */
export class EndpointSliceKcmController implements Controller {
  readonly name = 'endpointslice-controller';
  private pods: SelectedPodsIndex;
  private desired: DesiredEndpointsCache;
  constructor(private host: ControllerHost) {
    this.pods = new SelectedPodsIndex(host.cluster);
    this.desired = new DesiredEndpointsCache(host.cluster, this.pods);
  }
  /** The Service being synced: the slice events its writes cause are this controller's own. */
  private syncing: string | undefined;
  watch(): (() => void)[] {
    this.pods = new SelectedPodsIndex(this.host.cluster);
    this.desired = new DesiredEndpointsCache(this.host.cluster, this.pods);
    return [
      this.pods.watch(),
      this.desired.watch(),
      ...watchKeys(
        this.host.cluster,
        (k) => this.host.enqueue(k),
        (k) => k === this.syncing
      )
    ];
  }
  sync(key: string): void {
    this.syncing = key;
    try {
      syncEndpointSlices(this.host.cluster, key, this.host.ctx, this.pods, this.desired);
    } finally {
      this.syncing = undefined;
    }
  }
  resyncKeys(): string[] {
    return this.host.cluster.api.list('Service').map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
  }
}

/** The same controller as a standalone component (`endpointslice-controller`), until the manager hosts it. */
export class EndpointSliceController implements Component {
  readonly kind = 'endpointslice-controller';
  readonly id = 'endpointslice-controller';
  state: State = { queue: [], pending: false };
  private unwatch: (() => void)[];

  constructor(
    private cluster: Cluster,
    readonly args: Record<string, never> = {}
  ) {
    this.unwatch = watchKeys(cluster, (k) => this.enqueue(k));
  }

  private enqueue(key: string): void {
    if (!this.state.queue.includes(key)) this.state.queue.push(key);
    if (!this.state.pending) {
      this.state.pending = true;
      this.cluster.engine.schedule(0, this.id, 'sync');
    }
  }

  start(): void {
    for (const s of this.cluster.api.list('Service'))
      this.enqueue(`${s.metadata.namespace}/${s.metadata.name}`);
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'sync') return;
    this.state.pending = false;
    const keys = this.state.queue;
    this.state.queue = [];
    for (const key of keys) {
      try {
        syncEndpointSlices(this.cluster, key);
      } catch (e) {
        if (!(e instanceof ConnectionError || e instanceof ApiError)) throw e;
        if (!this.state.queue.includes(key)) this.state.queue.push(key);
        if (!this.state.pending) {
          this.state.pending = true;
          this.cluster.engine.schedule(1000, this.id, 'sync');
        }
      }
    }
  }

  getState(): State {
    return this.state;
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as State;
  }

  dispose(): void {
    for (const u of this.unwatch) u();
  }
}

export const endpointSliceControllerComponent = defineComponent(
  'endpointslice-controller',
  (cluster, args) => new EndpointSliceController(cluster, args)
);
