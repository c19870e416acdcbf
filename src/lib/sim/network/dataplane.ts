/**
 * What kube-proxy and the CNI plugin programmed on a node, rendered as the node's own tools print
 * it (iptables-save, ipvsadm -Ln, nft list ruleset, ip route, ip addr, /etc/cni/net.d).
 * Until the networking modules fill it in, a node shows what a fresh node would.
 */
import type { Cluster } from '../cluster';

export interface NodeDataplane {
  iptablesSave(table?: 'nat' | 'filter' | 'mangle'): string;
  /** `iptables -t <table> -L [chain] -n` */
  iptablesList(table: 'nat' | 'filter' | 'mangle', chain?: string): string;
  ipvsadmList(): string;
  nftListRuleset(): string;
  /** The nftables tables on the node, for `nft list tables|table|chain`. */
  nftTables(): NftTableView[];
  ipRoute(): string;
  ipAddr(): string;
  /** Files in /etc/cni/net.d: name → content. */
  cniConfigFiles(): Record<string, string>;
}

export interface NftTableView {
  family: string;
  name: string;
  /** `nft list table <family> <name>` */
  text: string;
  /** chain name → `nft list chain <family> <name> <chain>` */
  chains: Record<string, string>;
}

type DataplaneProvider = (cluster: Cluster, nodeName: string) => NodeDataplane | undefined;
let provider: DataplaneProvider | undefined;

/** The networking module registers the real implementation. */
export function registerDataplaneProvider(p: DataplaneProvider): void {
  provider = p;
}

export function dataplane(cluster: Cluster, nodeName: string): NodeDataplane | undefined {
  return provider?.(cluster, nodeName);
}
