/**
 * The last packet trace, for the cluster map: which trace the console just printed, and the stops
 * its path makes on the map (source pod, the node's kube-proxy hop where DNAT happens, the CNI
 * route or tunnel to the endpoint's node, the endpoint pod, then the reply back). Read-only: it
 * reuses the simulator's trace model and changes nothing in the cluster.
 */
import type { Cluster } from '$lib/sim/cluster';
import { renderTrace, trace, type TraceHop, type TraceResult } from '$lib/sim/network/trace';

/** The operands of a `nodeplane trace <from> <to>` console line, or undefined for any other line. */
export function traceArgs(line: string): { from: string; to: string } | undefined {
  const argv = line.trim().split(/\s+/);
  if (argv[0] !== 'nodeplane' || argv[1] !== 'trace' || argv.length !== 4) return undefined;
  return { from: argv[2], to: argv[3] };
}

/**
 * The trace a console line printed. The console draws each trace from `seed + n` (its n-th trace),
 * so the same seed gives the same endpoint choice; the result is used only when it renders to
 * exactly the text the console printed.
 */
export function consoleTrace(
  cluster: Cluster,
  line: string,
  stdout: string,
  traceCount: number | undefined
): TraceResult | undefined {
  const args = traceArgs(line);
  if (!args || !stdout || traceCount === undefined) return undefined;
  try {
    const r = trace(cluster, args.from, args.to, { seed: cluster.config.seed + traceCount });
    return renderTrace(r) === stdout ? r : undefined;
  } catch {
    return undefined;
  }
}

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
