/**
 * Cost of each kube-proxy mode as Services and endpoints grow: rule counts, sync time, first-packet
 * lookup work and network programming latency. Pure functions, used by the running kube-proxies
 * (sync durations), the scaling chart and `npm run bench`. Calibration and sources: docs/networking.md.
 */
import { buildIpvs, ipvsIptables } from './ipvs';
import { buildIptables, countRules } from './iptables';
import { buildNftables, countNftRules } from './nftables';

export type CostMode = 'iptables' | 'ipvs' | 'nftables';

const EMPTY_NODE = { nodeName: 'n', nodeIP: '10.0.0.11', clusterCIDR: '10.244.0.0/16' };
/** Rules every node has with no Services at all, measured from the generators themselves. */
const BASE = {
  iptables: countRules(buildIptables([], EMPTY_NODE).tables),
  ipvs: countRules(ipvsIptables(buildIpvs([], EMPTY_NODE), EMPTY_NODE)),
  nftables: countNftRules(buildNftables([], EMPTY_NODE))
};

export interface RuleCount {
  /** iptables rules (nat + filter + mangle); in IPVS mode this stays constant. */
  iptablesRules: number;
  ipvsVirtualServers: number;
  ipvsRealServers: number;
  nftRules: number;
  nftMapElements: number;
  /** The headline number plotted for the mode. */
  total: number;
}

/**
 * Rules for `services` ClusterIP service ports with `endpointsPerService` ready endpoints each
 * (cluster traffic policy, no affinity): iptables writes 2 + 3E rules per port (KUBE-SERVICES match,
 * KUBE-SVC masquerade rule, E statistic rules, 2 rules per KUBE-SEP chain), nftables 2 + 2E rules
 * plus one verdict-map element, IPVS one virtual server and E real servers.
 */
export function rules(
  services: number,
  endpointsPerService: number,
  mode: CostMode,
  opts: { nodePorts?: boolean } = {}
): RuleCount {
  const s = services;
  const e = endpointsPerService;
  const np = opts.nodePorts ? 1 : 0;
  const r: RuleCount = {
    iptablesRules: 0,
    ipvsVirtualServers: 0,
    ipvsRealServers: 0,
    nftRules: 0,
    nftMapElements: 0,
    total: 0
  };
  if (mode === 'iptables') {
    r.iptablesRules = BASE.iptables + s * (2 + 3 * e + 3 * np);
    r.total = r.iptablesRules;
  } else if (mode === 'ipvs') {
    r.iptablesRules = BASE.ipvs + (np && s ? 1 : 0);
    r.ipvsVirtualServers = s * (1 + np);
    r.ipvsRealServers = s * e * (1 + np);
    r.total = r.iptablesRules;
  } else {
    r.nftRules = BASE.nftables + s * (2 + 2 * e + np);
    r.nftMapElements = s * (1 + np);
    r.total = r.nftRules;
  }
  return r;
}

/**
 * iptables sync time model: t = α·(rules in the table) + β·(lines written). The kernel swaps the
 * whole table on every restore (α), while iptables-restore parses only what a partial sync writes
 * (β). α and β are fitted to KEP-3453's 5,000-node figures (see CALIBRATION).
 */
export const CALIBRATION = {
  /** Published (KEP-3453): p50 network programming latency in the 5,000-node test, seconds. */
  published: { fullSyncMinSync10: 27, partialSyncMinSync10: 13, partialSyncMinSync1: 5 },
  /** Modelled: the 5,000-node test's Service population. */
  scaleTest: { services: 5000, endpointsPerService: 30, churn: 0.01 },
  /** Modelled: per-object costs for IPVS (netlink) and nftables (one transaction), ms. */
  ipvsPerObjectMs: 0.02,
  ipvsBaseMs: 5,
  nftPerObjectMs: 0.005,
  nftBaseMs: 2
};

function fit() {
  const p = CALIBRATION.published;
  const waitFactor = (p.partialSyncMinSync10 - p.partialSyncMinSync1) / (10 - 1);
  const fullSync = p.fullSyncMinSync10 - waitFactor * 10;
  const partialSync = p.partialSyncMinSync10 - waitFactor * 10;
  const { services, endpointsPerService, churn } = CALIBRATION.scaleTest;
  const total = rules(services, endpointsPerService, 'iptables').iptablesRules;
  const written = partialLines(services, endpointsPerService, Math.round(services * churn));
  // (α+β)·total = fullSync; α·total + β·written = partialSync
  const beta = (fullSync - partialSync) / (total - written);
  const alpha = fullSync / total - beta;
  return { waitFactor, alphaMs: alpha * 1000, betaMs: beta * 1000 };
}

/** Lines a partial iptables sync writes: KUBE-SERVICES and KUBE-NODEPORTS in full, plus changed services. */
function partialLines(services: number, e: number, changed: number): number {
  return BASE.iptables + services + changed * (2 + 3 * e);
}

export const FITTED = fit();

export function syncTime(
  mode: CostMode,
  services: number,
  endpointsPerService: number,
  opts: { full: boolean; changedServices?: number }
): number {
  const changed = opts.full ? services : Math.min(services, opts.changedServices ?? 0);
  const e = endpointsPerService;
  if (mode === 'iptables') {
    const total = rules(services, e, 'iptables').iptablesRules;
    const written = opts.full ? total : partialLines(services, e, changed);
    return FITTED.alphaMs * total + FITTED.betaMs * written;
  }
  if (mode === 'ipvs') return CALIBRATION.ipvsBaseMs + CALIBRATION.ipvsPerObjectMs * changed * (1 + e);
  // nftables flushes and refills its verdict maps every sync, and rewrites changed chains.
  return CALIBRATION.nftBaseMs + CALIBRATION.nftPerObjectMs * (services + changed * (2 + 2 * e));
}

export interface Lookup {
  /** Rules or table lookups the first packet of a connection goes through. */
  steps: number;
  /** Modelled CPU time, microseconds (50 ns per iptables rule, 150 ns per hash/map lookup). */
  micros: number;
  complexity: 'O(n)' | 'O(1)';
}

/** First-packet lookup: iptables walks KUBE-SERVICES linearly; IPVS and nftables do hash/map lookups. */
export function firstPacketLookup(mode: CostMode, services: number, endpointsPerService: number): Lookup {
  if (mode === 'iptables') {
    // On average half of KUBE-SERVICES, the masquerade check, (E+1)/2 statistic rules, then the KUBE-SEP pair.
    const steps = services / 2 + 1 + (endpointsPerService + 1) / 2 + 2;
    return { steps, micros: steps * 0.05, complexity: 'O(n)' };
  }
  const steps = mode === 'ipvs' ? 2 : 4;
  return { steps, micros: steps * 0.15, complexity: 'O(1)' };
}

/** p50 time from an EndpointSlice change to rules in place: waiting for the batch, then the sync. */
export function programmingLatency(
  mode: CostMode,
  services: number,
  endpointsPerService: number,
  opts: { minSyncPeriodSeconds: number; partialSync: boolean; churn?: number }
): number {
  const changed = Math.round(services * (opts.churn ?? CALIBRATION.scaleTest.churn));
  const sync = syncTime(mode, services, endpointsPerService, {
    full: mode === 'iptables' ? !opts.partialSync : false,
    changedServices: changed
  });
  return FITTED.waitFactor * opts.minSyncPeriodSeconds + sync / 1000;
}
