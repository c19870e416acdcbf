/**
 * The network view's read model for one node: the kube-proxy mode in force, its last sync, the
 * dump the learner chose (rendered as the node's own tools print it) and the trace endpoints.
 * Only the chosen dump is rendered: an iptables-save of a large cluster is not cheap.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { dataplane } from '../network/dataplane';
import { kubeProxyOf, type KubeProxy } from '../network/kubeproxy';
import { firstPacketLookup, rules, type Lookup, type RuleCount } from '../network/costmodel';
import { ciliumServiceList, kubeProxyDumpExcerpt, kubeProxyReplaced, nodeProgram } from '../network/provider';

/** Above this many service ports the view shows an excerpt of kube-proxy's dump (the first ones). */
export const DUMP_EXCERPT_PORTS = 20;
/** Trace destinations offered: the Services that are not load, then at most this many load ones. */
const TRACE_LOAD_SERVICES = 20;

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
  /** Endpoints over all programmed service ports. */
  endpoints: number;
  endpointsPerService: number;
  dump: NetworkDump;
  text: string;
  /** The dump shows kube-proxy's rules for the first `shown` of `total` service ports only. */
  excerpt?: { shown: number; total: number };
  /**
   * What kube-proxy keeps programmed on the node at its size now, from the cost model
   * (network/costmodel.ts): rules or objects, and the first packet's lookup.
   */
  scale?: { mode: 'iptables' | 'ipvs' | 'nftables'; rules: RuleCount; lookup: Lookup };
  /** Pods with an IP (trace sources), at most 300. */
  tracePods: string[];
  /** `service.namespace:port` (trace destinations). */
  traceServices: string[];
  /** kube-proxy's mode on every node, in node order. */
  proxyModes: { node: string; mode: string; running: boolean }[];
  /** kube-proxy runs as the systemd unit kube-proxy.service on the nodes (no DaemonSet). */
  kubeProxyUnit?: true;
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
  const kp = kubeProxyOf(cluster, node);
  const replaced = kubeProxyReplaced(cluster);
  // kube-proxy's own service ports; building the whole program is paid only for a dump that needs it.
  const prog = kp && !replaced ? undefined : nodeProgram(cluster, node);
  const ports = kp && !replaced ? kp.state.ports : (prog?.ports ?? []);
  const endpoints = ports.reduce((n, p) => n + p.endpoints.length, 0);
  const ciliumText = ciliumServiceList(cluster, node);
  const cilium = ciliumText !== undefined;
  const mode = replaced ? 'none' : (kp?.state.mode ?? prog?.mode ?? 'none');
  const dump = sub.dump ?? defaultDump(mode, cilium);
  const last = kp?.state.syncs.at(-1);
  let text = '';
  let excerpt: NetworkModel['excerpt'];
  const proxyDump = dump === 'iptables' || dump === 'ipvs' || dump === 'nft';
  if (proxyDump && kp && !replaced && ports.length > DUMP_EXCERPT_PORTS) {
    text = excerptText(cluster, node, dump, kp);
    excerpt = { shown: DUMP_EXCERPT_PORTS, total: ports.length };
  }
  // At scale the other dumps are kept until the node's pods or kube-proxy's rules change.
  const large = kp && !replaced && ports.length > DUMP_EXCERPT_PORTS;
  if (!excerpt) {
    const podKey = large
      ? cluster.api
          .podsOnNode<KubeObject>(node)
          .map((p) => p.status?.podIP ?? '')
          .join(',')
      : '';
    text = large
      ? cached(`${syncKey(node, dump, kp!)}|${cluster.api.count('Node')}|${podKey}`, () =>
          renderDump(cluster, node, dump, ciliumText)
        )
      : renderDump(cluster, node, dump, ciliumText);
  }
  const tracePods = cluster.api
    .list<KubeObject>('Pod')
    .filter((p) => p.status?.podIP && !p.metadata.deletionTimestamp)
    .map((p) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`)
    .sort()
    .slice(0, 300);
  const allServices = cluster.api
    .list<KubeObject>('Service')
    .filter((sv) => sv.spec?.clusterIP && sv.spec.clusterIP !== 'None');
  const isLoad = (sv: KubeObject) => sv.metadata.labels?.['nodeplane.dev/load'] !== undefined;
  const traceServices = [
    ...allServices.filter((sv) => !isLoad(sv)),
    ...allServices.filter(isLoad).slice(0, TRACE_LOAD_SERVICES)
  ]
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
  const programmed = kp?.state.programmedMode;
  const perService = ports.length ? endpoints / ports.length : 0;
  const scale =
    programmed && !replaced
      ? {
          mode: programmed,
          rules: rules(ports.length, perService, programmed),
          lookup: firstPacketLookup(programmed, ports.length, perService)
        }
      : undefined;
  return {
    node,
    mode,
    cilium,
    proxyModes: proxies,
    ...(kp?.state.host ? { kubeProxyUnit: true as const } : {}),
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
    endpoints,
    endpointsPerService: ports.length ? Math.max(1, Math.round(endpoints / ports.length)) : 10,
    dump,
    text,
    ...(excerpt ? { excerpt } : {}),
    ...(scale ? { scale } : {}),
    tracePods,
    traceServices
  };
}

function renderDump(
  cluster: Cluster,
  node: string,
  dump: NetworkDump,
  ciliumText: string | undefined
): string {
  const dp = dataplane(cluster, node);
  if (!dp) return '';
  switch (dump) {
    case 'iptables':
      return dp.iptablesSave();
    case 'ipvs':
      return dp.ipvsadmList();
    case 'nft':
      return dp.nftListRuleset();
    case 'route':
      return dp.ipRoute();
    case 'addr':
      return dp.ipAddr();
    case 'cilium':
      return ciliumText ?? '';
    case 'cni':
      return Object.entries(dp.cniConfigFiles())
        .map(([f, c]) => `# /etc/cni/net.d/${f}\n${c}`)
        .join('\n');
  }
}

/** The last large dump rendered, kept until what it shows changes (rendering it is not cheap). */
let dumpCache: { key: string; text: string } | undefined;

function cached(key: string, render: () => string): string {
  if (dumpCache?.key !== key) dumpCache = { key, text: render() };
  return dumpCache.text;
}

function syncKey(node: string, dump: string, kp: KubeProxy): string {
  const s = kp.state;
  return `${node}|${dump}|${s.programmedMode}|${s.lastSync}|${s.syncs.length}|${s.ports.length}`;
}

function excerptText(
  cluster: Cluster,
  node: string,
  dump: 'iptables' | 'ipvs' | 'nft',
  kp: KubeProxy
): string {
  return cached(
    syncKey(node, dump, kp),
    () => kubeProxyDumpExcerpt(cluster, node, dump, DUMP_EXCERPT_PORTS) ?? ''
  );
}
