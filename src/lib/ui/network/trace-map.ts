/**
 * The last packet trace on the cluster map: the stops its path makes (source pod, the node's
 * kube-proxy hop where DNAT happens, the CNI route or tunnel to the endpoint's node, the endpoint
 * pod, then the reply back). Read-only: it lays out a trace result and changes nothing.
 */
import type { TraceHop, TraceResult } from '$lib/sim/observe';

export type StopKind = 'source' | 'proxy' | 'egress' | 'ingress' | 'endpoint' | 'drop';

export interface TraceStop {
  kind: StopKind;
  /** Node card the stop sits on (absent for an external client). */
  node?: string;
  /** `namespace/name` of the pod chip the stop sits on. */
  pod?: string;
  /** Short label drawn on the map. */
  label: string;
}

/** Hops that are kube-proxy's (rules, IPVS, nftables, eBPF maps), not the CNI's or the route table's. */
const isProxyHop = (h: TraceHop) => !h.reply && !['cni', 'route', 'conntrack', 'eth0'].includes(h.where);

/** The device and encapsulation of a route hop ("... via flannel.1: VXLAN VNI 1 over UDP 8472 to the peer node"). */
export function routeLabel(h: TraceHop | undefined): string {
  if (!h) return 'route';
  const m = /via (\S+?):\s*(.*)$/.exec(h.action);
  if (!m) return h.rule ?? h.action;
  const how = m[2].replace(/,? (no encapsulation|to the peer node).*$/, '').replace(/ route$/, '');
  return `${m[1]} · ${how}`;
}

/** The stops of a trace's forward path, in order; the reply runs the same stops backwards. */
export function traceStops(r: TraceResult): TraceStop[] {
  const stops: TraceStop[] = [];
  const external = !r.from.desc.includes('/');
  stops.push({
    kind: 'source',
    node: external ? undefined : r.from.node,
    pod: external ? undefined : r.from.desc,
    label: `${r.from.desc} ${r.from.ip}`
  });
  const proxy = r.hops.filter(isProxyHop);
  const dnat = proxy.find((h) => /DNAT|dnat/.test(h.action)) ?? proxy[proxy.length - 1];
  if (r.verdict !== 'delivered') {
    const last = r.hops[r.hops.length - 1];
    stops.push({ kind: 'drop', node: r.from.node, label: `${last?.where ?? 'kube-proxy'}: ${r.verdict}` });
    return stops;
  }
  if (dnat)
    stops.push({
      kind: 'proxy',
      node: r.from.node,
      label: `${dnat.where} · DNAT → ${r.endpoint!.ip}:${r.endpoint!.port}`
    });
  const ep = r.endpoint!;
  const routes = r.hops.filter((h) => h.where === 'route' && !h.reply);
  if (ep.node && ep.node !== r.from.node) {
    stops.push({
      kind: 'egress',
      node: r.from.node,
      label: routeLabel(routes.find((h) => h.node === r.from.node))
    });
    stops.push({ kind: 'ingress', node: ep.node, label: ep.node });
  }
  stops.push({
    kind: 'endpoint',
    node: ep.node ?? r.from.node,
    pod: ep.pod,
    label: `${ep.pod ?? ep.ip} ${ep.ip}:${ep.port}`
  });
  return stops;
}

/** The reply hops' one-line summary (conntrack's reverse NAT), for the map's reply label. */
export function replyLabel(r: TraceResult): string | undefined {
  const h = r.hops.find((x) => x.reply && x.where === 'conntrack');
  return h ? `conntrack: ${h.action}` : undefined;
}
