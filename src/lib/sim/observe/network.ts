/**
 * The network view's read model for one node: the kube-proxy mode in force, its last sync, the
 * dump the learner chose (rendered as the node's own tools print it) and the trace endpoints.
 * Only the chosen dump is rendered: an iptables-save of a large cluster is not cheap.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { dataplane } from '../network/dataplane';
import { kubeProxyOf, type KubeProxy } from '../network/kubeproxy';
import { ciliumServiceList, kubeProxyReplaced, nodeProgram } from '../network/provider';

export type NetworkDump = 'iptables' | 'ipvs' | 'nft' | 'route' | 'addr' | 'cni' | 'cilium';

export interface NetworkSubscription {
  node: string;
  /** The dump to render; the mode's own dump when absent. */
  dump?: NetworkDump;
}

export interface NetworkModel {
  node: string;
  /** kube-proxy's mode on the node, or 'none' when Cilium replaces kube-proxy. */
  mode: string;
  /** Cilium is the CNI and replaces kube-proxy: `cilium-dbg service list` is offered. */
  cilium: boolean;
  last?: { t: number; full: boolean; changed: number; durationMs: number };
  services: number;
  endpointsPerService: number;
  dump: NetworkDump;
  text: string;
  /** Pods with an IP (trace sources), at most 300. */
  tracePods: string[];
  /** `service.namespace:port` (trace destinations). */
  traceServices: string[];
  /** kube-proxy's mode on every node, in node order. */
  proxyModes: { node: string; mode: string; running: boolean }[];
  /** Mode switches (kube-proxy restarted in another mode and cleaned up the old rules), newest last. */
  modeChanges: { t: number; node: string; from: string; to: string }[];
}

/** The dump a mode shows first. */
export function defaultDump(mode: string, cilium: boolean): NetworkDump {
  if (cilium) return 'cilium';
  return mode === 'ipvs' ? 'ipvs' : mode === 'nftables' ? 'nft' : 'iptables';
}

export function networkModel(cluster: Cluster, sub: NetworkSubscription): NetworkModel {
  const { node } = sub;
  const prog = nodeProgram(cluster, node);
  const dp = dataplane(cluster, node);
  const kp = kubeProxyOf(cluster, node);
  const ports = prog?.ports ?? [];
  const endpoints = ports.reduce((n, p) => n + p.endpoints.length, 0);
  const ciliumText = ciliumServiceList(cluster, node);
  const cilium = ciliumText !== undefined;
  const mode = kubeProxyReplaced(cluster) ? 'none' : (kp?.state.mode ?? prog?.mode ?? 'none');
  const dump = sub.dump ?? defaultDump(mode, cilium);
  const last = kp?.state.syncs.at(-1);
  let text = '';
  if (dp) {
    switch (dump) {
      case 'iptables':
        text = dp.iptablesSave();
        break;
      case 'ipvs':
        text = dp.ipvsadmList();
        break;
      case 'nft':
        text = dp.nftListRuleset();
        break;
      case 'route':
        text = dp.ipRoute();
        break;
      case 'addr':
        text = dp.ipAddr();
        break;
      case 'cilium':
        text = ciliumText ?? '';
        break;
      case 'cni':
        text = Object.entries(dp.cniConfigFiles())
          .map(([f, c]) => `# /etc/cni/net.d/${f}\n${c}`)
          .join('\n');
        break;
    }
  }
  const tracePods = cluster.api
    .list<KubeObject>('Pod')
    .filter((p) => p.status?.podIP && !p.metadata.deletionTimestamp)
    .map((p) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`)
    .sort()
    .slice(0, 300);
  const traceServices = cluster.api
    .list<KubeObject>('Service')
    .filter((sv) => sv.spec?.clusterIP && sv.spec.clusterIP !== 'None')
    .flatMap((sv) =>
      ((sv.spec?.ports ?? []) as { port: number }[]).map(
        (p) => `${sv.metadata.name}.${sv.metadata.namespace ?? 'default'}:${p.port}`
      )
    )
    // One entry per address:port (kube-dns serves 53 over UDP and TCP).
    .filter((x, i, all) => all.indexOf(x) === i)
    .sort();
  const proxies = cluster
    .componentsOfKind<KubeProxy>('kube-proxy')
    .map((p) => ({ node: p.nodeName, mode: p.state.mode, running: !p.state.stopped }))
    .sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  const modeChanges = cluster
    .componentsOfKind<KubeProxy>('kube-proxy')
    .flatMap((p) => p.state.cleanups.map((c) => ({ t: c.t, node: p.nodeName, from: c.from, to: c.to })))
    .sort((a, b) => a.t - b.t || (a.node < b.node ? -1 : 1))
    .slice(-12);
  return {
    node,
    mode,
    cilium,
    proxyModes: proxies,
    modeChanges,
    ...(last
      ? {
          last: {
            t: last.t,
            full: last.full,
            changed: last.changed.length,
            durationMs: last.durationMs
          }
        }
      : {}),
    services: ports.length,
    endpointsPerService: ports.length ? Math.max(1, Math.round(endpoints / ports.length)) : 10,
    dump,
    text,
    tracePods,
    traceServices
  };
}
