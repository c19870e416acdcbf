/**
 * iptables mode: the rules kube-proxy writes with iptables-restore (pkg/proxy/iptables/proxier.go
 * syncProxyRules), kept in iptables-save's canonical rendering (`-d` before `-p`, `/32` on hosts,
 * quoted comments, `--set-xmark` for `--or-mark`, statistic probabilities as the kernel stores them).
 */
import { sha256Base32Prefix16 } from './hash';
import {
  categorize,
  endpointString,
  isExternallyAccessible,
  portNameString,
  type ServicePortInfo
} from './model';

export interface Table {
  name: 'mangle' | 'filter' | 'nat';
  builtins: string[];
  chains: string[];
  rules: { chain: string; spec: string }[];
}

export interface NodeNet {
  nodeName: string;
  nodeIP: string;
  clusterCIDR: string;
}

/** Masquerade bit 14 (--iptables-masquerade-bit default). */
export const MASQ_MARK = '0x4000';

const BUILTINS: Record<Table['name'], string[]> = {
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']
};

export function newTable(name: Table['name']): Table {
  return { name, builtins: BUILTINS[name], chains: [], rules: [] };
}

const chainIndex = new WeakMap<Table, Set<string>>();

export function addChain(t: Table, chain: string): void {
  let seen = chainIndex.get(t);
  if (!seen) chainIndex.set(t, (seen = new Set(t.chains)));
  if (seen.has(chain)) return;
  seen.add(chain);
  t.chains.push(chain);
}

export function addRule(t: Table, chain: string, spec: string): void {
  // Reading a character makes the engine flatten a string built from many pieces, so a ruleset
  // keeps one string per rule instead of every piece it was joined from.
  spec.charCodeAt(0);
  t.rules.push({ chain, spec });
}

const hashCache = new Map<string, string>();

/** base32(sha256(s))[:16], memoised: the same names are hashed on every sync and every render. */
export function hash16(s: string): string {
  let h = hashCache.get(s);
  if (h === undefined) {
    if (hashCache.size > 100_000) hashCache.clear();
    h = sha256Base32Prefix16(s);
    hashCache.set(s, h);
  }
  return h;
}

/** portProtoHash: first 16 characters of base32(sha256(servicePortName + protocol)). */
export function portProtoHash(sp: ServicePortInfo): string {
  return hash16(portNameString(sp) + sp.protocol.toLowerCase());
}

export const svcChain = (sp: ServicePortInfo) => `KUBE-SVC-${portProtoHash(sp)}`;
export const svlChain = (sp: ServicePortInfo) => `KUBE-SVL-${portProtoHash(sp)}`;
export const extChain = (sp: ServicePortInfo) => `KUBE-EXT-${portProtoHash(sp)}`;

export function sepChain(sp: ServicePortInfo, ep: { ip: string; port: number }): string {
  return `KUBE-SEP-${hash16(portNameString(sp) + sp.protocol.toLowerCase() + endpointString(ep))}`;
}

/**
 * kube-proxy writes 1/n as "%0.10f"; xt_statistic stores lround(p × 2^31) and iptables-save prints
 * that back with "%.11f" (0.33333333349 for 1/3).
 */
export function storedProbability(n: number): number {
  return Math.round(parseFloat((1 / n).toFixed(10)) * 0x80000000);
}

const printed: string[] = [];

export function printedProbability(n: number): string {
  return (printed[n] ??= (storedProbability(n) / 0x80000000).toFixed(11));
}

const q = (s: string) => `"${s}"`;

/** The jump rules kube-proxy and the kubelet keep in the built-in chains (iptablesJumpChains). */
function baseRules(nat: Table, filter: Table): void {
  for (const c of [
    'KUBE-EXTERNAL-SERVICES',
    'KUBE-FIREWALL',
    'KUBE-FORWARD',
    'KUBE-NODEPORTS',
    'KUBE-PROXY-FIREWALL',
    'KUBE-SERVICES'
  ])
    addChain(filter, c);
  for (const c of ['KUBE-MARK-MASQ', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-SERVICES']) addChain(nat, c);
  const fw =
    '-m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL';
  addRule(filter, 'INPUT', fw);
  addRule(filter, 'INPUT', '-m comment --comment "kubernetes health check service ports" -j KUBE-NODEPORTS');
  addRule(
    filter,
    'INPUT',
    '-m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES'
  );
  addRule(filter, 'INPUT', '-j KUBE-FIREWALL');
  addRule(filter, 'FORWARD', fw);
  addRule(filter, 'FORWARD', '-m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD');
  addRule(
    filter,
    'FORWARD',
    '-m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES'
  );
  addRule(
    filter,
    'FORWARD',
    '-m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES'
  );
  addRule(filter, 'OUTPUT', fw);
  addRule(
    filter,
    'OUTPUT',
    '-m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES'
  );
  addRule(filter, 'OUTPUT', '-j KUBE-FIREWALL');
  addRule(
    filter,
    'KUBE-FIREWALL',
    '! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP'
  );
  addRule(nat, 'PREROUTING', '-m comment --comment "kubernetes service portals" -j KUBE-SERVICES');
  addRule(nat, 'OUTPUT', '-m comment --comment "kubernetes service portals" -j KUBE-SERVICES');
  addRule(nat, 'POSTROUTING', '-m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING');
  addRule(nat, 'KUBE-MARK-MASQ', `-j MARK --set-xmark ${MASQ_MARK}/${MASQ_MARK}`);
  addRule(nat, 'KUBE-POSTROUTING', `-m mark ! --mark ${MASQ_MARK}/${MASQ_MARK} -j RETURN`);
  addRule(nat, 'KUBE-POSTROUTING', `-j MARK --set-xmark ${MASQ_MARK}/0x0`);
  addRule(
    nat,
    'KUBE-POSTROUTING',
    '-m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully'
  );
}

/** The three tables with the canary chains the kubelet and kube-proxy create in every mode. */
export function canaryTables(): Record<Table['name'], Table> {
  const t = { mangle: newTable('mangle'), filter: newTable('filter'), nat: newTable('nat') };
  for (const table of Object.values(t)) {
    addChain(table, 'KUBE-KUBELET-CANARY');
  }
  return t;
}

export interface IptablesRuleset {
  tables: Record<Table['name'], Table>;
  /** Chains per service port (for partial-sync accounting): "ns/svc:port/proto" → chain names. */
  serviceChains: Record<string, string[]>;
  largeClusterMode: boolean;
}

/** Above this many endpoints kube-proxy drops rule comments (largeClusterEndpointsThreshold). */
export const LARGE_CLUSTER_ENDPOINTS = 1000;

/** One service port's part of the ruleset, in the order syncProxyRules writes it. */
interface PortRules {
  nat: Table;
  filter: Table;
  chains: string[];
}

/** The rules and chains of one service port (the body of syncProxyRules' per-service loop). */
function portRules(sp: ServicePortInfo, node: NodeNet, large: boolean): PortRules {
  const nat = newTable('nat');
  const filter = newTable('filter');
  const cmt = (c: string) => (large ? '' : ` -m comment --comment ${q(c)}`);
  const name = portNameString(sp);
  const proto = sp.protocol.toLowerCase();
  const cat = categorize(sp, node.nodeName);
  const svc = svcChain(sp);
  const svl = svlChain(sp);
  const ext = extChain(sp);
  const internalChain = sp.internalPolicyLocal ? svl : svc;
  const hasInternal = cat.hasAny && (!sp.internalPolicyLocal || cat.local.length > 0);
  const hasExternal = cat.hasAny && (!sp.externalPolicyLocal || cat.local.length > 0);
  const usesExt = cat.hasAny && isExternallyAccessible(sp);
  const externalPolicyChain = sp.externalPolicyLocal ? svl : svc;
  const noEpTarget = !cat.hasAny ? '-j REJECT --reject-with icmp-port-unreachable' : '-j DROP';
  const noEpComment = !cat.hasAny ? `${name} has no endpoints` : `${name} has no local endpoints`;
  const dport = `-m ${proto} --dport ${sp.port}`;
  const chains: string[] = [];

  if (hasInternal) {
    addRule(
      nat,
      'KUBE-SERVICES',
      `-d ${sp.clusterIP}/32 -p ${proto} -m comment --comment ${q(name + ' cluster IP')} ${dport} -j ${internalChain}`
    );
  } else {
    addRule(
      filter,
      'KUBE-SERVICES',
      `-d ${sp.clusterIP}/32 -p ${proto} -m comment --comment ${q(noEpComment)} ${dport} ${noEpTarget}`
    );
  }
  for (const ip of sp.externalIPs) {
    if (cat.hasAny)
      addRule(
        nat,
        'KUBE-SERVICES',
        `-d ${ip}/32 -p ${proto} -m comment --comment ${q(name + ' external IP')} ${dport} -j ${ext}`
      );
    if (!hasExternal)
      addRule(
        filter,
        'KUBE-EXTERNAL-SERVICES',
        `-d ${ip}/32 -p ${proto} -m comment --comment ${q(noEpComment)} ${dport} ${noEpTarget}`
      );
  }
  for (const ip of sp.loadBalancerIPs) {
    if (cat.hasAny)
      addRule(
        nat,
        'KUBE-SERVICES',
        `-d ${ip}/32 -p ${proto} -m comment --comment ${q(name + ' loadbalancer IP')} ${dport} -j ${ext}`
      );
    if (!hasExternal)
      addRule(
        filter,
        'KUBE-EXTERNAL-SERVICES',
        `-d ${ip}/32 -p ${proto} -m comment --comment ${q(noEpComment)} ${dport} ${noEpTarget}`
      );
  }
  if (sp.nodePort) {
    if (cat.hasAny)
      addRule(
        nat,
        'KUBE-NODEPORTS',
        `-p ${proto} -m comment --comment ${q(name)} -m ${proto} --dport ${sp.nodePort} -j ${ext}`
      );
    if (!hasExternal)
      addRule(
        filter,
        'KUBE-EXTERNAL-SERVICES',
        `-p ${proto} -m comment --comment ${q(noEpComment)} -m addrtype --dst-type LOCAL -m ${proto} --dport ${sp.nodePort} ${noEpTarget}`
      );
  }
  if (sp.healthCheckNodePort) {
    addRule(
      filter,
      'KUBE-NODEPORTS',
      `-p tcp -m comment --comment ${q(name + ' health check node port')} -m tcp --dport ${sp.healthCheckNodePort} -j ACCEPT`
    );
  }
  if (hasInternal) {
    addChain(nat, internalChain);
    addRule(
      nat,
      internalChain,
      `! -s ${node.clusterCIDR} -d ${sp.clusterIP}/32 -p ${proto} -m comment --comment ${q(name + ' cluster IP')} ${dport} -j KUBE-MARK-MASQ`
    );
  }
  if (usesExt) {
    addChain(nat, ext);
    chains.push(ext);
    if (!sp.externalPolicyLocal) {
      addRule(
        nat,
        ext,
        `-m comment --comment ${q(`masquerade traffic for ${name} external destinations`)} -j KUBE-MARK-MASQ`
      );
    } else {
      addRule(
        nat,
        ext,
        `-s ${node.clusterCIDR} -m comment --comment ${q(`pod traffic for ${name} external destinations`)} -j ${svc}`
      );
      addRule(
        nat,
        ext,
        `-m comment --comment ${q(`masquerade LOCAL traffic for ${name} external destinations`)} -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`
      );
      addRule(
        nat,
        ext,
        `-m comment --comment ${q(`route LOCAL traffic for ${name} external destinations`)} -m addrtype --src-type LOCAL -j ${svc}`
      );
    }
    if (hasExternal) addRule(nat, ext, `-j ${externalPolicyChain}`);
  }
  // Each endpoint's KUBE-SEP- name and the plain comment are needed several times: work them out once.
  const seps = new Map<string, string>();
  const sepOf = (ep: { ip: string; port: number }): string => {
    const k = endpointString(ep);
    let s = seps.get(k);
    if (s === undefined) seps.set(k, (s = sepChain(sp, ep)));
    return s;
  };
  const cmtName = cmt(name);
  const lb = (chain: string, eps: typeof sp.endpoints) => {
    addChain(nat, chain);
    chains.push(chain);
    if (sp.affinitySeconds !== undefined) {
      for (const ep of eps) {
        const sep = sepOf(ep);
        addRule(
          nat,
          chain,
          `${cmt(`${name} -> ${endpointString(ep)}`).trim()} -m recent --rcheck --seconds ${sp.affinitySeconds} --reap --name ${sep} --mask 255.255.255.255 --rsource -j ${sep}`.trim()
        );
      }
    }
    eps.forEach((ep, i) => {
      const stat =
        i < eps.length - 1
          ? ` -m statistic --mode random --probability ${printedProbability(eps.length - i)}`
          : '';
      addRule(nat, chain, `${cmt(`${name} -> ${endpointString(ep)}`)}${stat} -j ${sepOf(ep)}`.trim());
    });
  };
  if (cat.usesCluster && cat.cluster.length) lb(svc, cat.cluster);
  if (cat.usesLocal && cat.local.length) lb(svl, cat.local);
  for (const ep of cat.allReachable) {
    const sep = sepOf(ep);
    addChain(nat, sep);
    chains.push(sep);
    addRule(nat, sep, `-s ${ep.ip}/32${cmtName} -j KUBE-MARK-MASQ`);
    const recent =
      sp.affinitySeconds !== undefined
        ? ` -m recent --set --name ${sep} --mask 255.255.255.255 --rsource`
        : '';
    addRule(
      nat,
      sep,
      `-p ${proto}${cmtName}${recent} -m ${proto} -j DNAT --to-destination ${endpointString(ep)}`
    );
  }
  return { nat, filter, chains };
}

/** Service port key: "ns/svc:port/proto". */
const portKey = (sp: ServicePortInfo) => `${portNameString(sp)}/${sp.protocol.toLowerCase()}`;

/**
 * kube-proxy's iptables proxier for one node, keeping what it wrote last time per service port.
 * Like syncProxyRules with tryPartialSync, a build writes only the service ports that changed
 * since the previous build (and all of them when the node or large-cluster mode changed); the
 * others' chains are reused as they were. The result is the same ruleset a build from nothing
 * gives: the same tables, chains and rules in the same order.
 */
export class IptablesProxier {
  private written = new Map<string, { sp: ServicePortInfo; rules: PortRules }>();
  private context = '';
  /** Service ports ("ns/svc:port/proto") whose chains the last build wrote. */
  lastWritten: string[] = [];

  build(ports: ServicePortInfo[], node: NodeNet): IptablesRuleset {
    const tables = canaryTables();
    for (const t of Object.values(tables)) addChain(t, 'KUBE-PROXY-CANARY');
    const { nat, filter } = tables;
    baseRules(nat, filter);
    const total = ports.reduce((n, sp) => n + sp.endpoints.length, 0);
    const large = total > LARGE_CLUSTER_ENDPOINTS;
    const context = `${node.nodeName} ${node.nodeIP} ${node.clusterCIDR} ${large}`;
    if (context !== this.context) {
      this.written.clear();
      this.context = context;
    }
    const serviceChains: Record<string, string[]> = {};
    const seen = new Set<string>();
    this.lastWritten = [];
    for (const sp of ports) {
      const key = portKey(sp);
      seen.add(key);
      let w = this.written.get(key);
      // Unchanged: the same object, or an equal one (stored port infos are never changed).
      if (w && w.sp !== sp && JSON.stringify(w.sp) === JSON.stringify(sp)) w.sp = sp;
      if (!w || w.sp !== sp) {
        w = { sp, rules: portRules(sp, node, large) };
        this.written.set(key, w);
        this.lastWritten.push(key);
      }
      // A port's own chains (KUBE-SVC-, KUBE-SVL-, KUBE-EXT-, KUBE-SEP- with its hash) are
      // nobody else's: they go in as they are.
      const natChains = w.rules.nat.chains;
      for (let i = 0; i < natChains.length; i++) nat.chains.push(natChains[i]);
      const natRules = w.rules.nat.rules;
      for (let i = 0; i < natRules.length; i++) nat.rules.push(natRules[i]);
      const filterChains = w.rules.filter.chains;
      for (let i = 0; i < filterChains.length; i++) filter.chains.push(filterChains[i]);
      const filterRules = w.rules.filter.rules;
      for (let i = 0; i < filterRules.length; i++) filter.rules.push(filterRules[i]);
      serviceChains[key] = w.rules.chains;
    }
    for (const key of this.written.keys()) if (!seen.has(key)) this.written.delete(key);
    // The chains went in without addChain: a later addChain rebuilds its index from the list.
    chainIndex.delete(nat);
    chainIndex.delete(filter);
    addRule(
      nat,
      'KUBE-SERVICES',
      '-m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS'
    );
    addForwardRules(filter);
    return { tables, serviceChains, largeClusterMode: large };
  }
}

/** The whole ruleset for `ports` on `node`, written from nothing. */
export function buildIptables(ports: ServicePortInfo[], node: NodeNet): IptablesRuleset {
  return new IptablesProxier().build(ports, node);
}

/**
 * KUBE-FORWARD's rules, the same in iptables and IPVS mode: drop INVALID conntrack state, accept
 * what kube-proxy marked for masquerade and the replies of tracked connections.
 */
export function addForwardRules(filter: Table): void {
  addRule(filter, 'KUBE-FORWARD', '-m conntrack --ctstate INVALID -j DROP');
  addRule(
    filter,
    'KUBE-FORWARD',
    `-m comment --comment "kubernetes forwarding rules" -m mark --mark ${MASQ_MARK}/${MASQ_MARK} -j ACCEPT`
  );
  addRule(
    filter,
    'KUBE-FORWARD',
    '-m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT'
  );
}

/** ctime(3) as iptables-save prints it: "Thu Jan  1 00:00:00 2026". */
export function ctime(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

export const IPTABLES_VERSION = 'v1.8.10 (nf_tables)';

/** iptables-save: built-in chains with policy and counters, user chains sorted, rules grouped by chain. */
export function renderIptablesSave(
  tables: Record<Table['name'], Table>,
  wallMs: number,
  only?: Table['name']
): string {
  const when = ctime(wallMs);
  let out = '';
  for (const name of ['mangle', 'filter', 'nat'] as const) {
    if (only && only !== name) continue;
    const t = tables[name];
    out += `# Generated by iptables-save ${IPTABLES_VERSION} on ${when}\n*${name}\n`;
    for (const b of t.builtins) out += `:${b} ACCEPT [0:0]\n`;
    const user = [...t.chains].sort();
    for (const c of user) out += `:${c} - [0:0]\n`;
    // Rules grouped by chain in output order, each chain's rules in the order they were added
    // (a stable counting sort by chain position).
    const order = [...t.builtins, ...user];
    const at = new Map<string, number>();
    for (let i = 0; i < order.length; i++) at.set(order[i], i);
    const count = new Int32Array(order.length + 1);
    const slot = new Int32Array(t.rules.length);
    for (let i = 0; i < t.rules.length; i++) {
      const c = at.get(t.rules[i].chain);
      slot[i] = c === undefined ? -1 : c;
      if (c !== undefined) count[c + 1]++;
    }
    for (let i = 1; i <= order.length; i++) count[i] += count[i - 1];
    const sorted = new Array<string>(count[order.length]);
    for (let i = 0; i < t.rules.length; i++) {
      const c = slot[i];
      if (c >= 0) sorted[count[c]++] = t.rules[i].spec;
    }
    const parts: string[] = [];
    let k = 0;
    for (let c = 0; c < order.length; c++) {
      const prefix = '-A ' + order[c] + ' ';
      for (const end = count[c]; k < end; k++) parts.push(prefix, sorted[k], '\n');
    }
    out += parts.join('');
    out += `COMMIT\n# Completed on ${when}\n`;
  }
  return out;
}

export function countRules(tables: Record<Table['name'], Table>): number {
  return Object.values(tables).reduce((n, t) => n + t.rules.length, 0);
}
