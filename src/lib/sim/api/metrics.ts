/**
 * kube-apiserver's /metrics for what the simulation models: `apiserver_request_total` from the
 * API server's request counters (with the server errors it returned) and
 * `apiserver_request_duration_seconds` with upstream's buckets, the latencies coming from the
 * API-server load model (controlplane/load.ts) at each of its samples.
 * Names, labels and buckets: staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go.
 */
import type { Cluster } from '../cluster';
import type { Family, HistogramSample, Labels, Sample } from '../metrics/exposition';
import type { LoadEstimate } from '../controlplane/load';
import { lookupResource } from './resources';

/** requestLatencies' buckets (metrics.go). */
export const REQUEST_DURATION_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60
] as const;

/** Modelled: a read served from the watch cache with no queueing (ms). */
export const READ_BASE_MS = 2;

export interface LatencyHistogram {
  /** Cumulative counts per bucket of REQUEST_DURATION_BUCKETS. */
  c: number[];
  sum: number;
  count: number;
}

export interface LatencyState {
  /** Request counters at the last fold, by "<verb> <resource>". */
  last: Record<string, number>;
  hist: Record<string, LatencyHistogram>;
}

const VERBS: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE'
};

export const MUTATING_VERBS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The labels both metrics share, from a request counter's "<verb> <resource>[/<subresource>]" key. */
export function requestLabels(key: string): Labels {
  const [verb, res] = key.split(' ');
  const [plural, sub = ''] = res.split('/');
  const info = lookupResource(plural);
  const v = VERBS[verb] ?? verb.toUpperCase();
  // Components list and watch across namespaces; a POST goes to a collection; the other verbs
  // (and a POST to a subresource) name one object.
  const scope =
    v === 'LIST' || v === 'WATCH'
      ? 'cluster'
      : v === 'POST' && !sub
        ? info?.namespaced === false
          ? 'cluster'
          : 'namespace'
        : 'resource';
  return {
    component: 'apiserver',
    dry_run: '',
    group: info?.group ?? '',
    resource: plural,
    scope,
    subresource: sub,
    verb: v,
    version: info?.version ?? 'v1'
  };
}

/** P(latency ≤ t seconds): the fixed part, then the queue's exponential sojourn (M/M/1, as load.ts). */
function cdf(t: number, baseMs: number, est: LoadEstimate): number {
  if (est.utilisation >= 1) return t >= 60 ? 1 : 0; // every request waits for --request-timeout
  const x = t * 1000 - baseMs;
  if (x < 0) return 0;
  const rate = Math.log(100) / Math.max(est.queueMs, 1e-9);
  return 1 - Math.exp(-rate * x);
}

/**
 * Count the requests made since the last fold into the histograms at the latency the model gives
 * now. Returns a new state (the old one may be held by a snapshot). WATCH is long-running and is
 * left out, as the SLO queries leave it out.
 */
export function foldLatency(
  prev: LatencyState | undefined,
  counts: Record<string, number>,
  est: LoadEstimate
): LatencyState {
  const last = prev?.last ?? {};
  const hist: Record<string, LatencyHistogram> = { ...(prev?.hist ?? {}) };
  for (const [key, n] of Object.entries(counts)) {
    const d = n - (last[key] ?? 0);
    if (d <= 0 || key.startsWith('watch ')) continue;
    const write = MUTATING_VERBS.has(VERBS[key.split(' ')[0]] ?? '');
    const base = write ? est.writeBaseMs : READ_BASE_MS;
    const h = hist[key]
      ? { ...hist[key], c: [...hist[key].c] }
      : { c: REQUEST_DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
    REQUEST_DURATION_BUCKETS.forEach((le, i) => (h.c[i] += Math.round(d * cdf(le, base, est))));
    const meanMs = est.utilisation >= 1 ? 60_000 : base + est.queueMs / Math.log(100);
    h.sum += (d * meanMs) / 1000;
    h.count += d;
    hist[key] = h;
  }
  return { last: { ...counts }, hist };
}

/** Instance i's share of a counter the load balancer spread round-robin over k instances. */
function share(n: number, i: number, k: number): number {
  return Math.floor(n / k) + (i < n % k ? 1 : 0);
}

/**
 * The families kube-apiserver instance `index` of `instances` serves. Server errors are counted
 * with their code; the rest succeeded (201 for a POST, 200 otherwise).
 */
export function apiserverFamilies(
  cluster: Cluster,
  latency: LatencyState | undefined,
  index = 0,
  instances = 1
): Family[] {
  const counts = cluster.api.requestCounts();
  const errors = cluster.api.requestErrorCounts();
  const failed: Record<string, number> = {};
  const total: Sample[] = [];
  for (const [key, n] of Object.entries(errors)) {
    const at = key.lastIndexOf(' ');
    const req = key.slice(0, at);
    failed[req] = (failed[req] ?? 0) + n;
    const v = share(n, index, instances);
    if (v) total.push({ labels: { ...requestLabels(req), code: key.slice(at + 1) }, value: v });
  }
  for (const [key, n] of Object.entries(counts)) {
    const labels = requestLabels(key);
    const ok = share(n - (failed[key] ?? 0), index, instances);
    if (ok > 0)
      total.push({ labels: { ...labels, code: labels.verb === 'POST' ? '201' : '200' }, value: ok });
  }
  const duration: HistogramSample[] = Object.entries(latency?.hist ?? {}).map(([key, h]) => ({
    labels: requestLabels(key),
    buckets: REQUEST_DURATION_BUCKETS,
    counts: h.c.map((c) => share(c, index, instances)),
    sum: h.sum / instances,
    count: share(h.count, index, instances)
  }));
  return [
    {
      name: 'apiserver_request_total',
      help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      type: 'counter',
      samples: total
    },
    {
      name: 'apiserver_request_duration_seconds',
      help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      type: 'histogram',
      samples: duration
    }
  ];
}
