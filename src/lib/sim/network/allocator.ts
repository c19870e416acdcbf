/**
 * Service IP and NodePort allocation as kube-apiserver does it in admission/registry: ClusterIPs from
 * the service CIDR (the first address belongs to `default/kubernetes`; dynamic picks come from the
 * upper band, KEP-3070), NodePorts from 30000-32767 (dynamic picks above the static band, KEP-3668),
 * plus Service defaulting. Picks use the engine's seeded random, so a scenario and seed give the
 * same addresses every run. Allocations are derived from stored Services, so snapshots need no state.
 */
import type { AdmissionPlugin, ApiServer } from '../api/apiserver';
import { invalid } from '../api/errors';
import type { KubeObject } from '../api/types';
import type { Cluster } from '../cluster';
import { addrAt, cidrContains, intToIp, parseCidr } from './ip';

export const NODE_PORT_RANGE = { min: 30000, max: 32767 };

/** Lower band reserved for static picks: min(max(16, size/16), 256) IPs; min(max(16, size/32), 128) ports. */
function ipBand(size: number): number {
  return Math.min(Math.max(16, Math.floor(size / 16)), 256);
}
function portBand(size: number): number {
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

interface Port {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
  nodePort?: number;
}

function usedIPs(api: ApiServer, except?: KubeObject): Set<string> {
  const s = new Set<string>();
  for (const svc of api.list('Service')) {
    if (except && svc.metadata.uid === except.metadata.uid) continue;
    const ip = svc.spec?.clusterIP;
    if (ip && ip !== 'None') s.add(ip);
  }
  return s;
}

/** Whether a Service holds `ip` (one pass, no set: a pick usually succeeds at the first try). */
function ipInUse(api: ApiServer, ip: string): boolean {
  for (const svc of api.list('Service')) if (svc.spec?.clusterIP === ip) return true;
  return false;
}

function usedPorts(api: ApiServer, except?: KubeObject): Set<number> {
  const s = new Set<number>();
  for (const svc of api.list('Service')) {
    if (except && svc.metadata.uid === except.metadata.uid) continue;
    for (const p of (svc.spec?.ports ?? []) as Port[]) if (p.nodePort) s.add(p.nodePort);
    if (svc.spec?.healthCheckNodePort) s.add(svc.spec.healthCheckNodePort);
  }
  return s;
}

export function serviceAllocator(cluster: Cluster): AdmissionPlugin {
  /** Objects whose ClusterIP admission has just picked from the free addresses (validate need not look again). */
  const picked = new WeakSet<KubeObject>();
  const pickIP = (api: ApiServer, name: string): string => {
    const cidr = cluster.config.network.serviceCIDR;
    const c = parseCidr(cidr);
    const band = ipBand(c.size);
    const usable = c.size - 2;
    for (let tries = 0; tries < 64; tries++) {
      const off = band + cluster.engine.random.int(usable - band) + 1;
      const ip = intToIp(c.base + off);
      if (!ipInUse(api, ip)) return ip;
    }
    const used = usedIPs(api);
    for (let off = 1; off <= usable; off++)
      if (!used.has(intToIp(c.base + off))) return intToIp(c.base + off);
    throw invalid('Service', name, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message: `Internal error: failed to allocate a serviceIP: range is full`
      }
    ]);
  };
  const pickPort = (used: Set<number>): number => {
    const size = NODE_PORT_RANGE.max - NODE_PORT_RANGE.min + 1;
    const band = portBand(size);
    for (let tries = 0; tries < 64; tries++) {
      const p = NODE_PORT_RANGE.min + band + cluster.engine.random.int(size - band);
      if (!used.has(p)) return p;
    }
    for (let p = NODE_PORT_RANGE.min; p <= NODE_PORT_RANGE.max; p++) if (!used.has(p)) return p;
    throw new Error('range is full');
  };
  return {
    name: 'ServiceAllocation',
    admit(op, obj, old, api) {
      if (obj.kind !== 'Service' || op === 'DELETE') return;
      // The stored spec itself (a status write): its addresses and ports were allocated then.
      if (op === 'UPDATE' && obj.spec === old?.spec) return;
      const spec = (obj.spec ??= {});
      spec.type ??= 'ClusterIP';
      if (spec.type === 'ExternalName') return;
      spec.sessionAffinity ??= 'None';
      if (spec.sessionAffinity === 'ClientIP')
        spec.sessionAffinityConfig ??= { clientIP: { timeoutSeconds: 10800 } };
      spec.internalTrafficPolicy ??= 'Cluster';
      if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      for (const p of (spec.ports ?? []) as Port[]) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
      if (op === 'UPDATE' && old?.spec?.clusterIP && !spec.clusterIP) spec.clusterIP = old.spec.clusterIP;
      if (!spec.clusterIP) {
        spec.clusterIP =
          obj.metadata.namespace === 'default' && obj.metadata.name === 'kubernetes'
            ? addrAt(cluster.config.network.serviceCIDR, 1)
            : pickIP(api, obj.metadata.name);
        picked.add(obj);
      }
      spec.clusterIPs ??= [spec.clusterIP];
      if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
        const used = usedPorts(api, old);
        const oldPorts = (old?.spec?.ports ?? []) as Port[];
        for (const p of spec.ports as Port[]) {
          if (p.nodePort) continue;
          const prev = oldPorts.find(
            (o) => o.port === p.port && (o.protocol ?? 'TCP') === p.protocol
          )?.nodePort;
          p.nodePort = prev ?? pickPort(used);
          used.add(p.nodePort);
        }
        if (
          spec.type === 'LoadBalancer' &&
          spec.externalTrafficPolicy === 'Local' &&
          !spec.healthCheckNodePort
        ) {
          spec.healthCheckNodePort = old?.spec?.healthCheckNodePort ?? pickPort(used);
        }
      }
    },
    validate(op, obj, old, api) {
      if (obj.kind !== 'Service' || op === 'DELETE') return;
      const spec = obj.spec ?? {};
      const name = obj.metadata.name;
      const ip = spec.clusterIP as string | undefined;
      if (ip && ip !== 'None' && spec.type !== 'ExternalName') {
        if (old?.spec?.clusterIP && old.spec.clusterIP !== ip)
          throw invalid('Service', name, [
            {
              reason: 'FieldValueInvalid',
              field: 'spec.clusterIPs[0]',
              message: `Invalid value: []string{"${ip}"}: may not change once set`
            }
          ]);
        if (!cidrContains(cluster.config.network.serviceCIDR, ip))
          throw invalid('Service', name, [
            {
              reason: 'FieldValueInvalid',
              field: 'spec.clusterIPs',
              message: `Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cluster.config.network.serviceCIDR}`
            }
          ]);
        if (!old && !picked.has(obj) && usedIPs(api).has(ip))
          throw invalid('Service', name, [
            {
              reason: 'FieldValueInvalid',
              field: 'spec.clusterIPs',
              message: `Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`
            }
          ]);
      }
      const ports = (spec.ports ?? []) as Port[];
      // Most Services have no NodePort: no need to collect the ones in use.
      const used = ports.some((p) => p.nodePort) ? usedPorts(api, old) : new Set<number>();
      ports.forEach((p, i) => {
        if (!p.nodePort) return;
        if (p.nodePort < NODE_PORT_RANGE.min || p.nodePort > NODE_PORT_RANGE.max)
          throw invalid('Service', name, [
            {
              reason: 'FieldValueInvalid',
              field: `spec.ports[${i}].nodePort`,
              message: `Invalid value: ${p.nodePort}: provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.min}-${NODE_PORT_RANGE.max}`
            }
          ]);
        if (
          used.has(p.nodePort) &&
          !((old?.spec?.ports ?? []) as Port[]).some((o) => o.nodePort === p.nodePort)
        )
          throw invalid('Service', name, [
            {
              reason: 'FieldValueInvalid',
              field: `spec.ports[${i}].nodePort`,
              message: `Invalid value: ${p.nodePort}: provided port is already allocated`
            }
          ]);
      });
    }
  };
}

/** Install the allocator (the admission chain calls this; see the report for the line to add). */
export function installServiceAllocator(api: ApiServer, cluster: Cluster): void {
  if (!api.admission.some((p) => p.name === 'ServiceAllocation'))
    api.admission.unshift(serviceAllocator(cluster));
}
