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
    const ports = servicePorts(svc, own);
    if (cacheable) {
      for (const p of ports) deepFreeze(p);
      builtPorts.set(svc, { slices: own, ports });
    }
    for (const p of ports) out.push(p);
  }
  return out.sort((a, b) => {
    const x = portNameString(a) + '/' + a.protocol;
    const y = portNameString(b) + '/' + b.protocol;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** One Service's ports with their endpoints from the Service's IPv4 slices. */
function servicePorts(svc: KubeObject, slices: KubeObject[]): ServicePortInfo[] {
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
    const eps = new Map<string, EndpointInfo>();
    for (const slice of slices) {
      const sp = ((slice.ports ?? []) as { name?: string; port?: number; protocol?: string }[]).find(
        (x) => (x.name ?? '') === (p.name ?? '') && (x.protocol ?? 'TCP') === protocol
      );
      if (!sp?.port) continue;
      for (const e of (slice.endpoints ?? []) as {
        addresses: string[];
        conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
        nodeName?: string;
        zone?: string;
        targetRef?: { namespace?: string; name?: string };
      }[]) {
        const c = e.conditions ?? {};
        // A nil ready condition means ready; serving defaults to ready (discovery/v1 EndpointConditions).
        const ready = c.ready !== false;
        const ep: EndpointInfo = {
          ip: e.addresses[0],
          port: sp.port,
          ready,
          serving: c.serving ?? ready,
          terminating: c.terminating === true
        };
        if (e.nodeName) ep.nodeName = e.nodeName;
        if (e.zone) ep.zone = e.zone;
        if (e.targetRef?.name)
          ep.pod = `${e.targetRef.namespace ?? svc.metadata.namespace}/${e.targetRef.name}`;
        eps.set(endpointString(ep), ep);
      }
    }
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
      endpoints: [...eps.values()].sort((a, b) => (endpointString(a) < endpointString(b) ? -1 : 1))
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
