/**
 * Pod IPs, host-local style: from node.spec.podCIDR when the controller manager assigned one,
 * otherwise from a per-node /24 carved out of the cluster CIDR (kept in cluster.extensions so
 * every node gets a distinct range and snapshots keep it).
 */
import type { KubeObject } from '../api/types';
import type { Kubelet } from './kubelet';
import type { PodRec } from './state';
import { intToIp, ipToInt } from '../network/ip';

const EXT_KEY = 'node/podCIDRs';

/** The node's fallback /24: the n-th /24 of the cluster CIDR, n in order of first use. */
function fallbackCIDR(k: Kubelet): string {
  const ext = (k.cluster.extensions[EXT_KEY] as Record<string, number> | undefined) ?? {};
  if (ext[k.name] === undefined) {
    ext[k.name] = Object.keys(ext).length;
    k.cluster.extensions[EXT_KEY] = ext;
  }
  const [base] = k.cluster.config.network.clusterCIDR.split('/');
  return `${intToIp((ipToInt(base) + ext[k.name] * 256) >>> 0)}/24`;
}

export function podCIDR(k: Kubelet): string {
  const node = k.cluster.api.tryGet<KubeObject>('Node', undefined, k.name);
  return (node?.spec?.podCIDR as string | undefined) ?? fallbackCIDR(k);
}

/** The lowest free address from .2 up (.1 is the bridge gateway). */
export function allocateIP(k: Kubelet, rec: PodRec): string {
  const [base, bitsText] = podCIDR(k).split('/');
  const bits = parseInt(bitsText, 10);
  const start = ipToInt(base) >>> 0;
  const size = 2 ** (32 - bits);
  for (let i = 2; i < size - 1; i++) {
    const ip = intToIp((start + i) >>> 0);
    if (!k.state.ips[ip]) {
      k.state.ips[ip] = rec.key;
      return ip;
    }
  }
  throw new Error(`failed to allocate for range 0: no IP addresses available in range set: ${podCIDR(k)}`);
}

export function releaseIP(k: Kubelet, rec: PodRec): void {
  if (rec.ip && k.state.ips[rec.ip] === rec.key) delete k.state.ips[rec.ip];
}
