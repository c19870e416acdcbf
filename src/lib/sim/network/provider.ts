/**
 * The node dataplane (network/dataplane.ts contract): what kube-proxy programmed on a node (from its
 * component state) and what the CNI plugin set up, rendered as the node's own tools print it.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { NodeDataplane } from './dataplane';
import {
  buildIptables,
  canaryTables,
  IptablesProxier,
  renderIptablesSave,
  type NodeNet,
  type Table
} from './iptables';
import { buildIpvs, ipvsIptables, IpvsProxier, renderIpvsadm, type IpvsState } from './ipvs';
import {
  buildNftables,
  NFT_FAMILY,
  NFT_TABLE,
  NftablesProxier,
  renderNft,
  renderNftChains
} from './nftables';
import { renderIptablesList } from './listing';
import { kubeProxyOf } from './kubeproxy';
import {
  cniConfigFiles,
  cniPlugin,
  cniMode,
  ipAddr,
  networkExtension,
  nodeAddrs,
  routes,
  type PodAddr
} from './cni';
import { collectServicePorts, type ServicePortInfo } from './model';
import { ciliumServices, renderCiliumServiceList } from './cilium';

export interface NodeProgram {
  node: NodeNet;
  mode: 'iptables' | 'ipvs' | 'nftables' | 'none';
  ports: ServicePortInfo[];
  iptables: Record<Table['name'], Table>;
  ipvs?: IpvsState;
  nft?: ReturnType<typeof buildNftables>;
}

interface Proxiers {
  iptables: IptablesProxier;
  ipvs: IpvsProxier;
  nftables: NftablesProxier;
}
/**
 * What kube-proxy programmed last time, per mode (derived data, not component state), for the
 * nodes looked at most recently: a ruleset of 2,000 Services is megabytes, so only a few are kept.
 */
const proxiers = new Map<object, Proxiers>();
const KEPT_PROXIERS = 4;

function proxiersOf(kp: object): Proxiers {
  let p = proxiers.get(kp);
  if (p) proxiers.delete(kp);
  else p = { iptables: new IptablesProxier(), ipvs: new IpvsProxier(), nftables: new NftablesProxier() };
  proxiers.set(kp, p);
  while (proxiers.size > KEPT_PROXIERS) proxiers.delete(proxiers.keys().next().value!);
  return p;
}

/** What is programmed on `nodeName` right now (rules from kube-proxy's last sync). */
export function nodeProgram(cluster: Cluster, nodeName: string): NodeProgram | undefined {
  const self = nodeAddrs(cluster).find((n) => n.name === nodeName);
  if (!self) return undefined;
  const node: NodeNet = { nodeName, nodeIP: self.ip, clusterCIDR: cluster.config.network.clusterCIDR };
  const kp = kubeProxyOf(cluster, nodeName);
  const mode = kp?.state.programmedMode ?? 'none';
  // With Cilium's kube-proxy replacement the agent, not kube-proxy, watches Services and slices.
  const ports = kubeProxyReplaced(cluster)
    ? collectServicePorts(cluster.api.list('Service'), cluster.api.list('EndpointSlice'))
    : (kp?.state.ports ?? []);
  // What each kube-proxy wrote last time stays with it, so only changed service ports are
  // written again (partial sync); a restored or restarted component starts from nothing.
  const px = kp ? proxiersOf(kp) : undefined;
  if (mode === 'iptables') {
    const tables = px ? px.iptables.build(ports, node).tables : buildIptables(ports, node).tables;
    return { node, mode, ports, iptables: tables };
  }
  if (mode === 'ipvs') {
    const scheduler = kp!.state.scheduler;
    const ipvs = px ? px.ipvs.build(ports, node, scheduler) : buildIpvs(ports, node, scheduler);
    return { node, mode, ports, iptables: ipvsIptables(ipvs, node), ipvs };
  }
  if (mode === 'nftables') {
    const nft = px ? px.nftables.build(ports, node) : buildNftables(ports, node);
    return { node, mode, ports, iptables: canaryTables(), nft };
  }
  return { node, mode, ports, iptables: canaryTables() };
}

export function podAddrsOnNode(cluster: Cluster, nodeName: string): PodAddr[] {
  return cluster.api
    .podsOnNode<KubeObject>(nodeName)
    .filter((p) => p.status?.podIP && !p.spec?.hostNetwork)
    .map((p) => ({ key: `${p.metadata.namespace}/${p.metadata.name}`, ip: p.status.podIP as string }))
    .sort((a, b) => a.ip.localeCompare(b.ip, 'en', { numeric: true }));
}

export function nodeDataplane(cluster: Cluster, nodeName: string): NodeDataplane | undefined {
  const prog = nodeProgram(cluster, nodeName);
  if (!prog) return undefined;
  const all = nodeAddrs(cluster);
  const self = all.find((n) => n.name === nodeName)!;
  const wall = () => cluster.api.epochMs + cluster.now;
  const plugin = cniPlugin(cluster, nodeName);
  const mode = cniMode(cluster);
  return {
    iptablesSave: (table) => renderIptablesSave(prog.iptables, wall(), table),
    iptablesList: (table, chain) => renderIptablesList(prog.iptables[table], chain),
    ipvsadmList: () =>
      prog.ipvs
        ? renderIpvsadm(prog.ipvs)
        : renderIpvsadm({ virtualServers: [], dummyAddresses: [], ipsets: {} }),
    nftListRuleset: () => (prog.nft ? renderNft(prog.nft) : ''),
    nftTables: () =>
      prog.nft
        ? [
            {
              family: NFT_FAMILY,
              name: NFT_TABLE,
              text: renderNft(prog.nft),
              chains: renderNftChains(prog.nft)
            }
          ]
        : [],
    ipRoute: () =>
      routes(
        plugin,
        mode,
        self,
        all.filter((n) => n.name !== nodeName),
        podAddrsOnNode(cluster, nodeName)
      ).join('\n') + '\n',
    ipAddr: () => ipAddr(plugin, mode, self, podAddrsOnNode(cluster, nodeName), prog.ipvs?.dummyAddresses),
    cniConfigFiles: () => cniConfigFiles(plugin, nodeName)
  };
}

/** Cilium with kubeProxyReplacement: kube-proxy is absent and Services live in eBPF maps. */
export function kubeProxyReplaced(cluster: Cluster): boolean {
  return cluster.config.network.cni === 'cilium' && networkExtension(cluster).kubeProxyReplacement === true;
}

/** `cilium-dbg service list` on a node when Cilium replaces kube-proxy; undefined otherwise. */
export function ciliumServiceList(cluster: Cluster, nodeName: string): string | undefined {
  if (!kubeProxyReplaced(cluster)) return undefined;
  const prog = nodeProgram(cluster, nodeName);
  return prog ? renderCiliumServiceList(ciliumServices(prog.ports, nodeName, prog.node.nodeIP)) : undefined;
}

/** Turn Cilium's kube-proxy replacement on or off (scenario setting); kube-proxies go away or come back. */
export function setKubeProxyReplacement(cluster: Cluster, on: boolean): void {
  networkExtension(cluster).kubeProxyReplacement = on;
}

/**
 * The node's kube-proxy dump rendered from its first `limit` service ports only: the view's
 * excerpt of a ruleset too large to print (5,000 Services are 160,000 iptables rules). The rules
 * are the ones kube-proxy wrote for those ports; the counts of the whole ruleset come from the cost
 * model. Undefined where kube-proxy programmed nothing.
 */
export function kubeProxyDumpExcerpt(
  cluster: Cluster,
  nodeName: string,
  dump: 'iptables' | 'ipvs' | 'nft',
  limit: number
): string | undefined {
  const self = nodeAddrs(cluster).find((n) => n.name === nodeName);
  const kp = kubeProxyOf(cluster, nodeName);
  const mode = kp?.state.programmedMode;
  if (!self || !kp || !mode) return undefined;
  const node: NodeNet = { nodeName, nodeIP: self.ip, clusterCIDR: cluster.config.network.clusterCIDR };
  const ports = kp.state.ports.slice(0, limit);
  const wall = cluster.api.epochMs + cluster.now;
  if (dump === 'iptables') {
    const tables =
      mode === 'iptables'
        ? buildIptables(ports, node).tables
        : mode === 'ipvs'
          ? ipvsIptables(buildIpvs(ports, node, kp.state.scheduler), node)
          : canaryTables();
    return renderIptablesSave(tables, wall);
  }
  if (dump === 'ipvs')
    return renderIpvsadm(
      mode === 'ipvs'
        ? buildIpvs(ports, node, kp.state.scheduler)
        : { virtualServers: [], dummyAddresses: [], ipsets: {} }
    );
  return mode === 'nftables' ? renderNft(buildNftables(ports, node)) : '';
}
