/**
 * Packet trace: a connection from a pod (or an external client) to a Service, hop by hop through
 * the rules or maps the node's kube-proxy programmed (exact rule text), the DNAT choice (seeded,
 * honouring ClientIP affinity), SNAT when the masquerade mark is set, the CNI route or tunnel to the
 * endpoint's node, and the reply path. Pure: it reads the cluster and changes nothing.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { Random } from '../engine/random';
import { cidrContains } from './ip';
import { sha256 } from './hash';
import {
  MASQ_MARK,
  printedProbability,
  sepChain,
  storedProbability,
  svcChain,
  svlChain,
  extChain,
  type Table
} from './iptables';
import { renderIpvsadm } from './ipvs';
import { endpointChainBase, serviceChainBase } from './nftables';
import { categorize, endpointString, portNameString, type EndpointInfo } from './model';
import { cniPlugin, cniMode, encapsulation, nodeAddrs, podInterface, routes } from './cni';
import { kubeProxyReplaced, nodeProgram, podAddrsOnNode, type NodeProgram } from './provider';
import { ciliumServices, renderCiliumServiceList } from './cilium';

export interface TraceHop {
  node: string;
  /** "nat/KUBE-SERVICES", "ipvs", "nft kube-proxy/services", "route", "cni", "conntrack"... */
  where: string;
  /** The exact rule, map element, route or table line. */
  rule?: string;
  action: string;
  reply?: boolean;
}

export interface TraceResult {
  from: { desc: string; ip: string; node: string };
  to: string;
  service?: string;
  mode: NodeProgram['mode'];
  endpoint?: { ip: string; port: number; node?: string; pod?: string };
  snat?: string;
  verdict: 'delivered' | 'dropped' | 'rejected' | 'no-service';
  hops: TraceHop[];
}

/** How xt_statistic picks: each rule draws independently, (u32 & 0x7fffffff) < stored probability. */
export function chooseIptables(n: number, rng: Random): number {
  for (let i = 0; i < n - 1; i++) if ((rng.nextUint32() & 0x7fffffff) < storedProbability(n - i)) return i;
  return n - 1;
}

function findRule(t: Table, chain: string, pred: (spec: string) => boolean): string | undefined {
  const r = t.rules.find((x) => x.chain === chain && pred(x.spec));
  return r ? `-A ${chain} ${r.spec}` : undefined;
}

function resolveSource(
  cluster: Cluster,
  from: string
): { desc: string; ip: string; node?: string; pod?: KubeObject } {
  const ext = /^external(?::(.+))?$/.exec(from);
  if (ext) return { desc: 'external client', ip: ext[1] ?? '203.0.113.10' };
  const [ns, name] = from.includes('/') ? from.split('/') : ['default', from];
  const pod = cluster.api.tryGet('Pod', ns, name);
  if (!pod?.status?.podIP) throw new Error(`pod "${ns}/${name}" not found or has no IP`);
  const node = pod.spec?.nodeName as string;
  return {
    desc: `${ns}/${name}`,
    ip: pod.spec?.hostNetwork ? pod.status.podIP : pod.status.podIP,
    node,
    pod
  };
}

/** `<ip>:<port>` or `<service>[.<namespace>]:<port>`. */
function resolveDest(cluster: Cluster, to: string): { ip: string; port: number } {
  const m = /^(.+):(\d+)$/.exec(to);
  if (!m) throw new Error(`destination "${to}": expected <ip>:<port> or <service>[.<namespace>]:<port>`);
  const port = parseInt(m[2], 10);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(m[1])) return { ip: m[1], port };
  const [svc, ns = 'default'] = m[1].split('.');
  const s = cluster.api.tryGet('Service', ns, svc);
  if (!s?.spec?.clusterIP) throw new Error(`service "${ns}/${svc}" not found`);
  return { ip: s.spec.clusterIP, port };
}

export function trace(cluster: Cluster, from: string, to: string, opts: { seed?: number } = {}): TraceResult {
  const src = resolveSource(cluster, from);
  const dst = resolveDest(cluster, to);
  const nodes = nodeAddrs(cluster);
  const byIP = nodes.find((n) => n.ip === dst.ip);
  let nodeName = src.node ?? byIP?.name ?? nodes[0]?.name;
  if (!nodeName) throw new Error('the cluster has no nodes');
  const hops: TraceHop[] = [];
  const result: TraceResult = {
    from: { desc: src.desc, ip: src.ip, node: nodeName },
    to: `${dst.ip}:${dst.port}`,
    mode: 'none',
    verdict: 'no-service',
    hops
  };
  const probe = nodeProgram(cluster, nodeName)!;
  // An external client reaching a LoadBalancer IP lands on some node: the first one with a local endpoint.
  const findPort = (p: NodeProgram) =>
    p.ports.find(
      (sp) =>
        ((sp.clusterIP === dst.ip ||
          sp.externalIPs.includes(dst.ip) ||
          sp.loadBalancerIPs.includes(dst.ip)) &&
          sp.port === dst.port) ||
        (byIP && sp.nodePort === dst.port)
    );
  let sp = findPort(probe);
  if (!src.node && sp && !byIP && sp.externalPolicyLocal) {
    const withLocal = nodes.find((n) => sp!.endpoints.some((e) => e.ready && e.nodeName === n.name));
    if (withLocal) nodeName = withLocal.name;
  }
  result.from.node = nodeName;
  const prog = nodeProgram(cluster, nodeName)!;
  sp = findPort(prog);
  result.mode = prog.mode;
  const self = nodes.find((n) => n.name === nodeName)!;
  const plugin = cniPlugin(cluster, nodeName);
  if (src.pod && !src.pod.spec?.hostNetwork)
    hops.push({
      node: nodeName,
      where: 'cni',
      rule: `${src.ip} dev ${podInterface(plugin, src.desc)} scope link`,
      action: `leave the pod through its veth into the host network namespace`
    });
  if (!sp || (prog.mode === 'none' && !kubeProxyReplaced(cluster))) {
    hops.push({
      node: nodeName,
      where: 'route',
      action: 'no Service rule matches: routed as plain IP traffic'
    });
    return result;
  }
  result.service = portNameString(sp);
  const name = portNameString(sp);
  const cat = categorize(sp, nodeName);
  const external = !src.pod;
  const viaNodePort = !!byIP && sp.nodePort === dst.port;
  const viaExternalIP = viaNodePort || sp.externalIPs.includes(dst.ip) || sp.loadBalancerIPs.includes(dst.ip);
  const local = viaExternalIP ? sp.externalPolicyLocal && external : sp.internalPolicyLocal;
  const candidates = local ? cat.local : cat.cluster;
  let masq = viaExternalIP
    ? !sp.externalPolicyLocal
    : !cidrContains(cluster.config.network.clusterCIDR, src.ip);
  const proto = sp.protocol.toLowerCase();
  const hookChain = src.pod ? 'PREROUTING' : viaNodePort || !src.node ? 'PREROUTING' : 'OUTPUT';
  const rng =
    sp.affinitySeconds !== undefined
      ? new Random([...sha256(`${src.ip}|${name}`).slice(0, 4)].reduce((a, b) => (a << 8) | b, 0) >>> 0)
      : new Random(opts.seed ?? cluster.config.seed);

  const drop = (where: string, rule: string | undefined, verdict: 'dropped' | 'rejected', why: string) => {
    hops.push({ node: nodeName, where, rule, action: why });
    result.verdict = verdict;
    return result;
  };

  let chosen: EndpointInfo | undefined;
  if (prog.mode === 'iptables') {
    const nat = prog.iptables.nat;
    const filter = prog.iptables.filter;
    hops.push({
      node: nodeName,
      where: `nat/${hookChain}`,
      rule: findRule(nat, hookChain, (s) => s.endsWith('-j KUBE-SERVICES')),
      action: 'jump to KUBE-SERVICES'
    });
    if (!cat.hasAny || !candidates.length) {
      const chain = viaExternalIP ? 'KUBE-EXTERNAL-SERVICES' : 'KUBE-SERVICES';
      const rule = findRule(
        filter,
        chain,
        (s) =>
          s.includes(`"${name} has no`) &&
          (viaNodePort ? s.includes(`--dport ${sp!.nodePort} `) : s.includes(`-d ${dst.ip}/32`))
      );
      return drop(
        `filter/${chain}`,
        rule,
        cat.hasAny ? 'dropped' : 'rejected',
        cat.hasAny ? 'no local endpoint on this node: DROP' : 'no endpoints: REJECT (icmp-port-unreachable)'
      );
    }
    let lbChain: string;
    if (viaNodePort) {
      hops.push({
        node: nodeName,
        where: 'nat/KUBE-SERVICES',
        rule: findRule(nat, 'KUBE-SERVICES', (s) => s.endsWith('-j KUBE-NODEPORTS')),
        action: 'local destination: jump to KUBE-NODEPORTS'
      });
      hops.push({
        node: nodeName,
        where: 'nat/KUBE-NODEPORTS',
        rule: findRule(nat, 'KUBE-NODEPORTS', (s) => s.includes(`--dport ${sp!.nodePort} `)),
        action: `jump to ${extChain(sp)}`
      });
    } else {
      const target = viaExternalIP ? extChain(sp) : sp.internalPolicyLocal ? svlChain(sp) : svcChain(sp);
      hops.push({
        node: nodeName,
        where: 'nat/KUBE-SERVICES',
        rule: findRule(
          nat,
          'KUBE-SERVICES',
          (s) => s.includes(`-d ${dst.ip}/32`) && s.includes(`--dport ${dst.port} `)
        ),
        action: `jump to ${target}`
      });
    }
    if (viaExternalIP) {
      const ext = extChain(sp);
      if (!sp.externalPolicyLocal)
        hops.push({
          node: nodeName,
          where: `nat/${ext}`,
          rule: findRule(nat, ext, (s) => s.endsWith('-j KUBE-MARK-MASQ')),
          action: `set the masquerade mark ${MASQ_MARK}`
        });
      lbChain = sp.externalPolicyLocal && external ? svlChain(sp) : svcChain(sp);
      hops.push({
        node: nodeName,
        where: `nat/${ext}`,
        rule: findRule(nat, ext, (s) => s.endsWith(`-j ${lbChain}`)),
        action: `jump to ${lbChain}`
      });
    } else {
      lbChain = sp.internalPolicyLocal ? svlChain(sp) : svcChain(sp);
      if (masq)
        hops.push({
          node: nodeName,
          where: `nat/${lbChain}`,
          rule: findRule(nat, lbChain, (s) => s.endsWith('-j KUBE-MARK-MASQ')),
          action: 'source outside the cluster CIDR: set the masquerade mark'
        });
    }
    const idx = chooseIptables(candidates.length, rng);
    chosen = candidates[idx];
    const sep = sepChain(sp, chosen);
    if (sp.affinitySeconds !== undefined)
      hops.push({
        node: nodeName,
        where: `nat/${lbChain}`,
        rule: findRule(nat, lbChain, (s) => s.includes('--rcheck') && s.endsWith(`-j ${sep}`)),
        action: `ClientIP affinity: a recent entry for ${src.ip} sends every connection to the same endpoint`
      });
    else
      hops.push({
        node: nodeName,
        where: `nat/${lbChain}`,
        rule: findRule(nat, lbChain, (s) => !s.includes('--rcheck') && s.endsWith(`-j ${sep}`)),
        action:
          idx < candidates.length - 1
            ? `statistic match (p=${printedProbability(candidates.length - idx)}) → ${sep}`
            : `last rule, always matches → ${sep}`
      });
    if (chosen.ip === src.ip) {
      masq = true;
      hops.push({
        node: nodeName,
        where: `nat/${sep}`,
        rule: findRule(nat, sep, (s) => s.endsWith('-j KUBE-MARK-MASQ')),
        action: 'hairpin: the pod talks to itself, mark for masquerade'
      });
    }
    hops.push({
      node: nodeName,
      where: `nat/${sep}`,
      rule: findRule(nat, sep, (s) => s.includes('-j DNAT')),
      action: `DNAT ${dst.ip}:${dst.port} → ${endpointString(chosen)}`
    });
    if (masq)
      hops.push({
        node: nodeName,
        where: 'nat/KUBE-POSTROUTING',
        rule: findRule(nat, 'KUBE-POSTROUTING', (s) => s.includes('-j MASQUERADE')),
        action: `SNAT ${src.ip} → ${self.ip} (MASQUERADE)`
      });
  } else if (prog.mode === 'ipvs' && prog.ipvs) {
    const vs = prog.ipvs.virtualServers.find(
      (v) => v.address === `${viaNodePort ? self.ip : dst.ip}:${dst.port}` && v.protocol === sp!.protocol
    );
    if (!viaNodePort)
      hops.push({
        node: nodeName,
        where: 'kube-ipvs0',
        rule: `inet ${dst.ip}/32 scope global kube-ipvs0`,
        action: 'the Service IP is local: IPVS sees the packet in INPUT'
      });
    if (masq || viaNodePort)
      hops.push({
        node: nodeName,
        where: 'nat/KUBE-SERVICES',
        rule: viaNodePort
          ? findRule(prog.iptables.nat, 'KUBE-NODE-PORT', (s) => s.includes(`KUBE-NODE-PORT-${sp!.protocol}`))
          : findRule(prog.iptables.nat, 'KUBE-SERVICES', (s) =>
              s.includes('KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ')
            ),
        action: 'ipset match: set the masquerade mark'
      });
    if (!vs || !vs.realServers.length)
      return drop(
        'ipvs',
        vs
          ? renderIpvsadm({ virtualServers: [vs], dummyAddresses: [], ipsets: {} }).split('\n')[3]
          : undefined,
        'dropped',
        'virtual server has no real servers: dropped'
      );
    const i = rng.int(vs.realServers.length);
    chosen = candidates.find((e) => endpointString(e) === vs.realServers[i].address) ?? candidates[0];
    const lines = renderIpvsadm({ virtualServers: [vs], dummyAddresses: [], ipsets: {} }).split('\n');
    hops.push({
      node: nodeName,
      where: 'ipvs',
      rule: lines[3],
      action: `virtual server, scheduler ${vs.scheduler}${vs.persistent ? `, persistent ${vs.persistent}s` : ''}`
    });
    hops.push({
      node: nodeName,
      where: 'ipvs',
      rule: lines[4 + i],
      action: `real server chosen: DNAT → ${vs.realServers[i].address}`
    });
    if (masq)
      hops.push({
        node: nodeName,
        where: 'nat/KUBE-POSTROUTING',
        rule: findRule(prog.iptables.nat, 'KUBE-POSTROUTING', (s) =>
          s.includes('-j MASQUERADE --random-fully')
        ),
        action: `SNAT ${src.ip} → ${self.ip} (MASQUERADE)`
      });
  } else if (prog.mode === 'nftables' && prog.nft) {
    const base = serviceChainBase(sp);
    hops.push({
      node: nodeName,
      where: `nft kube-proxy/nat-${hookChain.toLowerCase()}`,
      rule: 'jump services',
      action: 'jump to services'
    });
    if (!cat.hasAny || !candidates.length) {
      const m = prog.nft.sets.find(
        (s) => s.name === (viaNodePort ? 'no-endpoint-nodeports' : 'no-endpoint-services')
      );
      return drop(
        'nft kube-proxy/endpoints-check',
        m?.elements.find((e) => e.includes(`"${name}"`)),
        cat.hasAny ? 'dropped' : 'rejected',
        cat.hasAny ? 'no local endpoint: drop' : 'no endpoints: goto reject-chain'
      );
    }
    const map = prog.nft.sets.find((s) => s.name === (viaNodePort ? 'service-nodeports' : 'service-ips'))!;
    const key = viaNodePort ? `${proto} . ${sp.nodePort} :` : `${dst.ip} . ${proto} . ${dst.port} :`;
    hops.push({
      node: nodeName,
      where: 'nft kube-proxy/services',
      rule: viaNodePort
        ? 'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports'
        : 'ip daddr . meta l4proto . th dport vmap @service-ips',
      action: `O(1) verdict map lookup in @${map.name}`
    });
    const el = map.elements.find((e) => e.startsWith(key));
    hops.push({
      node: nodeName,
      where: `nft kube-proxy/@${map.name}`,
      rule: el,
      action: el ? el.slice(el.indexOf(': ') + 2) : 'no element'
    });
    const chainName =
      (viaExternalIP && !(sp.externalPolicyLocal && external)) || !local
        ? `service-${base}`
        : `local-${base}`;
    if (viaExternalIP && !sp.externalPolicyLocal)
      hops.push({
        node: nodeName,
        where: `nft kube-proxy/external-${base}`,
        rule: 'jump mark-for-masquerade',
        action: 'set the masquerade mark'
      });
    if (!viaExternalIP && masq)
      hops.push({
        node: nodeName,
        where: `nft kube-proxy/${chainName}`,
        rule: prog.nft.chains.find((c) => c.name === chainName)?.rules[0],
        action: 'source outside the cluster CIDR: mark for masquerade'
      });
    const i = rng.int(candidates.length);
    chosen = candidates[i];
    const lbRule = prog.nft.chains
      .find((c) => c.name === chainName)
      ?.rules.find((r) => r.startsWith('numgen'));
    hops.push({
      node: nodeName,
      where: `nft kube-proxy/${chainName}`,
      rule: lbRule,
      action: `numgen random mod ${candidates.length} = ${i}`
    });
    const epc = `endpoint-${endpointChainBase(sp, chosen)}`;
    hops.push({
      node: nodeName,
      where: `nft kube-proxy/${epc}`,
      rule: `meta l4proto ${proto} dnat to ${endpointString(chosen)}`,
      action: `DNAT → ${endpointString(chosen)}`
    });
    if (masq)
      hops.push({
        node: nodeName,
        where: 'nft kube-proxy/masquerading',
        rule: 'masquerade fully-random',
        action: `SNAT ${src.ip} → ${self.ip}`
      });
  }
  if (prog.mode === 'none') {
    // Cilium kube-proxy replacement: one eBPF service map lookup, backend chosen at connect().
    const svcs = ciliumServices([sp], nodeName, self.ip);
    const fe =
      svcs.find((x) => x.frontend === `${viaNodePort ? self.ip : dst.ip}:${dst.port}/${sp.protocol}`) ??
      svcs[0];
    const lines = renderCiliumServiceList([fe]).split('\n');
    if (!fe.backends.length || !candidates.length)
      return drop(
        'cilium eBPF lb4_services_v2',
        lines[1],
        'dropped',
        'no backend for this frontend on this node: dropped'
      );
    const i = rng.int(candidates.length);
    chosen = candidates[i];
    hops.push({
      node: nodeName,
      where: 'cilium eBPF lb4_services_v2',
      rule: lines[1],
      action: `O(1) service map lookup, ${fe.backends.length} backends`
    });
    hops.push({
      node: nodeName,
      where: 'cilium eBPF lb4_backends_v3',
      rule: lines[1 + i],
      action: `backend chosen: DNAT → ${endpointString(chosen)}`
    });
    if (masq)
      hops.push({ node: nodeName, where: 'cilium eBPF nodeport', action: `SNAT ${src.ip} → ${self.ip}` });
  }
  if (!chosen) return result;
  result.endpoint = {
    ip: chosen.ip,
    port: chosen.port,
    ...(chosen.nodeName ? { node: chosen.nodeName } : {}),
    ...(chosen.pod ? { pod: chosen.pod } : {})
  };
  if (masq) result.snat = self.ip;
  const dstNode = nodes.find((n) => n.name === chosen!.nodeName);
  const others = nodes.filter((n) => n.name !== nodeName);
  const table = routes(plugin, cniMode(cluster), self, others, podAddrsOnNode(cluster, nodeName));
  if (dstNode && dstNode.name !== nodeName) {
    const enc = encapsulation(plugin, cniMode(cluster));
    const route = table.find(
      (r) => r.includes(' via ') && !r.startsWith('default') && cidrContains(r.split(' ')[0], chosen!.ip)
    );
    hops.push({
      node: nodeName,
      where: 'route',
      rule: route?.trimEnd(),
      action: `to ${dstNode.name} (${dstNode.ip}) via ${enc.device}: ${enc.description}`
    });
    const remote = routes(
      plugin,
      cniMode(cluster),
      dstNode,
      nodes.filter((n) => n.name !== dstNode.name),
      podAddrsOnNode(cluster, dstNode.name)
    );
    const last =
      remote.find((r) => r.startsWith(`${chosen!.ip} `)) ??
      remote.find(
        (r) =>
          !r.startsWith('default') &&
          r.includes(' dev ') &&
          !r.includes(' via ') &&
          cidrContains(r.split(' ')[0], chosen!.ip)
      );
    hops.push({
      node: dstNode.name,
      where: 'route',
      rule: last?.trimEnd(),
      action: `deliver to ${chosen.pod ?? chosen.ip}`
    });
  } else {
    const last =
      table.find((r) => r.startsWith(`${chosen!.ip} `)) ??
      table.find(
        (r) =>
          !r.startsWith('default') &&
          !r.includes(' via ') &&
          r.includes(' dev ') &&
          cidrContains(r.split(' ')[0].replace('blackhole', ''), chosen!.ip)
      );
    hops.push({
      node: nodeName,
      where: 'route',
      rule: last?.trimEnd(),
      // An endpoint that is no pod here (default/kubernetes → the API server) is a host on the link.
      action: chosen.pod ? `same node: deliver to ${chosen.pod}` : `out of eth0 to the host ${chosen.ip}`
    });
  }
  const replyNode = dstNode?.name ?? nodeName;
  hops.push({
    node: replyNode,
    where: 'route',
    action: `reply ${endpointString(chosen)} → ${masq ? self.ip : src.ip}`,
    reply: true
  });
  hops.push({
    node: nodeName,
    where: 'conntrack',
    action: `reverse NAT: source ${endpointString(chosen)} → ${dst.ip}:${dst.port}${masq ? `, destination ${self.ip} → ${src.ip}` : ''}`,
    reply: true
  });
  hops.push({
    node: nodeName,
    where: src.pod ? 'cni' : 'eth0',
    action: `deliver the reply to ${src.desc} (${src.ip})`,
    reply: true
  });
  result.verdict = 'delivered';
  return result;
}

/** Console rendering for `nodeplane trace <src> <dst:port>`. */
export function renderTrace(r: TraceResult): string {
  const head = `trace ${r.from.desc} (${r.from.ip}) -> ${r.to}${r.service ? ` (${r.service})` : ''}, kube-proxy mode: ${r.mode}\n`;
  const w = Math.max(...r.hops.map((h) => h.node.length), 4);
  const body = r.hops
    .map((h, i) => {
      const n = String(i + 1).padStart(2);
      const line = `${n}  ${h.reply ? '<-' : '->'} ${h.node.padEnd(w)}  ${h.where}: ${h.action}`;
      return h.rule ? `${line}\n${' '.repeat(w + 9)}${h.rule}` : line;
    })
    .join('\n');
  const tail =
    r.verdict === 'delivered'
      ? `result: delivered to ${r.endpoint!.pod ? `${r.endpoint!.pod} ` : ''}${r.endpoint!.ip}:${r.endpoint!.port}${r.endpoint!.node ? ` on ${r.endpoint!.node}` : ''}${r.snat ? `, source NATed to ${r.snat}` : ''}`
      : `result: ${r.verdict}`;
  return `${head}${body}\n${tail}\n`;
}
