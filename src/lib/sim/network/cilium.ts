/**
 * Cilium with kube-proxy replacement: no kube-proxy and no KUBE-* rules; the agent programs
 * Services into eBPF maps (lb4_services_v2 / lb4_backends_v3) looked up per connection by the
 * socket-LB and tc programs. Rendered like `cilium-dbg service list` (column layout modelled).
 */
import { categorize, endpointString, type ServicePortInfo } from './model';

export interface CiliumService {
  id: number;
  frontend: string;
  type: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalIPs';
  backends: string[];
}

export function ciliumServices(ports: ServicePortInfo[], nodeName: string, nodeIP: string): CiliumService[] {
  const out: CiliumService[] = [];
  let id = 0;
  for (const sp of ports) {
    const cat = categorize(sp, nodeName);
    const proto = sp.protocol;
    const internal = (sp.internalPolicyLocal ? cat.local : cat.cluster).map(
      (e) => `${endpointString(e)}/${proto}`
    );
    const external = (sp.externalPolicyLocal ? cat.local : cat.cluster).map(
      (e) => `${endpointString(e)}/${proto}`
    );
    out.push({
      id: ++id,
      frontend: `${sp.clusterIP}:${sp.port}/${proto}`,
      type: 'ClusterIP',
      backends: internal
    });
    for (const ip of sp.externalIPs)
      out.push({ id: ++id, frontend: `${ip}:${sp.port}/${proto}`, type: 'ExternalIPs', backends: external });
    if (sp.nodePort) {
      out.push({
        id: ++id,
        frontend: `0.0.0.0:${sp.nodePort}/${proto}`,
        type: 'NodePort',
        backends: external
      });
      out.push({
        id: ++id,
        frontend: `${nodeIP}:${sp.nodePort}/${proto}`,
        type: 'NodePort',
        backends: external
      });
    }
    for (const ip of sp.loadBalancerIPs)
      out.push({ id: ++id, frontend: `${ip}:${sp.port}/${proto}`, type: 'LoadBalancer', backends: external });
  }
  return out;
}

export function renderCiliumServiceList(services: CiliumService[]): string {
  const lines = [`${'ID'.padEnd(5)}${'Frontend'.padEnd(24)}${'Service Type'.padEnd(15)}Backend`];
  for (const s of services) {
    const head = `${String(s.id).padEnd(5)}${s.frontend.padEnd(24)}${s.type.padEnd(15)}`;
    if (!s.backends.length) lines.push(head.trimEnd());
    s.backends.forEach((b, i) => lines.push(`${i === 0 ? head : ' '.repeat(44)}${i + 1} => ${b} (active)`));
  }
  return lines.join('\n') + '\n';
}
