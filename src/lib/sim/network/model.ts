/**
 * What kube-proxy knows: the Service ports and their endpoints, as plain JSON built from Service and
 * EndpointSlice objects (pkg/proxy servicechangetracker + endpointslicecache), and the per-node split
 * into cluster/local endpoints (pkg/proxy/topology.go CategorizeEndpoints).
 */
import { deepFreeze, type KubeObject } from '../api/types';

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface EndpointInfo {
  ip: string;
  port: number;
  nodeName?: string;
  zone?: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  /** "namespace/name" of the backing pod, when the slice says so. */
  pod?: string;
}

export interface ServicePortInfo {
  namespace: string;
  name: string;
  portName: string;
  protocol: Protocol;
  port: number;
  clusterIP: string;
  type: 'ClusterIP' | 'NodePort' | 'LoadBalancer';
  nodePort?: number;
  healthCheckNodePort?: number;
  externalIPs: string[];
  loadBalancerIPs: string[];
  /** sessionAffinity: ClientIP, with its timeout (sessionAffinityConfig.clientIP.timeoutSeconds, 10800). */
  affinitySeconds?: number;
  externalPolicyLocal: boolean;
  internalPolicyLocal: boolean;
  /** Sorted by "ip:port" as endpointslicecache orders them. */
  endpoints: EndpointInfo[];
}

/** `ns/name:port`, or `ns/name` for an unnamed port (proxy.ServicePortName.String()). */
export function portNameString(sp: Pick<ServicePortInfo, 'namespace' | 'name' | 'portName'>): string {
  return `${sp.namespace}/${sp.name}${sp.portName ? ':' + sp.portName : ''}`;
}

export function endpointString(ep: Pick<EndpointInfo, 'ip' | 'port'>): string {
  return `${ep.ip}:${ep.port}`;
}

function externallyAccessible(sp: ServicePortInfo): boolean {
  return !!sp.nodePort || sp.externalIPs.length > 0 || sp.loadBalancerIPs.length > 0;
}

/**
 * The service ports last built for a Service from its slices, by the stored Service (frozen: a
 * change is a new object). All of a cluster's kube-proxies, the lessons' checks and the node views
 * build the same map from the same stored objects (each kube-proxy at its own minSyncPeriod tick),
 * so what one built is reused as long as the Service and its IPv4 slices are the same objects.
 * Upstream each kube-proxy keeps this in its own caches and applies only the changes it was told
 * of (pkg/proxy/endpointschangetracker.go, pkg/proxy/endpointslicecache.go checkoutChanges); the
 * result is the same map.
 */
const builtPorts = new WeakMap<KubeObject, { slices: KubeObject[]; ports: readonly ServicePortInfo[] }>();

function sameList(a: readonly KubeObject[], b: readonly KubeObject[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Build kube-proxy's service-port map from Services and EndpointSlices. Headless and ExternalName
 * services are skipped. The service ports of stored (frozen) objects are frozen and shared between
 * calls: callers must not change them.
 */
export function collectServicePorts(services: KubeObject[], slices: KubeObject[]): ServicePortInfo[] {
  // The same stored Services and slices as the last call (every kube-proxy syncing between two
  // changes): the same map.
  if (lastBuilt && sameList(lastBuilt.services, services) && sameList(lastBuilt.slices, slices))
    return lastBuilt.ports.slice();
  const built = buildServicePorts(services, slices);
  lastBuilt =
    services.every((o) => Object.isFrozen(o)) && slices.every((o) => Object.isFrozen(o))
      ? { services: services.slice(), slices: slices.slice(), ports: built.slice() }
      : undefined;
  return built;
}

/** The last map built from stored objects only, with the lists it was built from. */
let lastBuilt: { services: KubeObject[]; slices: KubeObject[]; ports: ServicePortInfo[] } | undefined;

function buildServicePorts(services: KubeObject[], slices: KubeObject[]): ServicePortInfo[] {
  const slicesBySvc = new Map<string, KubeObject[]>();
  for (const s of slices) {
    const svc = s.metadata.labels?.['kubernetes.io/service-name'];
    if (!svc || (s.addressType as string | undefined) !== 'IPv4') continue;
    const key = `${s.metadata.namespace}/${svc}`;
    const list = slicesBySvc.get(key);
    if (list) list.push(s);
    else slicesBySvc.set(key, [s]);
  }
  const out: ServicePortInfo[] = [];
  for (const svc of services) {
    const spec = svc.spec ?? {};
    const ip = spec.clusterIP as string | undefined;
    if (!ip || ip === 'None' || spec.type === 'ExternalName') continue;
    const own = slicesBySvc.get(`${svc.metadata.namespace}/${svc.metadata.name}`) ?? [];
    const cacheable = Object.isFrozen(svc) && own.every((s) => Object.isFrozen(s));
    const hit = cacheable ? builtPorts.get(svc) : undefined;
    if (hit && sameList(hit.slices, own)) {
      for (const p of hit.ports) out.push(p);
      continue;
    }
    const ports = servicePorts(svc, own, cacheable);
    if (cacheable) {
      for (const p of ports) deepFreeze(p);
      builtPorts.set(svc, { slices: own, ports });
    }
    for (const p of ports) out.push(p);
  }
  // By "ns/name:port/protocol", each key built once (the sort is stable for equal keys).
  const keyed = out.map((p) => ({ key: `${portNameString(p)}/${p.protocol}`, p }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) out[i] = keyed[i].p;
  return out;
}

interface SlicePort {
  name?: string;
  port?: number;
  protocol?: string;
}

interface SliceEndpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  nodeName?: string;
  zone?: string;
  targetRef?: { namespace?: string; name?: string };
}

/** One slice's endpoints on one of its ports, with their "ip:port" keys. */
interface SliceEndpoints {
  keys: string[];
  endpoints: EndpointInfo[];
}

/**
 * A stored (frozen) slice's endpoints by its port, frozen: a Service's ports are rebuilt when any
 * one of its slices changes, and the slices that did not change give the same endpoints again.
 */
const endpointsOfSlice = new WeakMap<KubeObject, Map<SlicePort, SliceEndpoints>>();

/** The slice's endpoints on `sp` (the slice's own port entry), as EndpointSliceCache reads them. */
function sliceEndpoints(
  slice: KubeObject,
  sp: SlicePort,
  namespace: string | undefined,
  keep: boolean
): SliceEndpoints {
  let byPort = keep ? endpointsOfSlice.get(slice) : undefined;
  const hit = byPort?.get(sp);
  if (hit) return hit;
  const out: SliceEndpoints = { keys: [], endpoints: [] };
  for (const e of (slice.endpoints ?? []) as SliceEndpoint[]) {
    const c = e.conditions ?? {};
    // A nil ready condition means ready; serving defaults to ready (discovery/v1 EndpointConditions).
    const ready = c.ready !== false;
    const ep: EndpointInfo = {
      ip: e.addresses[0],
      port: sp.port!,
      ready,
      serving: c.serving ?? ready,
      terminating: c.terminating === true
    };
    if (e.nodeName) ep.nodeName = e.nodeName;
    if (e.zone) ep.zone = e.zone;
    if (e.targetRef?.name) ep.pod = `${e.targetRef.namespace ?? namespace}/${e.targetRef.name}`;
    out.keys.push(endpointString(ep));
    out.endpoints.push(keep ? Object.freeze(ep) : ep);
  }
  if (keep) {
    if (!byPort) endpointsOfSlice.set(slice, (byPort = new Map()));
    byPort.set(sp, out);
  }
  return out;
}

/**
 * One Service's ports with their endpoints from the Service's IPv4 slices. `keep`: the Service and
 * slices are stored objects, whose endpoints are kept per slice and shared (frozen).
 */
function servicePorts(svc: KubeObject, slices: KubeObject[], keep: boolean): ServicePortInfo[] {
  const out: ServicePortInfo[] = [];
  const spec = svc.spec ?? {};
  const ip = spec.clusterIP as string;
  const type = (spec.type ?? 'ClusterIP') as ServicePortInfo['type'];
  const lbIPs = ((svc.status?.loadBalancer?.ingress ?? []) as { ip?: string }[])
    .map((i) => i.ip)
    .filter((x): x is string => !!x);
  for (const p of (spec.ports ?? []) as {
    name?: string;
    port: number;
    protocol?: Protocol;
    nodePort?: number;
  }[]) {
    const protocol = p.protocol ?? 'TCP';
    // By "ip:port": a later slice's endpoint replaces an earlier one's.
    const eps = new Map<string, EndpointInfo>();
    for (const slice of slices) {
      const sp = ((slice.ports ?? []) as SlicePort[]).find(
        (x) => (x.name ?? '') === (p.name ?? '') && (x.protocol ?? 'TCP') === protocol
      );
      if (!sp?.port) continue;
      const { keys, endpoints } = sliceEndpoints(slice, sp, svc.metadata.namespace, keep);
      for (let i = 0; i < keys.length; i++) eps.set(keys[i], endpoints[i]);
    }
    // Sorted by "ip:port" (each key once).
    const keys = [...eps.keys()].sort();
    const endpoints = new Array<EndpointInfo>(keys.length);
    for (let i = 0; i < keys.length; i++) endpoints[i] = eps.get(keys[i])!;
    const info: ServicePortInfo = {
      namespace: svc.metadata.namespace!,
      name: svc.metadata.name,
      portName: p.name ?? '',
      protocol,
      port: p.port,
      clusterIP: ip,
      type,
      externalIPs: [...((spec.externalIPs ?? []) as string[])],
      loadBalancerIPs: type === 'LoadBalancer' ? lbIPs : [],
      externalPolicyLocal: false,
      internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
      endpoints
    };
    if ((type === 'NodePort' || type === 'LoadBalancer') && p.nodePort) info.nodePort = p.nodePort;
    if (spec.healthCheckNodePort) info.healthCheckNodePort = spec.healthCheckNodePort;
    if (spec.sessionAffinity === 'ClientIP') {
      info.affinitySeconds = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800;
    }
    info.externalPolicyLocal = externallyAccessible(info) && spec.externalTrafficPolicy === 'Local';
    out.push(info);
  }
  return out;
}

export interface CategorizedEndpoints {
  cluster: EndpointInfo[];
  local: EndpointInfo[];
  allReachable: EndpointInfo[];
  hasAny: boolean;
  usesCluster: boolean;
  usesLocal: boolean;
}

/** pkg/proxy/topology.go CategorizeEndpoints: ready endpoints, falling back to serving-terminating ones. */
export function categorize(sp: ServicePortInfo, nodeName: string): CategorizedEndpoints {
  const usesCluster = !sp.internalPolicyLocal || (externallyAccessible(sp) && !sp.externalPolicyLocal);
  const usesLocal = sp.internalPolicyLocal || sp.externalPolicyLocal;
  const pick = (pred: (e: EndpointInfo) => boolean) => {
    const ready = sp.endpoints.filter((e) => e.ready && pred(e));
    return ready.length ? ready : sp.endpoints.filter((e) => e.serving && e.terminating && pred(e));
  };
  const cluster = usesCluster ? pick(() => true) : [];
  const local = usesLocal ? pick((e) => e.nodeName === nodeName) : [];
  const hasAny = usesCluster ? cluster.length > 0 : pick(() => true).length > 0;
  const seen = new Map<string, EndpointInfo>();
  for (const e of cluster) if (!seen.has(endpointString(e))) seen.set(endpointString(e), e);
  for (const e of local) if (!seen.has(endpointString(e))) seen.set(endpointString(e), e);
  // Sorted by "ip:port" (each key once: the keys are distinct).
  const keys = [...seen.keys()].sort();
  const allReachable = keys.map((k) => seen.get(k)!);
  return { cluster, local, allReachable, hasAny, usesCluster, usesLocal };
}

export function isExternallyAccessible(sp: ServicePortInfo): boolean {
  return externallyAccessible(sp);
}
