/**
 * API-server load model: request rates from the cluster's size and churn, and the mutating-call
 * p99 latency they cause on the control plane, compared with the SLO (p99 ≤ 1 s). The request
 * sources follow the components' real periods; the service capacity per core and the weights of
 * reads and watch fan-out are modelled (calibration in docs/operations.md).
 */
import { LEADER_ELECTION } from './leaderelection';

/** sig-scalability SLO: mutating API calls, p99 over a day, ≤ 1 s. */
export const MUTATING_P99_SLO_MS = 1000;
/** Counters are sampled every 10 s and rates taken over the last 60 s of virtual time. */
export const SAMPLE_PERIOD_MS = 10_000;
export const RATE_WINDOW_MS = 60_000;
/** kubeadm's preflight minimum for a control-plane machine; the default machine shape here. */
export const DEFAULT_CORES = 2;
/** Machine shapes the sizing actions accept (cores per control-plane machine). */
export const CORE_SIZES = [1, 2, 4, 8, 16, 32, 64] as const;
/** At most this many kube-apiserver instances (the scenario schema's limit). */
export const MAX_API_SERVERS = 7;
/** Modelled: weighted requests per second one core of kube-apiserver serves. */
export const REQUESTS_PER_CORE = 200;
/** Modelled: etcd commit and API-server overhead of one write with no queueing. */
export const BASE_WRITE_MS = 15;
/** Modelled weights: a read, and one watch event delivered to one watcher, relative to a write. */
export const READ_WEIGHT = 0.2;
export const WATCH_EVENT_WEIGHT = 0.02;
/** Modelled: writes per pod start (create, binding, 4 status updates, 5 events). */
export const WRITES_PER_POD_START = 11;
/** Modelled: writes per pod deletion (delete, 2 status updates, final delete, 1 event). */
export const WRITES_PER_POD_DELETE = 5;
/** A request waiting longer than this is cut off by kube-apiserver's --request-timeout (60s). */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface LoadInput {
  nodes: number;
  /** Pods started per second (deletions as many, steady state). */
  podChurnPerSecond: number;
  /** Running kube-apiserver instances behind the load balancer. */
  apiServers: number;
  /** CPU cores of each control-plane machine. */
  cores: number;
  /** Node Lease renew interval (10 s: a quarter of the 40 s lease) and status report period (5 m). */
  leaseRenewMs?: number;
  statusReportMs?: number;
  /** Leader-elected components renewing a Lease (kube-scheduler, kube-controller-manager). */
  electedComponents?: number;
  /** Reads per write by controllers and clients (modelled, default 0.5). */
  readsPerWrite?: number;
  /** What etcd adds to each write beyond a healthy disk's fsync (ms): a slow quorum of disks. */
  etcdExtraMs?: number;
}

export interface LoadEstimate {
  /** Writes per second by source. */
  writes: { nodeLeases: number; nodeStatus: number; leaderElection: number; podChurn: number; total: number };
  readsPerSecond: number;
  /** Watch events delivered per second (every node's kube-proxy watches EndpointSlices). */
  watchEventsPerSecond: number;
  /** Weighted requests per second per API server, and its utilisation (≥ 1 means saturated). */
  perServerLoad: number;
  utilisation: number;
  p99MutatingMs: number;
  /** The fixed part of a write's latency (ms): API-server overhead and etcd's commit wait. */
  writeBaseMs: number;
  /** The queueing part of the p99 (ms), the same for reads and writes. */
  queueMs: number;
  sloMet: boolean;
}

/**
 * M/M/1 per API server (the load balancer splits evenly): p99 sojourn = ln(100) / (μ − λ). The
 * result only grows with load and only shrinks with cores and servers.
 */
export function estimateLoad(input: LoadInput): LoadEstimate {
  const lease = input.leaseRenewMs ?? 10_000;
  const status = input.statusReportMs ?? 5 * 60_000;
  const elected = input.electedComponents ?? 2;
  const nodeLeases = input.nodes / (lease / 1000);
  const nodeStatus = input.nodes / (status / 1000);
  const leaderElection = elected / (LEADER_ELECTION.retryPeriodMs / 1000);
  const podChurn = input.podChurnPerSecond * (WRITES_PER_POD_START + WRITES_PER_POD_DELETE);
  const total = nodeLeases + nodeStatus + leaderElection + podChurn;
  const readsPerSecond = total * (input.readsPerWrite ?? 0.5);
  // Each pod start and stop changes an EndpointSlice that every node's kube-proxy receives.
  const watchEventsPerSecond = input.podChurnPerSecond * 2 * input.nodes;
  const weighted = total + readsPerSecond * READ_WEIGHT + watchEventsPerSecond * WATCH_EVENT_WEIGHT;
  const servers = Math.max(1, input.apiServers);
  const perServerLoad = weighted / servers;
  const mu = REQUESTS_PER_CORE * Math.max(1, input.cores);
  const utilisation = perServerLoad / mu;
  const queueMs =
    utilisation >= 1
      ? REQUEST_TIMEOUT_MS
      : Math.min(REQUEST_TIMEOUT_MS, (Math.log(100) / (mu - perServerLoad)) * 1000);
  const writeBaseMs = BASE_WRITE_MS + Math.max(0, input.etcdExtraMs ?? 0);
  const p99MutatingMs = Math.min(REQUEST_TIMEOUT_MS, writeBaseMs + queueMs);
  return {
    writes: { nodeLeases, nodeStatus, leaderElection, podChurn, total },
    readsPerSecond,
    watchEventsPerSecond,
    perServerLoad,
    utilisation,
    p99MutatingMs,
    writeBaseMs,
    queueMs,
    sloMet: p99MutatingMs <= MUTATING_P99_SLO_MS
  };
}

/** Most nodes the model allows, up to the scalability limit, before the mutating p99 passes the SLO (0: not even one). */
export function maxNodesWithinSlo(input: Omit<LoadInput, 'nodes'>, limit = 5000): number {
  const ok = (nodes: number) => estimateLoad({ ...input, nodes }).sloMet;
  if (!ok(1)) return 0;
  if (ok(limit)) return limit;
  // Latency only grows with nodes, so the boundary is found by bisection.
  let lo = 1;
  let hi = limit;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
