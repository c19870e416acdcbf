/**
 * CNI plugins as a node sees them: the config file in /etc/cni/net.d, the tunnel or bridge devices,
 * and the routes to other nodes' pod ranges (Calico BGP / IP-in-IP / VXLAN, Cilium eBPF with VXLAN or
 * native routing, Flannel VXLAN `flannel.1` VNI 1 UDP 8472 or host-gw).
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { sha256Hex } from './hash';
import { addrAt, parseCidr, intToIp, subnet } from './ip';

export type CniPlugin = 'calico' | 'cilium' | 'flannel' | 'none';
export type CniMode = 'bgp' | 'ipip' | 'vxlan' | 'native' | 'host-gw';

export interface NodeAddr {
  name: string;
  ip: string;
  podCIDR: string;
}

interface NetworkExtension {
  /** Encapsulation per plugin, when a scenario overrides the default. */
  cniMode?: CniMode;
  /** Cilium kube-proxy replacement. */
  kubeProxyReplacement?: boolean;
}

export function networkExtension(cluster: Cluster): NetworkExtension {
  const ext = (cluster.extensions.network ??= {}) as NetworkExtension;
  return ext;
}

/** Default data path per plugin: Calico BGP without encapsulation, Cilium VXLAN, Flannel VXLAN. */
export function cniMode(cluster: Cluster): CniMode {
  const m = networkExtension(cluster).cniMode;
  if (m) return m;
  const p = cluster.config.network.cni;
  // A cluster that starts without a CNI gets Calico when InstallCNI runs: BGP, its default.
  return p === 'calico' || p === 'none' ? 'bgp' : 'vxlan';
}

/**
 * A CNI config is present on the node: the runtime reports NetworkReady=true. The node host owns
 * /etc/cni/net.d (RemoveCNI empties it); a Node without a simulated machine has the cluster's CNI.
 */
export function cniInstalled(cluster: Cluster, nodeName: string): boolean {
  const host = cluster.nodeHost(nodeName);
  return host ? host.cni.installed : cluster.config.network.cni !== 'none';
}

/** The plugin whose config is in the node's /etc/cni/net.d, or 'none'. */
export function cniPlugin(cluster: Cluster, nodeName: string): CniPlugin {
  const host = cluster.nodeHost(nodeName);
  return host ? host.cni.status().plugin : cluster.config.network.cni;
}

/** The runtime's NetworkReady=false text when /etc/cni/net.d is empty (containerd). */
export const CNI_NOT_READY_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

export function nodeInternalIP(node: KubeObject): string | undefined {
  return (node.status?.addresses as { type: string; address: string }[] | undefined)?.find(
    (a) => a.type === 'InternalIP'
  )?.address;
}

/**
 * Nodes with their IP and pod CIDR: spec.podCIDR when node IPAM set it, else the kubelet's fallback
 * /24 (index kept in extensions['node/podCIDRs']), else the /24 by join order.
 */
export function nodeAddrs(cluster: Cluster): NodeAddr[] {
  const nodes = [...cluster.api.list('Node')].sort(
    (a, b) =>
      cluster.api.timeOf(a.metadata.creationTimestamp as string) -
        cluster.api.timeOf(b.metadata.creationTimestamp as string) ||
      (a.metadata.name < b.metadata.name ? -1 : 1)
  );
  const fallback = (cluster.extensions['node/podCIDRs'] as Record<string, number> | undefined) ?? {};
  return nodes.map((n, i) => ({
    name: n.metadata.name,
    ip: nodeInternalIP(n) ?? addrAt('10.0.0.0/24', 11 + i),
    podCIDR:
      (n.spec?.podCIDR as string | undefined) ??
      subnet(cluster.config.network.clusterCIDR, 24, fallback[n.metadata.name] ?? i)
  }));
}

/** Calico's IPAM block (/26) a node owns: the first /26 of its range. */
export function calicoBlock(podCIDR: string): string {
  return subnet(podCIDR, 26, 0);
}

export function tunnelAddress(plugin: CniPlugin, mode: CniMode, podCIDR: string): string | undefined {
  if (plugin === 'flannel' && mode === 'vxlan') return addrAt(podCIDR, 0);
  if (plugin === 'calico' && (mode === 'ipip' || mode === 'vxlan')) return addrAt(calicoBlock(podCIDR), 0);
  if (plugin === 'cilium') return addrAt(podCIDR, 1);
  return undefined;
}

/** Host-side interface name of a pod's veth: cali<11 hex> (Calico), lxc<12 hex> (Cilium), veth<8 hex> (bridge). */
export function podInterface(plugin: CniPlugin, podKey: string): string {
  const h = sha256Hex(podKey);
  if (plugin === 'calico') return `cali${h.slice(0, 11)}`;
  if (plugin === 'cilium') return `lxc${h.slice(0, 12)}`;
  return `veth${h.slice(0, 8)}`;
}

export function cniConfigFiles(plugin: CniPlugin, nodeName: string): Record<string, string> {
  const j = (o: unknown) => JSON.stringify(o, null, 2) + '\n';
  switch (plugin) {
    case 'calico':
      return {
        '10-calico.conflist': j({
          name: 'k8s-pod-network',
          cniVersion: '0.3.1',
          plugins: [
            {
              type: 'calico',
              log_level: 'info',
              log_file_path: '/var/log/calico/cni/cni.log',
              datastore_type: 'kubernetes',
              nodename: nodeName,
              mtu: 0,
              ipam: { type: 'calico-ipam' },
              policy: { type: 'k8s' },
              kubernetes: { kubeconfig: '/etc/cni/net.d/calico-kubeconfig' }
            },
            { type: 'portmap', snat: true, capabilities: { portMappings: true } },
            { type: 'bandwidth', capabilities: { bandwidth: true } }
          ]
        }),
        'calico-kubeconfig':
          '# Kubeconfig file for Calico CNI plugin.\napiVersion: v1\nkind: Config\nclusters:\n- name: local\n  cluster:\n    server: https://10.96.0.1:443\n    certificate-authority-data: "LS0tLS1CRUdJTi...="\nusers:\n- name: calico\n  user:\n    token: <redacted>\ncontexts:\n- name: calico-context\n  context:\n    cluster: local\n    user: calico\ncurrent-context: calico-context\n'
      };
    case 'cilium':
      return {
        '05-cilium.conflist': j({
          cniVersion: '0.3.1',
          name: 'cilium',
          plugins: [
            { type: 'cilium-cni', 'enable-debug': false, 'log-file': '/var/run/cilium/cilium-cni.log' }
          ]
        })
      };
    case 'flannel':
      return {
        '10-flannel.conflist': j({
          name: 'cbr0',
          cniVersion: '0.3.1',
          plugins: [
            { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
            { type: 'portmap', capabilities: { portMappings: true } }
          ]
        })
      };
    default:
      return {};
  }
}

export interface PodAddr {
  key: string;
  ip: string;
}

function gateway(nodeIP: string): { net: string; gw: string } {
  const c = parseCidr(`${nodeIP}/24`);
  return { net: `${intToIp(c.base)}/24`, gw: intToIp(c.base + 1) };
}

/** `ip route` lines (iproute2 prints a trailing space on most of them). */
export function routes(
  plugin: CniPlugin,
  mode: CniMode,
  self: NodeAddr,
  others: NodeAddr[],
  pods: PodAddr[]
): string[] {
  const { net, gw } = gateway(self.ip);
  const out = [`default via ${gw} dev eth0 proto dhcp src ${self.ip} metric 100 `];
  if (plugin === 'none')
    return [...out, `${net} dev eth0 proto kernel scope link src ${self.ip} metric 100 `];
  if (plugin === 'calico') {
    const block = calicoBlock(self.podCIDR);
    out.push(`${net} dev eth0 proto kernel scope link src ${self.ip} metric 100 `);
    for (const o of others) {
      const b = calicoBlock(o.podCIDR);
      if (mode === 'ipip') out.push(`${b} via ${o.ip} dev tunl0 proto bird onlink `);
      else if (mode === 'vxlan') out.push(`${b} via ${addrAt(b, 0)} dev vxlan.calico onlink `);
      else out.push(`${b} via ${o.ip} dev eth0 proto bird `);
    }
    out.push(`blackhole ${block} proto bird `);
    for (const p of pods) out.push(`${p.ip} dev ${podInterface('calico', p.key)} scope link `);
    return out;
  }
  if (plugin === 'flannel') {
    out.push(`${net} dev eth0 proto kernel scope link src ${self.ip} metric 100 `);
    for (const o of others) {
      if (mode === 'host-gw') out.push(`${o.podCIDR} via ${o.ip} dev eth0 `);
      else out.push(`${o.podCIDR} via ${addrAt(o.podCIDR, 0)} dev flannel.1 onlink `);
    }
    out.push(`${self.podCIDR} dev cni0 proto kernel scope link src ${addrAt(self.podCIDR, 1)} `);
    return out;
  }
  const host = addrAt(self.podCIDR, 1);
  out.push(`${net} dev eth0 proto kernel scope link src ${self.ip} metric 100 `);
  for (const o of others) {
    if (mode === 'native') out.push(`${o.podCIDR} via ${o.ip} dev eth0 proto kernel `);
    else out.push(`${o.podCIDR} via ${host} dev cilium_host proto kernel src ${host} mtu 1450 `);
  }
  out.push(`${self.podCIDR} via ${host} dev cilium_host proto kernel src ${host} `);
  out.push(`${host} dev cilium_host proto kernel scope link `);
  return out;
}

function mac(seed: string): string {
  const h = sha256Hex(seed);
  return ['02', h.slice(0, 2), h.slice(2, 4), h.slice(4, 6), h.slice(6, 8), h.slice(8, 10)].join(':');
}

/** `ip addr` for the node: lo, eth0, CNI devices, kube-ipvs0 in IPVS mode, pod veths. */
export function ipAddr(
  plugin: CniPlugin,
  mode: CniMode,
  self: NodeAddr,
  pods: PodAddr[],
  ipvsAddresses: string[] | undefined
): string {
  const lines: string[] = [];
  let idx = 0;
  const dev = (head: string, link: string, inets: string[]) => {
    lines.push(`${++idx}: ${head}`, `    ${link}`);
    for (const i of inets) lines.push(`    ${i}`, '       valid_lft forever preferred_lft forever');
  };
  const { net } = gateway(self.ip);
  const brd = intToIp(parseCidr(net).base + 255);
  dev(
    'lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000',
    'link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
    ['inet 127.0.0.1/8 scope host lo']
  );
  dev(
    'eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000',
    `link/ether ${mac(self.name + '/eth0')} brd ff:ff:ff:ff:ff:ff`,
    [`inet ${self.ip}/24 brd ${brd} scope global eth0`]
  );
  const tun = tunnelAddress(plugin, mode, self.podCIDR);
  if (plugin === 'calico' && mode === 'ipip')
    dev(
      'tunl0@NONE: <NOARP,UP,LOWER_UP> mtu 1480 qdisc noqueue state UNKNOWN group default qlen 1000',
      'link/ipip 0.0.0.0 brd 0.0.0.0',
      [`inet ${tun}/32 brd ${tun} scope global tunl0`]
    );
  if (plugin === 'calico' && mode === 'vxlan')
    dev(
      'vxlan.calico: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN group default qlen 1000',
      `link/ether ${mac(self.name + '/vxlan')} brd ff:ff:ff:ff:ff:ff`,
      [`inet ${tun}/32 scope global vxlan.calico`]
    );
  if (plugin === 'flannel' && mode === 'vxlan')
    dev(
      'flannel.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN group default',
      `link/ether ${mac(self.name + '/flannel.1')} brd ff:ff:ff:ff:ff:ff`,
      [`inet ${tun}/32 scope global flannel.1`]
    );
  if (plugin === 'flannel')
    dev(
      'cni0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default qlen 1000',
      `link/ether ${mac(self.name + '/cni0')} brd ff:ff:ff:ff:ff:ff`,
      [`inet ${addrAt(self.podCIDR, 1)}/24 brd ${addrAt(self.podCIDR, 255)} scope global cni0`]
    );
  if (plugin === 'cilium') {
    dev(
      'cilium_net@cilium_host: <BROADCAST,MULTICAST,NOARP,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default qlen 1000',
      `link/ether ${mac(self.name + '/cilium_net')} brd ff:ff:ff:ff:ff:ff`,
      []
    );
    dev(
      'cilium_host@cilium_net: <BROADCAST,MULTICAST,NOARP,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default qlen 1000',
      `link/ether ${mac(self.name + '/cilium_host')} brd ff:ff:ff:ff:ff:ff`,
      [`inet ${tun}/32 scope global cilium_host`]
    );
    if (mode === 'vxlan')
      dev(
        'cilium_vxlan: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UNKNOWN group default qlen 1000',
        `link/ether ${mac(self.name + '/cilium_vxlan')} brd ff:ff:ff:ff:ff:ff`,
        []
      );
  }
  if (ipvsAddresses)
    dev(
      'kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN group default',
      `link/ether ${mac(self.name + '/kube-ipvs0')} brd ff:ff:ff:ff:ff:ff`,
      ipvsAddresses.map((a) => `inet ${a}/32 scope global kube-ipvs0`)
    );
  if (plugin !== 'none')
    for (const p of pods) {
      const ifname = podInterface(plugin, p.key);
      const peer = plugin === 'flannel' ? ' master cni0' : '';
      dev(
        `${ifname}@if2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue${peer} state UP group default qlen 1000`,
        `link/ether ${mac(p.key)} brd ff:ff:ff:ff:ff:ff link-netns cni-${sha256Hex(p.key + 'ns').slice(0, 8)}-${sha256Hex(p.key + 'ns').slice(8, 12)}`,
        []
      );
    }
  return lines.join('\n') + '\n';
}

/** How a packet crosses to another node's pod CIDR with this plugin and mode. */
export function encapsulation(plugin: CniPlugin, mode: CniMode): { device: string; description: string } {
  if (plugin === 'calico') {
    if (mode === 'ipip') return { device: 'tunl0', description: 'IP-in-IP (protocol 4) to the peer node' };
    if (mode === 'vxlan') return { device: 'vxlan.calico', description: 'VXLAN (UDP 4789) to the peer node' };
    return {
      device: 'eth0',
      description: 'plain routing: BGP (BIRD) route to the peer node, no encapsulation'
    };
  }
  if (plugin === 'flannel') {
    if (mode === 'host-gw') return { device: 'eth0', description: 'host-gw: plain route to the peer node' };
    return { device: 'flannel.1', description: 'VXLAN VNI 1 over UDP 8472 to the peer node' };
  }
  if (plugin === 'cilium') {
    if (mode === 'native') return { device: 'eth0', description: 'eBPF native routing to the peer node' };
    return { device: 'cilium_vxlan', description: 'eBPF, VXLAN (UDP 8472) to the peer node' };
  }
  return { device: 'eth0', description: 'no CNI' };
}
