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

/**
 * Where the search for a free address may start, per allocation map (derived, not state): every
 * offset below `from` in `cidr` was taken when the hint was written. A release drops the hint.
 */
const searchFrom = new WeakMap<
  Record<string, string>,
  { cidr: string; start: number; size: number; from: number }
>();

/** The lowest free address from .2 up (.1 is the bridge gateway). */
export function allocateIP(k: Kubelet, rec: PodRec): string {
  const cidr = podCIDR(k);
  const ips = k.state.ips;
  let hint = searchFrom.get(ips);
  if (hint?.cidr !== cidr) {
    const [base, bitsText] = cidr.split('/');
    const bits = parseInt(bitsText, 10);
    hint = { cidr, start: ipToInt(base) >>> 0, size: 2 ** (32 - bits), from: 2 };
  }
  const { start, size } = hint;
  for (let i = Math.max(2, hint.from); i < size - 1; i++) {
    const ip = intToIp((start + i) >>> 0);
    if (!ips[ip]) {
      ips[ip] = rec.key;
      searchFrom.set(ips, { cidr, start, size, from: i + 1 });
      return ip;
    }
  }
  throw new Error(`failed to allocate for range 0: no IP addresses available in range set: ${cidr}`);
}

export function releaseIP(k: Kubelet, rec: PodRec): void {
  if (rec.ip && k.state.ips[rec.ip] === rec.key) {
    delete k.state.ips[rec.ip];
    searchFrom.delete(k.state.ips);
  }
}
