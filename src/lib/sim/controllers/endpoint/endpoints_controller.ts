/**
 * The Endpoints controller (kube-controller-manager `endpoints-controller`,
 * pkg/controller/endpoint/endpoints_controller.go): for every Service with a selector it keeps one
 * legacy v1 `Endpoints` object of the same name. Ready pods go to `addresses`, pods that are not
 * ready to `notReadyAddresses` (all to `addresses` with `publishNotReadyAddresses`); terminating
 * pods are left out unless the Service publishes not-ready addresses. Subsets are repacked so pods
 * offering the same ports share one subset (pkg/api/v1/endpoints/util.go RepackSubsets), at most
 * 1000 addresses are kept (`endpoints.kubernetes.io/over-capacity: truncated`), and the
 * `endpoints.kubernetes.io/last-change-trigger-time` annotation carries the time of the change
 * that caused the write (endpointslice/util/trigger_time_tracker.go).
 *
 * Services without a selector and ExternalName Services are skipped: their Endpoints are written by
 * whoever owns them (the API server for `default/kubernetes`). The Endpoints object has no owner
 * reference; the controller deletes it when its Service is gone.
 */
import { deepFreeze, type KubeObject } from '../../api/types';
import { isApiError } from '../../api/errors';
import type { Controller, ControllerHost } from '../controller';
import { jsonEqual } from '../util/jsonequal';
import { newTokenBucket, takeToken, type TokenBucketState } from '../util/ratelimit';
import {
  SelectedPodsIndex,
  resolveTargetPort,
  sameStrings,
  serviceSelector,
  servicesOfPod,
  servicesToUpdateOnPodChange
} from '../endpointslice/controller';

export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
export const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** maxCapacity: addresses kept in one Endpoints object. */
export const ENDPOINTS_MAX_CAPACITY = 1000;
/** The leader-election record annotation: such Endpoints have no Service and are left alone. */
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

/** The trigger time tracker's memory per Service: its creation time and each pod's Ready transition. */
interface TriggerState {
  service: string;
  pods: Record<string, string>;
}

interface State {
  triggers: Record<string, TriggerState>;
  /** The controller's own client (--kube-api-qps 20, --kube-api-burst 30): one token per request. */
  client?: TokenBucketState;
  /**
   * Services whose sync waits for a client token, with the virtual ms when it comes: the worker
   * holding the key is blocked in the client, so changes meanwhile only mark the key dirty and it
   * is synced once when the token comes (client-go's workqueue: a key being processed is not
   * handed out again; Done queues it again if it was added meanwhile).
   */
  blocked?: Record<string, number>;
}

function readyCondition(pod: KubeObject): { status: string; lastTransitionTime?: string } | undefined {
  const conds = pod.status?.conditions as { type: string; status: string; lastTransitionTime?: string }[];
  if (conds) for (let i = 0; i < conds.length; i++) if (conds[i].type === 'Ready') return conds[i];
  return undefined;
}

/** endpointslice/util ShouldPodBeInEndpoints: not terminal, has an IP, not terminating unless included. */
function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** A Service with no cluster IP (`None` or empty) is headless (helper.IsServiceIPSet). */
function isHeadless(svc: KubeObject): boolean {
  const ip = svc.spec?.clusterIP as string | undefined;
  return !ip || ip === 'None';
}

/** An address's key; LessEndpointAddress orders addresses by it (by IP, then by the target's UID). */
function addressKey(a: EndpointAddress): string {
  return `${a.ip}/${a.targetRef.uid}`;
}

function portKey(p: EndpointPort): string {
  return `${p.name ?? ''}/${p.port}/${p.protocol}/${p.appProtocol ?? ''}`;
}

/**
 * RepackSubsets: map each port to the addresses offering it, then group ports by identical address
 * sets, so each subset lists addresses × ports once. Upstream orders ports and subsets by a hash of
 * their contents; here they are ordered by name/port and by first address, which is as stable.
 */
export function repackSubsets(
  entries: { address: EndpointAddress; ready: boolean; port?: EndpointPort; akey?: string; pkey?: string }[]
): EndpointSubset[] {
  const one = repackOnePortSet(entries);
  if (one) return one;
  const byPort = new Map<
    string,
    { port?: EndpointPort; addrs: Map<string, { a: EndpointAddress; ready: boolean }> }
  >();
  for (const e of entries) {
    const k = e.pkey ?? (e.port ? portKey(e.port) : '');
    let g = byPort.get(k);
    if (!g) byPort.set(k, (g = { port: e.port, addrs: new Map() }));
    g.addrs.set(e.akey ?? addressKey(e.address), { a: e.address, ready: e.ready });
  }
  const bySet = new Map<string, { addrs: { a: EndpointAddress; ready: boolean }[]; ports: EndpointPort[] }>();
  for (const { port, addrs } of byPort.values()) {
    // byAddress's order, each address's key built once.
    const keyed = [...addrs].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    const list = keyed.map((x) => x[1]);
    // With one port group there is one address set: no key to build.
    const k = byPort.size === 1 ? '' : keyed.map(([key, x]) => `${key}:${x.ready}`).join(',');
    if (!bySet.has(k)) bySet.set(k, { addrs: list, ports: [] });
    if (port) bySet.get(k)!.ports.push(port);
  }
  const subsets: EndpointSubset[] = [];
  for (const { addrs, ports } of bySet.values()) {
    const s: EndpointSubset = {};
    const ready = addrs.filter((x) => x.ready).map((x) => x.a);
    const notReady = addrs.filter((x) => !x.ready).map((x) => x.a);
    if (ready.length) s.addresses = ready;
    if (notReady.length) s.notReadyAddresses = notReady;
    if (ports.length) s.ports = [...ports].sort((a, b) => (portKey(a) < portKey(b) ? -1 : 1));
    subsets.push(s);
  }
  const first = (s: EndpointSubset) => addressKey((s.addresses ?? s.notReadyAddresses)![0]);
  return subsets.sort((a, b) => (first(a) < first(b) ? -1 : first(a) > first(b) ? 1 : 0));
}

/**
 * repackSubsets when every entry offers the same ports (the usual Service): one subset, its
 * addresses in address-key order, without grouping. Undefined when the entries are not like that.
 */
function repackOnePortSet(
  entries: { address: EndpointAddress; ready: boolean; port?: EndpointPort; akey?: string; pkey?: string }[]
): EndpointSubset[] | undefined {
  if (!entries.length) return [];
  const pkey = entries[0].pkey;
  if (pkey === undefined) return undefined;
  let sorted = true;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.pkey !== pkey || e.akey === undefined) return undefined;
    if (i && entries[i - 1].akey! > e.akey) sorted = false;
  }
  const list = sorted
    ? entries
    : [...entries].sort((a, b) => (a.akey! < b.akey! ? -1 : a.akey! > b.akey! ? 1 : 0));
  const ready: EndpointAddress[] = [];
  const notReady: EndpointAddress[] = [];
  for (let i = 0; i < list.length; i++) {
    // Of entries with the same address key the last one counts, as a map keyed by it keeps.
    if (i + 1 < list.length && list[i + 1].akey === list[i].akey) continue;
    (list[i].ready ? ready : notReady).push(list[i].address);
  }
  const subset: EndpointSubset = {};
  if (ready.length) subset.addresses = ready;
  if (notReady.length) subset.notReadyAddresses = notReady;
  if (entries[0].port) subset.ports = [entries[0].port];
  return [subset];
}

/** truncateEndpoints: keep at most 1000 addresses, spread over subsets by proportion, ready ones first. */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += s.addresses?.length ?? 0;
    totalNotReady += s.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= ENDPOINTS_MAX_CAPACITY) return false;
  const truncateReady = totalReady > ENDPOINTS_MAX_CAPACITY;
  const max = truncateReady ? ENDPOINTS_MAX_CAPACITY : ENDPOINTS_MAX_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const s of subsets) {
    const inSubset = (truncateReady ? s.addresses?.length : s.notReadyAddresses?.length) ?? 0;
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      if (s.addresses) s.addresses = s.addresses.slice(0, toBeAdded);
      delete s.notReadyAddresses;
      canBeAdded -= s.addresses?.length ?? 0;
    } else {
      if (s.notReadyAddresses) s.notReadyAddresses = s.notReadyAddresses.slice(0, toBeAdded);
      canBeAdded -= s.notReadyAddresses?.length ?? 0;
    }
  }
  return true;
}

/**
 * The subsets frozen, with their lists. Their addresses and ports are frozen already (podEntries
 * freezes each when it builds it), so they are not walked again.
 */
function freezeSubsets(subsets: EndpointSubset[]): EndpointSubset[] {
  for (const s of subsets) {
    if (s.addresses) Object.freeze(s.addresses);
    if (s.notReadyAddresses) Object.freeze(s.notReadyAddresses);
    if (s.ports) Object.freeze(s.ports);
    Object.freeze(s);
  }
  return Object.freeze(subsets) as EndpointSubset[];
}

/** The pod's entries for the Service, built once per stored Service and stored pod. */
function entriesOf(svc: KubeObject, pod: KubeObject): PodEntry[] {
  const cacheable = Object.isFrozen(svc);
  let byPod = cacheable ? builtEntries.get(svc) : undefined;
  if (cacheable && !byPod) builtEntries.set(svc, (byPod = new WeakMap()));
  let es = byPod?.get(pod);
  if (!es) {
    es = podEntries(svc, pod);
    if (Object.isFrozen(pod)) byPod?.set(pod, es);
  }
  return es;
}

/**
 * What one Service's last sync saw: the stored Service, each selected pod's stored object, the
 * trigger tracker's record it brought up to date, and the pods' entries in address order.
 * The next sync looks again only at the pods whose stored object changed (the informer's update
 * events), and gives the same trigger time and subsets as looking at every pod.
 */
interface SyncMemo {
  svc: KubeObject;
  pods: Map<string, KubeObject>;
  times: Record<string, string>;
  /** Every selected pod's entries, sorted by address key (a pod's own entries together, in port order). */
  entries: PodEntry[];
  /** The pods changed since (the index's follow set). */
  changes: Set<string>;
}

/** A pod's address with each Service port it offers, and their keys. */
interface PodEntry {
  address: EndpointAddress;
  ready: boolean;
  port?: EndpointPort;
  akey: string;
  pkey: string;
}

/** Entries already built, by the stored Service and the stored pod (both frozen: a change is a new object). */
const builtEntries = new WeakMap<KubeObject, WeakMap<KubeObject, PodEntry[]>>();

function podEntries(svc: KubeObject, pod: KubeObject): PodEntry[] {
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  const svcPorts = (svc.spec?.ports ?? []) as {
    name?: string;
    port: number;
    targetPort?: number | string;
    protocol?: string;
    appProtocol?: string;
  }[];
  const entries: PodEntry[] = [];
  if (!shouldPodBeInEndpoints(pod, publishNotReady)) return entries;
  const address: EndpointAddress = {
    ip: pod.status!.podIP as string,
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name,
      uid: pod.metadata.uid!
    }
  };
  // ShouldSetHostname: a pod naming this Service as its subdomain is published under its hostname.
  const hostname = pod.spec?.hostname as string | undefined;
  if (hostname && pod.spec?.subdomain === svc.metadata.name) address.hostname = hostname;
  const nodeName = pod.spec?.nodeName as string | undefined;
  if (nodeName) address.nodeName = nodeName;
  const ready = publishNotReady || readyCondition(pod)?.status === 'True';
  // Frozen: the Endpoints object shares it with its stored versions instead of copying it.
  deepFreeze(address);
  const akey = addressKey(address);
  if (!svcPorts.length) {
    // A headless Service may have no ports; its addresses are listed without any.
    if (isHeadless(svc)) entries.push({ address, ready, akey, pkey: '' });
    return entries;
  }
  for (const sp of svcPorts) {
    const port = resolveTargetPort(pod, sp.targetPort, sp.port);
    if (port === undefined) continue; // podutil.FindPort: the pod has no container port of that name
    const ep: EndpointPort = { port, protocol: sp.protocol ?? 'TCP' };
    if (sp.name) ep.name = sp.name;
    if (sp.appProtocol) ep.appProtocol = sp.appProtocol;
    entries.push({ address, ready, port: Object.freeze(ep), akey, pkey: portKey(ep) });
  }
  return entries;
}

function byAddressKey(a: PodEntry, b: PodEntry): number {
  return a.akey < b.akey ? -1 : a.akey > b.akey ? 1 : 0;
}

/**
 * Entries sorted by address for repackSubsets. With pods offering different port sets, the order
 * in which repackSubsets meets the ports decides the order of subsets that start with the same
 * address: then a copy in pod-name order, as the selected pods are listed.
 */
function inPodOrderIfMixed(entries: PodEntry[]): PodEntry[] {
  for (let i = 1; i < entries.length; i++)
    if (entries[i].pkey !== entries[0].pkey)
      return [...entries].sort((a, b) => {
        const x = a.address.targetRef.name;
        const y = b.address.targetRef.name;
        return x < y ? -1 : x > y ? 1 : 0;
      });
  return entries;
}

/** The first position in sorted `entries` whose address key is above `akey`. */
function upperBound(entries: PodEntry[], akey: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].akey <= akey) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One pod's entries (one address key) into sorted `entries`, after any with the same key. */
function insertEntries(entries: PodEntry[], add: PodEntry[]): void {
  if (add.length) entries.splice(upperBound(entries, add[0].akey), 0, ...add);
}

/** One pod's entries out of sorted `entries`: every entry with its address key (the key holds the pod's UID). */
function removeEntries(entries: PodEntry[], remove: PodEntry[]): void {
  if (!remove.length) return;
  const end = upperBound(entries, remove[0].akey);
  let start = end;
  while (start > 0 && entries[start - 1].akey === remove[0].akey) start--;
  if (end > start) entries.splice(start, end - start);
}

/** Date.parse of the RFC 3339 times the trigger tracker compares, remembered (they repeat across pods). */
const parsedTimes = new Map<string, number>();

function parseTime(t: string): number {
  let v = parsedTimes.get(t);
  if (v === undefined) {
    if (parsedTimes.size >= 10_000) parsedTimes.clear();
    parsedTimes.set(t, (v = Date.parse(t)));
  }
  return v;
}

export class EndpointsController implements Controller {
  readonly name = 'endpoints-controller';
  private s: State = { triggers: {} };
  /** Each Service's last sync (derived from the pods and the state, so not part of either). */
  private memos = new Map<string, SyncMemo>();
  /** The pods each Service selects, from the pod watch (the informer cache). */
  private pods: SelectedPodsIndex;

  constructor(private host: ControllerHost) {
    this.pods = new SelectedPodsIndex(host.cluster);
  }

  watch(): (() => void)[] {
    const { cluster } = this.host;
    const key = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
    this.pods = new SelectedPodsIndex(cluster);
    this.memos.clear();
    return [
      this.pods.watch(),
      cluster.api.watch('Service', (_t, o) => this.host.enqueue(key(o))),
      cluster.api.watch('Pod', (t, o, old) => {
        const keys =
          t === 'MODIFIED' && old
            ? servicesToUpdateOnPodChange(cluster, o, old)
            : servicesOfPod(cluster, o, old);
        for (const k of keys) this.host.enqueue(k);
      }),
      cluster.api.watch('Endpoints', (t, o) => {
        if (t === 'DELETED') this.host.enqueue(key(o));
      })
    ];
  }

  /** Every Service, and every Endpoints object (checkLeftoverEndpoints: ones whose Service is gone get deleted). */
  resyncKeys(): string[] {
    const api = this.host.cluster.api;
    const keys = new Set(api.list('Service').map((s) => `${s.metadata.namespace}/${s.metadata.name}`));
    for (const ep of api.list('Endpoints'))
      if (!ep.metadata.annotations?.[LEADER_ANNOTATION])
        keys.add(`${ep.metadata.namespace}/${ep.metadata.name}`);
    return [...keys];
  }

  getState(): unknown {
    return this.s;
  }

  setState(s: unknown): void {
    this.s = s as State;
    for (const key of this.memos.keys()) this.pods.unfollow(key);
    this.memos.clear();
  }

  /**
   * ComputeEndpointLastChangeTriggerTime: the earliest change not yet seen, or the Service's
   * creation when new, from the pods that changed since the last sync (`changed`: their stored
   * objects; `gone`: pods no longer selected; the others kept their times). Also brings the
   * tracker's memory of the Service up to date, in place (every sync that gets here goes through:
   * one waiting for a client token returned before).
   */
  private triggerTime(
    key: string,
    svc: KubeObject,
    changed: Iterable<KubeObject>,
    gone: Iterable<string>
  ): string | undefined {
    const known = this.s.triggers[key];
    let times: Record<string, string> = known ? known.pods : {};
    if (Object.isFrozen(times)) times = { ...times };
    for (const name of gone) delete times[name];
    let min: string | undefined;
    for (const pod of changed) {
      const name = pod.metadata.name;
      const t = readyCondition(pod)?.lastTransitionTime;
      const before = times[name];
      if (!t) {
        delete times[name];
        continue;
      }
      // The same text is the same time: not a change.
      if (before === t) continue;
      times[name] = t;
      if ((!before || parseTime(t) > parseTime(before)) && (!min || parseTime(t) < parseTime(min))) min = t;
    }
    const created = svc.metadata.creationTimestamp as string;
    if (!known || parseTime(created) > parseTime(known.service)) {
      if (!min || parseTime(created) < parseTime(min)) min = created;
    }
    this.s.triggers[key] = { service: created, pods: times };
    return known ? min : created;
  }

  /**
   * The trigger time and the desired subsets of a Service, from the pods that changed since its
   * last sync when that sync's memo still holds (the same Service object and tracker record).
   */
  private desired(
    key: string,
    svc: KubeObject
  ): { trigger: string | undefined; subsets: EndpointSubset[] } | undefined {
    const sel = serviceSelector(svc);
    if (!sel) return undefined;
    const ns = svc.metadata.namespace ?? 'default';
    const live = this.pods.pods(ns, sel.text, sel.reqs);
    let memo = this.memos.get(key);
    const known = this.s.triggers[key];
    if (!memo || memo.svc !== svc || !known || memo.times !== known.pods) {
      // Every pod, as a first sync does; from now on the index collects the names of changed pods.
      const changes = this.pods.follow(key, ns, sel.text, sel.reqs);
      const pods = [...live.values()];
      const gone = Object.keys(known?.pods ?? {}).filter((name) => !live.has(name));
      const trigger = this.triggerTime(key, svc, pods, gone);
      const entries: PodEntry[] = [];
      for (const pod of pods) for (const e of entriesOf(svc, pod)) entries.push(e);
      entries.sort(byAddressKey);
      memo = { svc, pods: new Map(live), times: this.s.triggers[key].pods, entries, changes };
      this.memos.set(key, memo);
      return { trigger, subsets: repackSubsets(inPodOrderIfMixed(entries)) };
    }
    const entries = memo.entries;
    const changed: KubeObject[] = [];
    const gone: string[] = [];
    for (const name of memo.changes) {
      const pod = live.get(name);
      const was = memo.pods.get(name);
      if (was === pod) continue;
      if (was) removeEntries(entries, entriesOf(svc, was));
      if (!pod) {
        gone.push(name);
        memo.pods.delete(name);
        continue;
      }
      insertEntries(entries, entriesOf(svc, pod));
      changed.push(pod);
      memo.pods.set(name, pod);
    }
    memo.changes.clear();
    const trigger = this.triggerTime(key, svc, changed, gone);
    return { trigger, subsets: repackSubsets(inPodOrderIfMixed(entries)) };
  }

  /**
   * The client's rate limiter (pkg/controller/endpoint/endpoints_controller.go sends each Create,
   * Update and Delete through the controller's clientset, whose client-side limiter blocks the
   * worker until a token is free). While the bucket is empty a sync would wait in the client, so
   * the key waits for the next token before it is synced (and then sees the changes made while it
   * waited, as the sync after a blocked write does upstream): true when it has to wait.
   */
  private waitForClient(key: string): boolean {
    const now = this.host.now();
    const client = (this.s.client ??= newTokenBucket(now));
    const wait = takeToken({ ...client }, now);
    if (wait === 0) return false;
    (this.s.blocked ??= {})[key] = now + wait;
    this.host.schedule(wait, 'requeue', key);
    return true;
  }

  /** One request: a token is free (waitForClient said so at the start of this sync). */
  private request(): void {
    const now = this.host.now();
    takeToken((this.s.client ??= newTokenBucket(now)), now);
  }

  sync(key: string): void {
    const { cluster, ctx } = this.host;
    const api = cluster.api;
    const [ns, name] = key.split('/');
    const blocked = this.s.blocked?.[key];
    if (blocked !== undefined) {
      // Still waiting for its client token: the requeue when it comes syncs the key.
      if (blocked > this.host.now()) return;
      delete this.s.blocked![key];
    }
    if (this.waitForClient(key)) return;
    const svc = api.tryGet<KubeObject>('Service', ns, name);
    if (!svc) {
      // The Service is gone: delete its Endpoints.
      this.request();
      delete this.s.triggers[key];
      this.memos.delete(key);
      this.pods.unfollow(key);
      try {
        api.delete('Endpoints', ns, name, {}, ctx);
      } catch (e) {
        if (!isApiError(e, 'NotFound')) throw e;
      }
      return;
    }
    if (svc.spec?.type === 'ExternalName') return;
    const desired = this.desired(key, svc);
    if (!desired) return;
    const { trigger, subsets } = desired;
    const current = api.tryGet<KubeObject>('Endpoints', ns, name);
    const svcLabels = (svc.metadata.labels ?? {}) as Record<string, string>;
    if (current) {
      const compare = { ...(current.metadata.labels ?? {}) };
      delete compare[HEADLESS_LABEL];
      const count = subsets.reduce(
        (n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0),
        0
      );
      const capacityOk =
        count <= ENDPOINTS_MAX_CAPACITY ? !current.metadata.annotations?.[OVER_CAPACITY] : false;
      if (jsonEqual(current.subsets ?? [], subsets) && sameStrings(compare, svcLabels) && capacityOk) return;
    }
    this.request();
    const annotations: Record<string, string> = { ...(current?.metadata.annotations ?? {}) };
    if (trigger) annotations[LAST_CHANGE_TRIGGER_TIME] = trigger;
    else delete annotations[LAST_CHANGE_TRIGGER_TIME];
    if (truncateSubsets(subsets)) annotations[OVER_CAPACITY] = 'truncated';
    else delete annotations[OVER_CAPACITY];
    const labels: Record<string, string> = { ...svcLabels };
    if (isHeadless(svc)) labels[HEADLESS_LABEL] = '';
    const metadata = {
      ...(current?.metadata ?? { name, namespace: ns }),
      labels,
      annotations
    };
    const obj: KubeObject = { apiVersion: 'v1', kind: 'Endpoints', metadata };
    // Frozen: the write stores them as they are instead of copying and comparing up to a
    // thousand addresses with the stored version's.
    if (subsets.length) obj.subsets = freezeSubsets(subsets);
    if (current) api.update(obj, ctx);
    else api.create(obj, ctx);
  }
}
