/**
 * IPVS mode (deprecated since v1.35, KEP-5495): one virtual server per Service IP:port on the
 * `kube-ipvs0` dummy interface, one real server per endpoint, NAT ("Masq") forwarding, and a small
 * fixed set of iptables rules that match ipsets instead of one rule per Service.
 */
import {
  addChain,
  addForwardRules,
  addRule,
  canaryTables,
  MASQ_MARK,
  type NodeNet,
  type Table
} from './iptables';
import { categorize, endpointString, portNameString, type ServicePortInfo } from './model';

export type IpvsScheduler = 'rr' | 'wrr' | 'lc' | 'wlc' | 'lblc' | 'lblcr' | 'sh' | 'dh' | 'sed' | 'nq';

export interface RealServer {
  address: string;
  weight: number;
  activeConn: number;
  inActConn: number;
}

export interface VirtualServer {
  protocol: string;
  address: string;
  scheduler: IpvsScheduler;
  persistent?: number;
  /** Which service port it serves ("ns/svc:port"). */
  service: string;
  kind: 'cluster IP' | 'external IP' | 'loadbalancer IP' | 'node port';
  realServers: RealServer[];
}

export interface IpvsState {
  virtualServers: VirtualServer[];
  /** Addresses bound to kube-ipvs0. */
  dummyAddresses: string[];
  ipsets: Record<string, string[]>;
}

const IPSETS = [
  'KUBE-CLUSTER-IP',
  'KUBE-EXTERNAL-IP',
  'KUBE-LOAD-BALANCER',
  'KUBE-LOOP-BACK',
  'KUBE-NODE-PORT-TCP',
  'KUBE-NODE-PORT-UDP',
  'KUBE-HEALTH-CHECK-NODE-PORT'
] as const;

/** One service port's virtual servers, kube-ipvs0 addresses and ipset entries. */
interface PortPart {
  vs: VirtualServer[];
  dummy: string[];
  sets: Record<string, string[]>;
}

function portPart(sp: ServicePortInfo, node: NodeNet, scheduler: IpvsScheduler): PortPart {
  const vs: VirtualServer[] = [];
  const dummy: string[] = [];
  const sets: Record<string, string[]> = {};
  for (const k of IPSETS) sets[k] = [];
  const cat = categorize(sp, node.nodeName);
  const proto = sp.protocol.toLowerCase();
  const internal = sp.internalPolicyLocal ? cat.local : cat.cluster;
  const external = sp.externalPolicyLocal ? cat.local : cat.cluster;
  const rs = (eps: typeof internal) =>
    eps.map((e) => ({ address: endpointString(e), weight: 1, activeConn: 0, inActConn: 0 }));
  const add = (address: string, kind: VirtualServer['kind'], eps: typeof internal) => {
    const v: VirtualServer = {
      protocol: sp.protocol,
      address,
      scheduler,
      service: portNameString(sp),
      kind,
      realServers: rs(eps)
    };
    if (sp.affinitySeconds !== undefined) v.persistent = sp.affinitySeconds;
    vs.push(v);
  };
  add(`${sp.clusterIP}:${sp.port}`, 'cluster IP', internal);
  dummy.push(sp.clusterIP);
  sets['KUBE-CLUSTER-IP'].push(`${sp.clusterIP},${proto}:${sp.port}`);
  for (const ip of sp.externalIPs) {
    add(`${ip}:${sp.port}`, 'external IP', external);
    dummy.push(ip);
    sets['KUBE-EXTERNAL-IP'].push(`${ip},${proto}:${sp.port}`);
  }
  for (const ip of sp.loadBalancerIPs) {
    add(`${ip}:${sp.port}`, 'loadbalancer IP', external);
    dummy.push(ip);
    sets['KUBE-LOAD-BALANCER'].push(`${ip},${proto}:${sp.port}`);
  }
  if (sp.nodePort) {
    add(`${node.nodeIP}:${sp.nodePort}`, 'node port', external);
    const set = sp.protocol === 'UDP' ? 'KUBE-NODE-PORT-UDP' : 'KUBE-NODE-PORT-TCP';
    sets[set].push(String(sp.nodePort));
  }
  if (sp.healthCheckNodePort) sets['KUBE-HEALTH-CHECK-NODE-PORT'].push(String(sp.healthCheckNodePort));
  for (const e of cat.allReachable) {
    if (e.nodeName === node.nodeName) sets['KUBE-LOOP-BACK'].push(`${e.ip},${proto}:${e.port},${e.ip}`);
  }
  return { vs, dummy, sets };
}

/**
 * kube-proxy's IPVS proxier for one node, keeping what it programmed last time per service port:
 * a build computes only the service ports that changed and reuses the others' virtual servers;
 * the result is the state a build from nothing gives.
 */
export class IpvsProxier {
  private written = new Map<string, { sp: ServicePortInfo; part: PortPart }>();
  private context = '';
  /** Service ports ("ns/svc:port/proto") the last build computed. */
  lastWritten: string[] = [];

  build(ports: ServicePortInfo[], node: NodeNet, scheduler: IpvsScheduler = 'rr'): IpvsState {
    const context = `${node.nodeName} ${node.nodeIP} ${node.clusterCIDR} ${scheduler}`;
    if (context !== this.context) {
      this.written.clear();
      this.context = context;
    }
    const vs: VirtualServer[] = [];
    const dummy = new Set<string>();
    const sets: Record<string, string[]> = {};
    for (const k of IPSETS) sets[k] = [];
    const seen = new Set<string>();
    this.lastWritten = [];
    for (const sp of ports) {
      const key = `${portNameString(sp)}/${sp.protocol.toLowerCase()}`;
      seen.add(key);
      let w = this.written.get(key);
      if (w && w.sp !== sp && JSON.stringify(w.sp) === JSON.stringify(sp)) w.sp = sp;
      if (!w || w.sp !== sp) {
        w = { sp, part: portPart(sp, node, scheduler) };
        this.written.set(key, w);
        this.lastWritten.push(key);
      }
      for (const v of w.part.vs) vs.push(v);
      for (const d of w.part.dummy) dummy.add(d);
      for (const k of IPSETS) for (const e of w.part.sets[k]) sets[k].push(e);
    }
    for (const key of this.written.keys()) if (!seen.has(key)) this.written.delete(key);
    for (const k of Object.keys(sets)) sets[k] = [...new Set(sets[k])].sort();
    vs.sort(
      (a, b) =>
        a.address.localeCompare(b.address, 'en', { numeric: true }) || a.protocol.localeCompare(b.protocol)
    );
    return { virtualServers: vs, dummyAddresses: [...dummy].sort(), ipsets: sets };
  }
}

export function buildIpvs(
  ports: ServicePortInfo[],
  node: NodeNet,
  scheduler: IpvsScheduler = 'rr'
): IpvsState {
  return new IpvsProxier().build(ports, node, scheduler);
}

/** The fixed iptables rules kube-proxy keeps in IPVS mode (pkg/proxy/ipvs/proxier.go writeIptablesRules). */
export function ipvsIptables(state: IpvsState, node: NodeNet): Record<Table['name'], Table> {
  const t = canaryTables();
  for (const table of Object.values(t)) addChain(table, 'KUBE-PROXY-CANARY');
  const { nat, filter } = t;
  for (const c of [
    'KUBE-FIREWALL',
    'KUBE-FORWARD',
    'KUBE-IPVS-FILTER',
    'KUBE-IPVS-OUT-FILTER',
    'KUBE-NODE-PORT',
    'KUBE-PROXY-FIREWALL',
    'KUBE-SOURCE-RANGES-FIREWALL'
  ])
    addChain(filter, c);
  for (const c of [
    'KUBE-LOAD-BALANCER',
    'KUBE-MARK-MASQ',
    'KUBE-NODE-PORT',
    'KUBE-POSTROUTING',
    'KUBE-SERVICES'
  ])
    addChain(nat, c);
  addRule(filter, 'INPUT', '-m comment --comment "kubernetes ipvs access filter" -j KUBE-IPVS-FILTER');
  addRule(filter, 'INPUT', '-m comment --comment "kube-proxy firewall rules" -j KUBE-PROXY-FIREWALL');
  addRule(filter, 'INPUT', '-m comment --comment "kubernetes health check rules" -j KUBE-NODE-PORT');
  addRule(filter, 'INPUT', '-j KUBE-FIREWALL');
  addRule(filter, 'FORWARD', '-m comment --comment "kube-proxy firewall rules" -j KUBE-PROXY-FIREWALL');
  addRule(filter, 'FORWARD', '-m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD');
  addRule(filter, 'OUTPUT', '-m comment --comment "kubernetes ipvs access filter" -j KUBE-IPVS-OUT-FILTER');
  addRule(filter, 'OUTPUT', '-j KUBE-FIREWALL');
  addRule(
    filter,
    'KUBE-FIREWALL',
    '! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP'
  );
  addForwardRules(filter);
  for (const s of ['KUBE-LOAD-BALANCER', 'KUBE-CLUSTER-IP', 'KUBE-EXTERNAL-IP'])
    addRule(filter, 'KUBE-IPVS-FILTER', `-m set --match-set ${s} dst,dst -j RETURN`);
  addRule(filter, 'KUBE-IPVS-FILTER', '-m set --match-set KUBE-HEALTH-CHECK-NODE-PORT dst -j RETURN');
  addRule(
    filter,
    'KUBE-IPVS-FILTER',
    '-m conntrack --ctstate NEW -m set --match-set KUBE-IPVS-IPS dst -j REJECT --reject-with icmp-port-unreachable'
  );
  addRule(
    filter,
    'KUBE-NODE-PORT',
    '-m comment --comment "Kubernetes health check node port" -m set --match-set KUBE-HEALTH-CHECK-NODE-PORT dst -j ACCEPT'
  );
  addRule(filter, 'KUBE-SOURCE-RANGES-FIREWALL', '-j DROP');
  addRule(nat, 'PREROUTING', '-m comment --comment "kubernetes service portals" -j KUBE-SERVICES');
  addRule(nat, 'OUTPUT', '-m comment --comment "kubernetes service portals" -j KUBE-SERVICES');
  addRule(nat, 'POSTROUTING', '-m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING');
  addRule(nat, 'KUBE-LOAD-BALANCER', '-j KUBE-MARK-MASQ');
  addRule(nat, 'KUBE-MARK-MASQ', `-j MARK --set-xmark ${MASQ_MARK}/${MASQ_MARK}`);
  for (const p of ['TCP', 'UDP']) {
    if (state.ipsets[`KUBE-NODE-PORT-${p}`].length)
      addRule(
        nat,
        'KUBE-NODE-PORT',
        `-p ${p.toLowerCase()} -m comment --comment "Kubernetes nodeport ${p} port for masquerade purpose" -m set --match-set KUBE-NODE-PORT-${p} dst -j KUBE-MARK-MASQ`
      );
  }
  addRule(
    nat,
    'KUBE-POSTROUTING',
    '-m comment --comment "Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose" -m set --match-set KUBE-LOOP-BACK dst,dst,src -j MASQUERADE'
  );
  addRule(nat, 'KUBE-POSTROUTING', `-m mark ! --mark ${MASQ_MARK}/${MASQ_MARK} -j RETURN`);
  addRule(nat, 'KUBE-POSTROUTING', `-j MARK --set-xmark ${MASQ_MARK}/0x0`);
  addRule(
    nat,
    'KUBE-POSTROUTING',
    '-m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully'
  );
  addRule(
    nat,
    'KUBE-SERVICES',
    `! -s ${node.clusterCIDR} -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ`
  );
  if (state.ipsets['KUBE-LOAD-BALANCER'].length)
    addRule(
      nat,
      'KUBE-SERVICES',
      '-m comment --comment "Kubernetes service lb portal" -m set --match-set KUBE-LOAD-BALANCER dst,dst -j KUBE-LOAD-BALANCER'
    );
  addRule(nat, 'KUBE-SERVICES', '-m addrtype --dst-type LOCAL -j KUBE-NODE-PORT');
  addRule(nat, 'KUBE-SERVICES', '-m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT');
  if (state.ipsets['KUBE-LOAD-BALANCER'].length)
    addRule(nat, 'KUBE-SERVICES', '-m set --match-set KUBE-LOAD-BALANCER dst,dst -j ACCEPT');
  return t;
}

/** `ipvsadm -Ln` (ipvsadm print_service_entry column widths, trailing spaces included). */
export function renderIpvsadm(state: IpvsState): string {
  let out =
    'IP Virtual Server version 1.2.1 (size=4096)\n' +
    'Prot LocalAddress:Port Scheduler Flags\n' +
    '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n';
  for (const v of state.virtualServers) {
    out += `${v.protocol}  ${v.address} ${v.scheduler}${v.persistent !== undefined ? ` persistent ${v.persistent}` : ''}\n`;
    for (const r of v.realServers) {
      out += `  -> ${r.address.padEnd(28)} ${'Masq'.padEnd(7)} ${String(r.weight).padEnd(6)} ${String(r.activeConn).padEnd(10)} ${String(r.inActConn).padEnd(10)}\n`;
    }
  }
  return out;
}

export function renderIpsetList(state: IpvsState): string {
  const types: Record<string, string> = {
    'KUBE-CLUSTER-IP': 'hash:ip,port',
    'KUBE-EXTERNAL-IP': 'hash:ip,port',
    'KUBE-LOAD-BALANCER': 'hash:ip,port',
    'KUBE-LOOP-BACK': 'hash:ip,port,ip',
    'KUBE-NODE-PORT-TCP': 'bitmap:port',
    'KUBE-NODE-PORT-UDP': 'bitmap:port',
    'KUBE-HEALTH-CHECK-NODE-PORT': 'bitmap:port'
  };
  return Object.entries(state.ipsets)
    .map(
      ([name, members]) =>
        `Name: ${name}\nType: ${types[name]}\nNumber of entries: ${members.length}\nMembers:\n${members.map((m) => m + '\n').join('')}`
    )
    .join('\n');
}
