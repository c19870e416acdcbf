/**
 * The Node object the kubelet registers and the NodeStatus it reports: capacity, allocatable,
 * conditions (pkg/kubelet/nodestatus/setters.go wording), addresses, nodeInfo, images, and the
 * runtime/network readiness check (updateRuntimeUp, every 5s).
 */
import { mergePatch } from '../api/apiserver';
import { clone, deepFreeze, type KubeObject } from '../api/types';
import { formatGoDuration } from '../engine/duration';
import { allocatableMilli, capacityMilli, formatResources } from './allocatable';
import { deviceCapacity } from './devicemanager';
import { SHUTTING_DOWN } from './nodeshutdown';
import type { Kubelet } from './kubelet';
import { clientErr, errText } from './klog';
import type { ConditionState } from './state';

const ATTACH_DETACH = 'volumes.kubernetes.io/controller-managed-attach-detach';
const OWN_CONDITIONS = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'] as const;

/** What each CNI's installer writes to /etc/cni/net.d. */
export const CNI_CONFIGS: Record<'calico' | 'cilium' | 'flannel', Record<string, string>> = {
  calico: {
    '10-calico.conflist':
      '{\n  "name": "k8s-pod-network",\n  "cniVersion": "0.3.1",\n  "plugins": [\n    { "type": "calico", "datastore_type": "kubernetes", "ipam": { "type": "calico-ipam" } },\n    { "type": "portmap", "snat": true, "capabilities": { "portMappings": true } }\n  ]\n}\n',
    'calico-kubeconfig': '# Kubeconfig file for the Calico CNI plugin.\napiVersion: v1\nkind: Config\n'
  },
  cilium: {
    '05-cilium.conflist':
      '{\n  "cniVersion": "0.3.1",\n  "name": "cilium",\n  "plugins": [\n    { "type": "cilium-cni", "enable-debug": false }\n  ]\n}\n'
  },
  flannel: {
    '10-flannel.conflist':
      '{\n  "name": "cbr0",\n  "cniVersion": "0.3.1",\n  "plugins": [\n    { "type": "flannel", "delegate": { "hairpinMode": true, "isDefaultGateway": true } },\n    { "type": "portmap", "capabilities": { "portMappings": true } }\n  ]\n}\n'
  }
};

export const NETWORK_NOT_READY =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

/** The object reference the kubelet uses for node events (uid = node name, as upstream). */
export function nodeRef(name: string): Pick<KubeObject, 'kind' | 'metadata'> & { apiVersion: string } {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: name } };
}

export function defaultLabels(k: Kubelet): Record<string, string> {
  const l: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': k.name,
    'kubernetes.io/os': 'linux'
  };
  if (k.args.zone) l['topology.kubernetes.io/zone'] = k.args.zone;
  if (k.args.region) l['topology.kubernetes.io/region'] = k.args.region;
  return l;
}

/** CRI Status every 5s: RuntimeReady (the daemon answers) and NetworkReady (a CNI config exists). */
export function runtimeCheck(k: Kubelet): void {
  const s = k.state;
  if (!k.host.state.runtime.running) {
    k.journal(
      'E',
      'kubelet.go:3104',
      `"Container runtime sanity check failed" err="${errText(new Error(k.runtime.unavailable()))}"`
    );
    return;
  }
  s.runtimeLastOk = k.now;
  const ready = k.host.cni.installed;
  const was = s.networkError;
  s.networkError = ready ? '' : NETWORK_NOT_READY;
  if (!ready) {
    k.journal(
      'E',
      'kubelet.go:3117',
      `"Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"`
    );
  }
  if (was !== s.networkError && k.syncing) for (const key of Object.keys(s.pods)) k.enqueue(key);
}

/** The runtime.go errors that make Ready=False, joined with ", " ('' when there are none). */
function readyErrors(k: Kubelet): string {
  const s = k.state;
  let errs = '';
  const runtimeLastOk = k.runtimeLastOk;
  if (runtimeLastOk === undefined) errs = 'container runtime status check may not have completed yet';
  else if (k.now - runtimeLastOk > k.cfg.runtimeDownThreshold) errs = 'container runtime is down';
  const sinceRelist = k.now - k.lastRelist;
  if (sinceRelist > k.cfg.plegRelistThreshold) {
    errs = joinError(
      errs,
      `PLEG is not healthy: pleg was last seen active ${formatGoDuration(sinceRelist)} ago; threshold is ${formatGoDuration(k.cfg.plegRelistThreshold)}`
    );
  }
  if (s.networkError) errs = joinError(errs, s.networkError);
  if (s.shutdown) errs = joinError(errs, SHUTTING_DOWN);
  return errs;
}

function joinError(errs: string, e: string): string {
  return errs ? `${errs}, ${e}` : e;
}

const PRESSURE = {
  MemoryPressure: {
    key: 'memory',
    t: [
      'KubeletHasInsufficientMemory',
      'kubelet has insufficient memory available',
      'NodeHasInsufficientMemory'
    ],
    f: ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available', 'NodeHasSufficientMemory']
  },
  DiskPressure: {
    key: 'disk',
    t: ['KubeletHasDiskPressure', 'kubelet has disk pressure', 'NodeHasDiskPressure'],
    f: ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure', 'NodeHasNoDiskPressure']
  },
  PIDPressure: {
    key: 'pid',
    t: ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available', 'NodeHasInsufficientPID'],
    f: ['KubeletHasSufficientPID', 'kubelet has sufficient PID available', 'NodeHasSufficientPID']
  }
} as const;

/**
 * Recompute the four conditions; record node events for transitions. With the Node from the API
 * (`live`), a condition whose status there differs from the kubelet's last one (the node lifecycle
 * controller set it Unknown, someone patched it) is compared against the API's, as the upstream
 * setters update the conditions of the Node they got from the API server.
 */
export function computeConditions(k: Kubelet, live?: KubeObject): ConditionState[] {
  const s = k.state;
  // The kubelet's last conditions (one per type), copied only when the Node's differ.
  let prev = s.conditions;
  const liveStatus = live?.status;
  const seen = k.derived.liveSeen;
  // The same stored status against the same conditions as the last sync that found them equal
  // (both are replaced, never changed in place): equal again, without reading them.
  const known = seen !== undefined && seen.status === liveStatus && seen.conditions === prev;
  const liveConditions = known ? undefined : (liveStatus?.conditions as Record<string, string>[] | undefined);
  if (liveConditions)
    for (let i = 0; i < liveConditions.length; i++) {
      const c = liveConditions[i];
      if (!(OWN_CONDITIONS as readonly string[]).includes(c.type)) continue;
      const type = c.type as ConditionState['type'];
      const at = indexOfType(prev, type);
      if (at >= 0 && prev[at].status === c.status) continue;
      if (prev === s.conditions) prev = [...prev];
      const theirs: ConditionState = {
        type,
        status: c.status as ConditionState['status'],
        reason: c.reason ?? '',
        message: c.message ?? '',
        lastTransition: k.cluster.api.timeOf(c.lastTransitionTime)
      };
      if (at >= 0) prev[at] = theirs;
      else prev.push(theirs);
    }
  if (liveStatus !== undefined && !known && prev === s.conditions) {
    if (seen) {
      seen.status = liveStatus;
      seen.conditions = prev;
    } else k.derived.liveSeen = { status: liveStatus, conditions: prev };
  }
  const errs = readyErrors(k);
  // Nothing moved since the last sync (the usual heartbeat): the same conditions, no allocation.
  if (prev === s.conditions && unchangedConditions(k, prev, errs)) return prev;
  const next: ConditionState[] = [];
  for (let i = 0; i < PRESSURE_TYPES.length; i++) {
    const type = PRESSURE_TYPES[i];
    const d = PRESSURE[type];
    const on = s.pressure[d.key];
    const e = on ? d.t : d.f;
    setCondition(k, prev, next, type, on ? 'True' : 'False', e[0], e[1], e[2]);
  }
  if (errs) {
    const wasReady = indexOfType(prev, 'Ready') >= 0;
    setCondition(
      k,
      prev,
      next,
      'Ready',
      'False',
      'KubeletNotReady',
      errs,
      wasReady ? 'NodeNotReady' : undefined
    );
  } else {
    setCondition(k, prev, next, 'Ready', 'True', 'KubeletReady', READY_MESSAGE, 'NodeReady');
  }
  s.conditions = next;
  return next;
}

const READY_MESSAGE = 'kubelet is posting ready status';

/**
 * The live Node status a kubelet's last sync found to hold its own conditions as it had them
 * (`conditions`, the array it compared with). Not state: a restored kubelet reads them again.
 */
export interface LiveSeen {
  status: unknown;
  conditions: ConditionState[];
}

function indexOfType(conditions: readonly ConditionState[], type: string): number {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return i;
  return -1;
}

/**
 * Whether `computeConditions` would build the conditions `prev` already holds, in the same order
 * (the three pressure conditions, then Ready), with no transition and so no event.
 */
function unchangedConditions(k: Kubelet, prev: readonly ConditionState[], errs: string): boolean {
  if (prev.length !== PRESSURE_TYPES.length + 1) return false;
  for (let i = 0; i < PRESSURE_TYPES.length; i++) {
    const c = prev[i];
    const type = PRESSURE_TYPES[i];
    const d = PRESSURE[type];
    const on = k.state.pressure[d.key];
    const e = on ? d.t : d.f;
    if (c.type !== type || c.status !== (on ? 'True' : 'False') || c.reason !== e[0] || c.message !== e[1])
      return false;
  }
  const r = prev[PRESSURE_TYPES.length];
  return errs
    ? r.type === 'Ready' && r.status === 'False' && r.reason === 'KubeletNotReady' && r.message === errs
    : r.type === 'Ready' && r.status === 'True' && r.reason === 'KubeletReady' && r.message === READY_MESSAGE;
}

/**
 * One condition of `computeConditions`: its transition time moves when its status does, and the
 * transition's node event is recorded. An unchanged condition is the previous object itself
 * (conditions are replaced, never changed in place).
 */
function setCondition(
  k: Kubelet,
  prev: ConditionState[],
  next: ConditionState[],
  type: ConditionState['type'],
  status: ConditionState['status'],
  reason: string,
  message: string,
  event?: string
): void {
  const at = indexOfType(prev, type);
  const p = at >= 0 ? prev[at] : undefined;
  const changed = !p || p.status !== status;
  if (p && !changed && p.reason === reason && p.message === message) next.push(p);
  else next.push({ type, status, reason, message, lastTransition: changed ? k.now : p!.lastTransition });
  if (changed && event) k.nodeEvent('Normal', event, `Node ${k.name} status is now: ${event}`);
}

const PRESSURE_TYPES = ['MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

function apiConditions(k: Kubelet, heartbeat: string | null) {
  const api = k.cluster.api;
  return k.state.conditions.map((c) => ({
    type: c.type,
    status: c.status,
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: api.timestamp(c.lastTransition - k.now),
    reason: c.reason,
    message: c.message
  }));
}

type StatusBody = ReturnType<typeof statusBody>;

/**
 * The status body the last sync built, with what it was built from: the kubelet's args (replaced,
 * never changed in place), maxPods, the device plugins, the runtime's images (added in place,
 * removed by replacing the array), the machine ids, the runtime and kubelet versions. Frozen: the
 * same object serves every sync until one of those changes.
 */
export interface KeptBody {
  args: Kubelet['args'];
  maxPods: number;
  devices: string;
  images: readonly unknown[];
  imageCount: number;
  ids: unknown;
  runtimeName: string;
  runtimeVersion: string;
  version: string;
  body: StatusBody;
}

function keptStatusBody(k: Kubelet): StatusBody {
  const rt = k.host.state.runtime;
  const dp = k.state.devicePlugins;
  const devices = dp ? JSON.stringify(dp) : '';
  const version = k.version;
  const kept = k.derived.keptBody;
  if (
    kept &&
    kept.args === k.args &&
    kept.maxPods === k.maxPods &&
    kept.devices === devices &&
    kept.images === rt.images &&
    kept.imageCount === rt.images.length &&
    kept.ids === k.host.state.ids &&
    kept.runtimeName === rt.name &&
    kept.runtimeVersion === rt.version &&
    kept.version === version
  )
    return kept.body;
  const body = deepFreeze(statusBody(k));
  k.derived.keptBody = {
    args: k.args,
    maxPods: k.maxPods,
    devices,
    images: rt.images,
    imageCount: rt.images.length,
    ids: k.host.state.ids,
    runtimeName: rt.name,
    runtimeVersion: rt.version,
    version,
    body
  };
  return body;
}

/**
 * The last sync that found nothing to report: the live Node's status it compared with (a stored,
 * frozen object), the body and the conditions. nodeStatusHasChanged depends on nothing else (the
 * heartbeat it ignores aside), so the next sync with the same three has the same answer.
 */
export interface Unchanged {
  live: unknown;
  body: StatusBody;
  conditions: ConditionState[];
}

function sameConditions(a: ConditionState[], b: ConditionState[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (
      x.type !== y.type ||
      x.status !== y.status ||
      x.reason !== y.reason ||
      x.message !== y.message ||
      x.lastTransition !== y.lastTransition
    )
      return false;
  }
  return true;
}

/** NodeStatus without the conditions. */
function statusBody(k: Kubelet, zeroExtended = false) {
  const cap = capacityMilli(k.args, k.maxPods);
  const alloc = allocatableMilli(k.args, k.maxPods);
  const dev = deviceCapacity(k);
  Object.assign(cap, dev.capacity);
  Object.assign(alloc, dev.allocatable);
  if (zeroExtended) {
    for (const name of Object.keys(cap)) {
      if (name.includes('/') && !name.startsWith('hugepages-')) cap[name] = alloc[name] = 0;
    }
  }
  const rt = k.host.state.runtime;
  const images = [...rt.images]
    .sort((a, b) => b.sizeBytes - a.sizeBytes)
    .slice(0, 50)
    .map((i) => ({
      names: [`${i.repository}@${i.digest}`, `${i.repository}:${i.tag}`],
      sizeBytes: i.sizeBytes
    }));
  return {
    capacity: formatResources(cap),
    allocatable: formatResources(alloc),
    addresses: [
      { type: 'InternalIP', address: k.args.internalIP },
      { type: 'Hostname', address: k.name }
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: k.host.state.ids.machineID,
      systemUUID: k.host.state.ids.systemUUID,
      bootID: k.host.state.ids.bootID,
      kernelVersion: k.args.kernelVersion ?? '6.8.0-85-generic',
      osImage: k.args.osImage ?? 'Ubuntu 24.04.3 LTS',
      containerRuntimeVersion: `${rt.name}://${rt.version}`,
      kubeletVersion: k.version,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64'
    },
    images
  };
}

/** The Node the kubelet POSTs at registration (initialNode + setNodeStatus). */
export function initialNode(k: Kubelet): KubeObject {
  computeConditions(k);
  const labels = {
    ...defaultLabels(k),
    ...(k.args.pool ? { 'nodeplane.dev/pool': k.args.pool } : {}),
    ...(k.args.labels ?? {})
  };
  const taints = (k.args.taints ?? []).map((t) => ({
    key: t.key,
    ...(t.value ? { value: t.value } : {}),
    effect: t.effect
  }));
  const status = { ...statusBody(k), conditions: apiConditions(k, k.cluster.api.timestamp()) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: k.name, labels, annotations: { [ATTACH_DETACH]: 'true' } },
    spec: taints.length ? { taints } : {},
    status
  };
}

/**
 * AlreadyExists at registration: update the attach-detach annotation and the default labels, and
 * zero extended resources until their device plugins register again (reconcileExtendedResource).
 */
export function reconcileExistingNode(k: Kubelet): void {
  const api = k.cluster.api;
  const existing = clone(api.get<KubeObject>('Node', undefined, k.name));
  existing.metadata.annotations = { ...(existing.metadata.annotations ?? {}), [ATTACH_DETACH]: 'true' };
  existing.metadata.labels = { ...(existing.metadata.labels ?? {}), ...defaultLabels(k) };
  const updated = api.update(existing, k.ctx);
  const body = statusBody(k, true);
  const next = clone(updated);
  next.status = { ...(next.status ?? {}), capacity: body.capacity, allocatable: body.allocatable };
  api.update(next, k.ctx, { subresource: 'status' });
}

/**
 * Every nodeStatusUpdateFrequency (10s), tryUpdateNodeStatus: GET the Node (served from the API
 * server's cache), set the kubelet's status fields on it, and PATCH only when that changed the
 * Node's status other than heartbeat times (nodeStatusHasChanged), or nodeStatusReportFrequency
 * (5m) has passed since the last report. The comparison is with the live Node, not with what the
 * kubelet posted last: a condition the node lifecycle controller set to Unknown is corrected at the
 * next sync.
 */
export function syncNodeStatus(k: Kubelet): void {
  const s = k.state;
  const api = k.cluster.api;
  let cur: KubeObject | undefined;
  let failure: unknown;
  try {
    api.countRead('get', 'Node', k.ctx);
    cur = api.get<KubeObject>('Node', undefined, k.name);
  } catch (e) {
    failure = e;
  }
  computeConditions(k, cur);
  if (cur) recordSchedulableEvent(k, cur);
  if (cur) {
    const body = keptStatusBody(k);
    const due = s.lastReport === undefined || k.now - s.lastReport >= k.cfg.nodeStatusReportFrequency;
    const last = k.derived.lastUnchanged;
    // Nothing to report, as last time. The reboot check is passed over too: that sync found the
    // Node's boot ID equal to the body's (nodeStatusHasChanged found no difference), and the body
    // is kept only while the machine ids are the same object, so it would record nothing.
    if (
      !due &&
      last &&
      last.live === cur.status &&
      last.body === body &&
      (last.conditions === s.conditions || sameConditions(last.conditions, s.conditions))
    )
      return;
    recordRebootEvent(k, cur);
    const foreign = ((cur.status?.conditions ?? []) as { type: string }[]).filter(
      (c) => !(OWN_CONDITIONS as readonly string[]).includes(c.type)
    );
    const status = { ...body, conditions: [...apiConditions(k, api.timestamp()), ...foreign] };
    const changed = nodeStatusHasChanged(cur.status, mergePatch(cur.status ?? {}, status));
    if (!changed && !due) {
      k.derived.lastUnchanged = { live: cur.status, body, conditions: s.conditions };
      return;
    }
    try {
      api.patch('Node', undefined, k.name, { status }, k.ctx, { subresource: 'status' });
      s.lastReport = k.now;
      return;
    } catch (e) {
      failure = e;
    }
  }
  k.journal(
    'E',
    'kubelet_node_status.go:549',
    `"Error updating node status, will retry" err="error getting node \\"${k.name}\\": ${clientErr(failure, 'Get', `/api/v1/nodes/${k.name}`)}"`
  );
  k.journal(
    'E',
    'kubelet_node_status.go:536',
    `"Unable to update node status" err="update node status exceeds retry count"`
  );
}

/**
 * recordNodeSchedulableEvent (kubelet_node_status.go): when spec.unschedulable differs from the
 * last sync (a cordon or uncordon), the kubelet records NodeNotSchedulable or NodeSchedulable.
 */
function recordSchedulableEvent(k: Kubelet, node: KubeObject): void {
  const now = node.spec?.unschedulable === true;
  if ((k.state.lastUnschedulable ?? false) === now) return;
  k.state.lastUnschedulable = now;
  const event = now ? 'NodeNotSchedulable' : 'NodeSchedulable';
  k.nodeEvent('Normal', event, `Node ${k.name} status is now: ${event}`);
}

/**
 * The MachineInfo setter (pkg/kubelet/nodestatus/setters.go): a boot ID that differs from the one
 * in the Node's status means the machine was restarted, and the kubelet records `Rebooted` (a
 * Warning) before it writes the new boot ID.
 */
function recordRebootEvent(k: Kubelet, node: KubeObject): void {
  const posted = (node.status?.nodeInfo as { bootID?: string } | undefined)?.bootID;
  const boot = k.host.state.ids.bootID;
  if (!posted || posted === boot) return;
  k.nodeEvent('Warning', 'Rebooted', `Node ${k.name} has been rebooted, boot id: ${boot}`);
}

/** nodeStatusHasChanged: any difference but the conditions' lastHeartbeatTime. */
export function nodeStatusHasChanged(original: unknown, status: unknown): boolean {
  if (isZero(original) && isZero(status)) return false;
  if (isZero(original) || isZero(status)) return true;
  const o = original as Record<string, unknown>;
  const s = status as Record<string, unknown>;
  if (
    conditionsHaveChanged(
      (o.conditions ?? []) as Record<string, unknown>[],
      (s.conditions ?? []) as Record<string, unknown>[]
    )
  )
    return true;
  // The rest of the two statuses (as `{ conditions, ...rest }` would give, without copying them).
  return !semanticEqualFields(o, s, 'conditions');
}

/** nodeConditionsHaveChanged: same count, and equal one by one in type order without heartbeats. */
function byType(x: Record<string, unknown>, y: Record<string, unknown>): number {
  return String(x.type) < String(y.type) ? -1 : String(x.type) > String(y.type) ? 1 : 0;
}

function conditionsHaveChanged(a: Record<string, unknown>[], b: Record<string, unknown>[]): boolean {
  if (a.length !== b.length) return true;
  // The usual case, every type once on each side: each condition against the other side's of its
  // type is the pairwise comparison of the two sorted lists, without sorting copies.
  if (distinctTypes(a) && distinctTypes(b)) {
    for (let i = 0; i < a.length; i++) {
      let other: Record<string, unknown> | undefined;
      for (let j = 0; j < b.length && !other; j++) if (b[j].type === a[i].type) other = b[j];
      if (!other || !semanticEqualFields(a[i], other, 'lastHeartbeatTime')) return true;
    }
    return false;
  }
  const sa = [...a].sort(byType);
  const sb = [...b].sort(byType);
  for (let i = 0; i < sa.length; i++) {
    if (!semanticEqual({ ...sa[i], lastHeartbeatTime: null }, { ...sb[i], lastHeartbeatTime: null }))
      return true;
  }
  return false;
}

/** Every condition has a type (a non-empty string) and no two the same. */
function distinctTypes(list: Record<string, unknown>[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const t = list[i].type;
    if (typeof t !== 'string' || t === '') return false;
    for (let j = 0; j < i; j++) if (list[j].type === t) return false;
  }
  return true;
}

/**
 * semanticEqual of two objects without their `skip` field (as if both had it null): the fields
 * of `a`, then those only `b` has.
 */
function semanticEqualFields(a: Record<string, unknown>, b: Record<string, unknown>, skip: string): boolean {
  for (const key in a) if (key !== skip && !semanticEqual(a[key], b[key])) return false;
  for (const key in b)
    if (key !== skip && !Object.hasOwn(a, key) && !semanticEqual(undefined, b[key])) return false;
  return true;
}

/** A Go zero value: what an omitted JSON field decodes to. */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const key in o) if (Object.hasOwn(o, key) && !isZero(o[key])) return false;
    return true;
  }
  return false;
}

/** apiequality.Semantic.DeepEqual on JSON: omitted, null and empty compare equal, key order does not matter. */
function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Two objects (or two arrays) compare member by member, which also finds two zero values equal;
  // anything else is equal only when both are zero values (null, "", 0, false, [], {}).
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return isZero(a) && isZero(b);
  if (Array.isArray(a) !== Array.isArray(b)) return isZero(a) && isZero(b);
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    if (a.length !== bs.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], bs[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key in ra) if (!semanticEqual(ra[key], rb[key])) return false;
  for (const key in rb) if (!Object.hasOwn(ra, key) && !semanticEqual(undefined, rb[key])) return false;
  return true;
}
