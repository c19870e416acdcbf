/**
 * The control-plane sizing model as the view draws it: latency against node count for a sizing,
 * the next sizes up, and the what-if estimate. Pure functions of the load model (no cluster), so
 * the page computes them as the learner types; the cluster's own figures come in the read model.
 */
import {
  CORE_SIZES,
  estimateLoad,
  MAX_API_SERVERS,
  maxNodesWithinSlo,
  type LoadEstimate
} from '../controlplane/load';

export {
  MUTATING_P99_SLO_MS,
  RATE_WINDOW_MS,
  REQUEST_TIMEOUT_MS,
  type LoadEstimate
} from '../controlplane/load';

export interface Curve {
  id: string;
  apiServers: number;
  cores: number;
  /** [nodes, p99 ms] */
  points: [number, number][];
  /** Most nodes within the SLO with this sizing. */
  limit: number;
}

/** 10 to 5000 nodes, log-spaced, dense enough to draw the knee where a sizing saturates. */
export const CHART_NODES = Array.from({ length: 91 }, (_, i) => Math.round(10 * 500 ** (i / 90)));

/** Latency against node count for a sizing at a churn. */
export function curve(id: string, apiServers: number, cores: number, churn: number): Curve {
  return {
    id,
    apiServers,
    cores,
    points: CHART_NODES.map((nodes) => [
      nodes,
      estimateLoad({ nodes, podChurnPerSecond: churn, apiServers, cores }).p99MutatingMs
    ]),
    limit: maxNodesWithinSlo({ podChurnPerSecond: churn, apiServers, cores })
  };
}

/** The current sizing, then the next sizes up: twice the cores, four times, one more server. */
export function curves(apiServers: number, cores: number, churn: number): Curve[] {
  const servers = Math.max(1, apiServers);
  const out = [curve('current', servers, cores, churn)];
  for (const f of [2, 4]) {
    if ((CORE_SIZES as readonly number[]).includes(cores * f))
      out.push(curve(`cores-${cores * f}`, servers, cores * f, churn));
  }
  if (servers < MAX_API_SERVERS) out.push(curve(`servers-${servers + 1}`, servers + 1, cores, churn));
  return out;
}

export function whatIf(apiServers: number, cores: number, nodes: number, churn: number): LoadEstimate {
  return estimateLoad({ nodes, podChurnPerSecond: churn, apiServers: Math.max(1, apiServers), cores });
}

/** 27 ms, 1.2 s, 60 s (units translatable). */
export function formatMs(ms: number, units = { ms: 'ms', s: 's' }): string {
  if (ms >= 10_000) return `${Math.round(ms / 1000)} ${units.s}`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))} ${units.s}`;
  return `${Math.round(ms)} ${units.ms}`;
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 100) return String(Math.round(perSecond));
  if (perSecond >= 10) return perSecond.toFixed(1);
  return perSecond.toFixed(2);
}
