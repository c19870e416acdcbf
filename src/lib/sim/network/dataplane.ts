/**
 * What kube-proxy and the CNI plugin programmed on a node, rendered as the node's own tools print
 * it (iptables-save, ipvsadm -Ln, nft list ruleset, ip route, ip addr, /etc/cni/net.d).
 * The networking module's provider.ts computes it.
 */
import type { Cluster } from '../cluster';
import { nodeDataplane } from './provider';

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

type DataplaneDouble = (cluster: Cluster, nodeName: string) => NodeDataplane | undefined;
let testDouble: DataplaneDouble | undefined;

/** Tests only: render every node with this double instead (undefined goes back to provider.ts). */
export function setTestDataplane(d: DataplaneDouble | undefined): void {
  testDouble = d;
}

export function dataplane(cluster: Cluster, nodeName: string): NodeDataplane | undefined {
  return testDouble ? testDouble(cluster, nodeName) : nodeDataplane(cluster, nodeName);
}
