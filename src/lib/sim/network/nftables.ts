/**
 * nftables mode (GA in v1.33): everything lives in `table ip kube-proxy`; Service dispatch is one
 * verdict-map lookup and load balancing is `numgen random mod N vmap`. Structure and names follow
 * pkg/proxy/nftables/proxier.go (setupNFTables, syncProxyRules); rendering follows `nft list`.
 */
import { hash16, type NodeNet } from './iptables';
import {
  categorize,
  endpointString,
  isExternallyAccessible,
  portNameString,
  type ServicePortInfo
} from './model';

export interface NftChain {
  name: string;
  base?: string;
  comment?: string;
  rules: string[];
}

export interface NftSet {
  name: string;
  kind: 'set' | 'map';
  type: string;
  flags?: string;
  timeout?: string;
  comment?: string;
  elements: string[];
}

export interface NftTable {
  sets: NftSet[];
  chains: NftChain[];
  /** Chains per service port, for partial-sync accounting. */
  serviceChains: Record<string, string[]>;
}

/** hashAndTruncate: first 8 characters of base32(sha256(name)), a dash, then the name. */
export function hashAndTruncate(name: string): string {
  const n = hash16(name).slice(0, 8) + '-' + name;
  const max = 256 - 16;
  return n.length > max ? n.slice(0, max - 3) + '...' : n;
}

export function serviceChainBase(sp: ServicePortInfo): string {
  return hashAndTruncate(`${sp.namespace}/${sp.name}/${sp.protocol.toLowerCase()}/${sp.portName}`);
}

export function endpointChainBase(sp: ServicePortInfo, ep: { ip: string; port: number }): string {
  return hashAndTruncate(
    `${sp.namespace}/${sp.name}/${sp.protocol.toLowerCase()}/${sp.portName}__${ep.ip}/${ep.port}`
  );
}

const MARK = '0x00004000';

function formatTimeout(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? h + 'h' : ''}${m ? m + 'm' : ''}${s || (!h && !m) ? s + 's' : ''}`;
}

/** The table's fixed chains and sets, before any service port. */
function baseTable(node: NodeNet): { sets: NftSet[]; chains: NftChain[]; maps: PortMaps } {
  const chains: NftChain[] = [];
  const byName = new Map<string, NftChain>();
  const chain = (name: string, base?: string, comment?: string) => {
    let c = byName.get(name);
    if (!c) {
      c = { name, rules: [] };
      if (base) c.base = base;
      if (comment) c.comment = comment;
      chains.push(c);
      byName.set(name, c);
    }
    return c;
  };
  const sets: NftSet[] = [];
  const set = (s: NftSet) => (sets.push(s), s);
  chain('filter-prerouting', 'type filter hook prerouting priority dstnat - 10; policy accept;');
  chain('filter-input', 'type filter hook input priority dstnat - 10; policy accept;');
  chain('filter-forward', 'type filter hook forward priority dstnat - 10; policy accept;');
  chain('filter-output', 'type filter hook output priority dstnat - 10; policy accept;');
  chain('nat-prerouting', 'type nat hook prerouting priority dstnat; policy accept;');
  chain('nat-output', 'type nat hook output priority dstnat; policy accept;');
  chain('nat-postrouting', 'type nat hook postrouting priority srcnat; policy accept;');
  for (const [dst, src, extra] of [
    ['endpoints-check', 'filter-input', 'ct state new '],
    ['endpoints-check', 'filter-forward', 'ct state new '],
    ['endpoints-check', 'filter-output', 'ct state new '],
    ['firewall-check', 'filter-prerouting', 'ct state new '],
    ['firewall-check', 'filter-output', 'ct state new '],
    ['services', 'nat-output', ''],
    ['services', 'nat-prerouting', ''],
    ['masquerading', 'nat-postrouting', '']
  ]) {
    chain(dst);
    chain(src).rules.push(`${extra}jump ${dst}`);
  }
  chain('mark-for-masquerade').rules.push(`meta mark set meta mark | ${MARK}`);
  chain('masquerading').rules.push(
    `meta mark & ${MARK} == 0x00000000 return`,
    `meta mark set meta mark ^ ${MARK}`,
    'masquerade fully-random'
  );
  // --nodeport-addresses defaults to "primary" in nftables mode: NodePorts only on the node IP.
  set({
    name: 'nodeport-ips',
    kind: 'set',
    type: 'ipv4_addr',
    comment: 'IPs that accept NodePort traffic',
    elements: [node.nodeIP]
  });
  const noEpSvc = set({
    name: 'no-endpoint-services',
    kind: 'map',
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'vmap to drop or reject packets to services with no endpoints',
    elements: []
  });
  const noEpNp = set({
    name: 'no-endpoint-nodeports',
    kind: 'map',
    type: 'inet_proto . inet_service : verdict',
    comment: 'vmap to drop or reject packets to service nodeports with no endpoints',
    elements: []
  });
  chain('reject-chain', undefined, 'helper for @no-endpoint-services / @no-endpoint-nodeports').rules.push(
    'reject'
  );
  chain('endpoints-check').rules.push(
    'ip daddr . meta l4proto . th dport vmap @no-endpoint-services',
    'ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports'
  );
  set({
    name: 'firewall-ips',
    kind: 'map',
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'destinations that are subject to LoadBalancerSourceRanges',
    elements: []
  });
  chain('firewall-check').rules.push('ip daddr . meta l4proto . th dport vmap @firewall-ips');
  const svcIPs = set({
    name: 'service-ips',
    kind: 'map',
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic',
    elements: []
  });
  const svcNPs = set({
    name: 'service-nodeports',
    kind: 'map',
    type: 'inet_proto . inet_service : verdict',
    comment: 'NodePort traffic',
    elements: []
  });
  chain('services').rules.push(
    'ip daddr . meta l4proto . th dport vmap @service-ips',
    'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports'
  );

  return {
    sets,
    chains,
    maps: {
      svcIPs: svcIPs.elements,
      noEpSvc: noEpSvc.elements,
      noEpNp: noEpNp.elements,
      svcNPs: svcNPs.elements
    }
  };
}

/** The verdict-map elements every service port adds to. */
interface PortMaps {
  svcIPs: string[];
  noEpSvc: string[];
  noEpNp: string[];
  svcNPs: string[];
}

/** One service port's chains, affinity sets and verdict-map elements, in the order syncProxyRules writes them. */
interface PortPart {
  chains: NftChain[];
  sets: NftSet[];
  maps: PortMaps;
  owned: string[];
}

function portPart(sp: ServicePortInfo, node: NodeNet): PortPart {
  const chains: NftChain[] = [];
  const byName = new Map<string, NftChain>();
  const chain = (name: string) => {
    let c = byName.get(name);
    if (!c) {
      c = { name, rules: [] };
      chains.push(c);
      byName.set(name, c);
    }
    return c;
  };
  const sets: NftSet[] = [];
  const set = (x: NftSet) => (sets.push(x), x);
  const maps: PortMaps = { svcIPs: [], noEpSvc: [], noEpNp: [], svcNPs: [] };
  const svcIPs = { elements: maps.svcIPs };
  const noEpSvc = { elements: maps.noEpSvc };
  const noEpNp = { elements: maps.noEpNp };
  const svcNPs = { elements: maps.svcNPs };
  const name = portNameString(sp);
  const proto = sp.protocol.toLowerCase();
  const cat = categorize(sp, node.nodeName);
  const base = serviceChainBase(sp);
  const clusterChain = `service-${base}`;
  const localChain = `local-${base}`;
  const extChain = `external-${base}`;
  const epChain = (ep: { ip: string; port: number }) => `endpoint-${endpointChainBase(sp, ep)}`;
  const affSet = (ep: { ip: string; port: number }) => `affinity-${endpointChainBase(sp, ep)}`;
  const owned: string[] = [];
  for (const ep of cat.allReachable) owned.push(chain(epChain(ep)).name);
  if (cat.usesCluster && cat.cluster.length) owned.push(chain(clusterChain).name);
  if (cat.usesLocal && cat.local.length) owned.push(chain(localChain).name);
  const internalChain = sp.internalPolicyLocal ? localChain : clusterChain;
  const hasInternal = cat.hasAny && (!sp.internalPolicyLocal || cat.local.length > 0);
  const hasExternal = cat.hasAny && (!sp.externalPolicyLocal || cat.local.length > 0);
  const usesExt = cat.hasAny && isExternallyAccessible(sp);
  if (usesExt) owned.push(chain(extChain).name);
  const filterVerdict = !cat.hasAny ? 'goto reject-chain' : 'drop';
  const key = (ip: string) => `${ip} . ${proto} . ${sp.port}`;
  if (hasInternal) svcIPs.elements.push(`${key(sp.clusterIP)} : goto ${internalChain}`);
  else noEpSvc.elements.push(`${key(sp.clusterIP)} comment "${name}" : ${filterVerdict}`);
  for (const ip of [...sp.externalIPs, ...sp.loadBalancerIPs]) {
    if (cat.hasAny) svcIPs.elements.push(`${key(ip)} : goto ${extChain}`);
    if (!hasExternal) noEpSvc.elements.push(`${key(ip)} comment "${name}" : ${filterVerdict}`);
  }
  if (sp.nodePort) {
    if (cat.hasAny) svcNPs.elements.push(`${proto} . ${sp.nodePort} : goto ${extChain}`);
    if (!hasExternal) noEpNp.elements.push(`${proto} . ${sp.nodePort} comment "${name}" : ${filterVerdict}`);
  }
  if (hasInternal) {
    chain(internalChain).rules.push(
      `ip daddr ${sp.clusterIP} ${proto} dport ${sp.port} ip saddr != ${node.clusterCIDR} jump mark-for-masquerade`
    );
  }
  if (usesExt) {
    const c = chain(extChain);
    if (!sp.externalPolicyLocal) c.rules.push('jump mark-for-masquerade');
    else
      c.rules.push(
        `ip saddr ${node.clusterCIDR} goto ${clusterChain} comment "short-circuit pod traffic"`,
        'fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"',
        `fib saddr type local goto ${clusterChain} comment "short-circuit local traffic"`
      );
    if (hasExternal) c.rules.push(`goto ${sp.externalPolicyLocal ? localChain : clusterChain}`);
  }
  if (sp.affinitySeconds !== undefined) {
    for (const ep of cat.allReachable)
      set({
        name: affSet(ep),
        kind: 'set',
        type: 'ipv4_addr',
        flags: 'dynamic,timeout',
        timeout: formatTimeout(sp.affinitySeconds),
        elements: []
      });
  }
  const lb = (c: string, eps: typeof sp.endpoints) => {
    const ch = chain(c);
    if (sp.affinitySeconds !== undefined)
      for (const ep of eps) ch.rules.push(`ip saddr @${affSet(ep)} goto ${epChain(ep)}`);
    ch.rules.push(
      `numgen random mod ${eps.length} vmap { ${eps.map((ep, i) => `${i} : goto ${epChain(ep)}`).join(', ')} }`
    );
  };
  if (cat.usesCluster && cat.cluster.length) lb(clusterChain, cat.cluster);
  if (cat.usesLocal && cat.local.length) lb(localChain, cat.local);
  for (const ep of cat.allReachable) {
    const c = chain(epChain(ep));
    c.rules.push(`ip saddr ${ep.ip} jump mark-for-masquerade`);
    if (sp.affinitySeconds !== undefined) c.rules.push(`update @${affSet(ep)} { ip saddr }`);
    c.rules.push(`meta l4proto ${proto} dnat to ${endpointString(ep)}`);
  }
  return { chains, sets, maps, owned };
}

/**
 * kube-proxy's nftables proxier for one node, keeping what it wrote last time per service port:
 * a build writes only the service ports that changed (a partial sync, as syncProxyRules does
 * outside a full resync) and reuses the rest. The result is the table a build from nothing gives.
 */
export class NftablesProxier {
  private written = new Map<string, { sp: ServicePortInfo; part: PortPart }>();
  private context = '';
  /** Service ports ("ns/svc:port/proto") whose chains the last build wrote. */
  lastWritten: string[] = [];

  build(ports: ServicePortInfo[], node: NodeNet): NftTable {
    const { sets, chains, maps } = baseTable(node);
    const context = `${node.nodeName} ${node.nodeIP} ${node.clusterCIDR}`;
    if (context !== this.context) {
      this.written.clear();
      this.context = context;
    }
    const serviceChains: Record<string, string[]> = {};
    const seen = new Set<string>();
    this.lastWritten = [];
    for (const sp of ports) {
      const key = `${portNameString(sp)}/${sp.protocol.toLowerCase()}`;
      seen.add(key);
      let w = this.written.get(key);
      if (w && w.sp !== sp && JSON.stringify(w.sp) === JSON.stringify(sp)) w.sp = sp;
      if (!w || w.sp !== sp) {
        w = { sp, part: portPart(sp, node) };
        this.written.set(key, w);
        this.lastWritten.push(key);
      }
      const p = w.part;
      for (const c of p.chains) chains.push(c);
      for (const x of p.sets) sets.push(x);
      maps.svcIPs.push(...p.maps.svcIPs);
      maps.noEpSvc.push(...p.maps.noEpSvc);
      maps.noEpNp.push(...p.maps.noEpNp);
      maps.svcNPs.push(...p.maps.svcNPs);
      serviceChains[key] = p.owned;
    }
    for (const key of this.written.keys()) if (!seen.has(key)) this.written.delete(key);
    return { sets, chains, serviceChains };
  }
}

export function buildNftables(ports: ServicePortInfo[], node: NodeNet): NftTable {
  return new NftablesProxier().build(ports, node);
}

export const NFT_FAMILY = 'ip';
export const NFT_TABLE = 'kube-proxy';

function chainBlock(c: NftChain): string {
  let b = `\tchain ${c.name} {\n`;
  if (c.base) b += `\t\t${c.base}\n`;
  if (c.comment) b += `\t\tcomment "${c.comment}"\n`;
  for (const r of c.rules) b += `\t\t${r}\n`;
  return b + '\t}\n';
}

/** `nft list table ip kube-proxy`: tabs per level, sets and maps before chains, blank line between blocks. */
export function renderNft(t: NftTable): string {
  const blocks: string[] = [];
  for (const s of t.sets) {
    let b = `\t${s.kind} ${s.name} {\n\t\ttype ${s.type}\n`;
    if (s.flags) b += `\t\tflags ${s.flags}\n`;
    if (s.timeout) b += `\t\ttimeout ${s.timeout}\n`;
    if (s.comment) b += `\t\tcomment "${s.comment}"\n`;
    if (s.elements.length) b += `\t\telements = { ${s.elements.join(',\n\t\t\t     ')} }\n`;
    blocks.push(b + '\t}\n');
  }
  for (const c of t.chains) blocks.push(chainBlock(c));
  return `table ${NFT_FAMILY} ${NFT_TABLE} {\n\tcomment "rules for kube-proxy"\n${blocks.join('\n')}}\n`;
}

/**
 * `nft list chain ip kube-proxy <chain>`: the table declaration without its comment, the one
 * chain, the closing brace (src/rule.c do_list_chain, table_print_declaration).
 */
export function renderNftChains(t: NftTable): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of t.chains) out[c.name] = `table ${NFT_FAMILY} ${NFT_TABLE} {\n${chainBlock(c)}}\n`;
  return out;
}

export function countNftRules(t: NftTable): number {
  return t.chains.reduce((n, c) => n + c.rules.length, 0);
}
