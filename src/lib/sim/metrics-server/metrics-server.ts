/**
 * metrics-server (kubernetes-sigs/metrics-server), the process of the `metrics-server` pod in
 * kube-system: every `--metric-resolution` (60s by default, 15s in the release manifest) it
 * scrapes each node's kubelet at `/metrics/resource` (pkg/scraper), keeps the last two points per
 * node and per container (pkg/storage/node.go, pod.go) and serves `metrics.k8s.io/v1beta1`
 * NodeMetrics and PodMetrics behind kube-apiserver (pkg/api/node.go, pod.go). CPU is the rate
 * between the two points, memory the last working set; `timestamp` is the last point's time and
 * `window` the time between the points. So a figure appears one scrape after a pod starts (or at
 * its first scrape if it started 10s–resolution earlier) and lags the kubelet by up to one
 * resolution. The storage lives in the process: a new pod starts empty.
 *
 * It only runs while its pod's container runs; kube-aggregator (api/aggregator.ts) proxies
 * requests to it once the APIService `v1beta1.metrics.k8s.io` is Available. Component kind and id
 * `metrics-server`; the addon (scenario/addons/metrics-server.ts) adds it.
 */
import { ApiError, ConnectionError, notFound } from '../api/errors';
import type { ListOptions } from '../api/apiserver';
import { AGGREGATOR_ID, type AggregatedServer, type KubeAggregator } from '../api/aggregator';
import { formatBytes, tryParseQuantity } from '../api/quantity';
import { matchRequirements, parseLabelSelector } from '../api/selectors';
import type { KubeObject, RequestContext } from '../api/types';
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { formatGoDuration, parseDuration } from '../engine/duration';
import { scrapeResourceMetrics, type ResourcePoint } from '../node/resourcemetrics';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export const METRICS_SERVER_ID = 'metrics-server';
export const METRICS_SERVER_NAMESPACE = 'kube-system';
export const METRICS_SERVER_SERVICE = 'metrics-server';
export const METRICS_SERVER_LABELS = { 'k8s-app': 'metrics-server' };
/** `--metric-resolution` when the flag is not given (pkg/server/config.go). */
export const DEFAULT_METRIC_RESOLUTION_MS = 60_000;
/** A fresh container's first point counts from its start if it started at least this long ago (pod.go). */
const FRESH_CONTAINER_MIN_MS = 10_000;
const CTX: RequestContext = { component: 'metrics-server' };
const API_VERSION = 'metrics.k8s.io/v1beta1';

type Points = Record<string, ResourcePoint>;

interface State {
  /** The pod whose process this is (undefined: not running). */
  podUid?: string;
  resolutionMs: number;
  /** Scrape loop generation: a new process starts a new loop. */
  gen: number;
  checkPending: boolean;
  nodes: { last: Points; prev: Points };
  /** By "namespace/pod", then container. */
  pods: { last: Record<string, Points>; prev: Record<string, Points> };
  /** Nodes whose last scrape failed, with the error (the process logs them). */
  failed: Record<string, string>;
}

const emptyStorage = () => ({
  nodes: { last: {}, prev: {} },
  pods: { last: {}, prev: {} },
  failed: {}
});

/** CPU in nanocores as resource.Quantity prints it (scale -9, canonical: "200m", "1", "123456n"). */
export function formatNanoCores(n: number): string {
  const v = Math.floor(n);
  if (v === 0) return '0';
  if (v % 1e9 === 0) return String(v / 1e9);
  if (v % 1e6 === 0) return `${v / 1e6}m`;
  if (v % 1e3 === 0) return `${v / 1e3}u`;
  return `${v}n`;
}

/** Nanocores of a CPU quantity as metrics-server writes it ("123n", "45u", "200m", "1"). */
export function parseNanoCores(q: unknown): number {
  const s = String(q ?? '0');
  const m = /^(\d+)(n|u|m)?$/.exec(s);
  if (m) return Number(m[1]) * (m[2] === 'n' ? 1 : m[2] === 'u' ? 1e3 : m[2] === 'm' ? 1e6 : 1e9);
  return (tryParseQuantity(s) ?? 0) * 1e6;
}

/** resourceUsage (pkg/storage/types.go): the CPU rate between two points and the last memory. */
function usage(
  last: ResourcePoint,
  prev: ResourcePoint
): { cpu: string; memory: string; windowMs: number } | undefined {
  if (last.startTime < prev.startTime || last.cpuNs < prev.cpuNs) return undefined;
  const windowMs = last.timestamp - prev.timestamp;
  if (windowMs <= 0) return undefined;
  const nanoCores = ((last.cpuNs - prev.cpuNs) * 1000) / windowMs;
  return { cpu: formatNanoCores(nanoCores), memory: formatBytes(last.memory * 1000), windowMs };
}

function flagValue(args: string[], flag: string): string | undefined {
  const a = args.find((x) => x.startsWith(`--${flag}=`));
  return a?.slice(flag.length + 3);
}

export class MetricsServer implements Component, AggregatedServer {
  readonly id = METRICS_SERVER_ID;
  readonly kind = METRICS_SERVER_ID;
  readonly args: Record<string, never> = {};
  private state: State = {
    resolutionMs: DEFAULT_METRIC_RESOLUTION_MS,
    gen: 0,
    checkPending: false,
    ...emptyStorage()
  };

  constructor(private cluster: Cluster) {
    cluster.api.aggregatedServers.set(`${METRICS_SERVER_NAMESPACE}/${METRICS_SERVER_SERVICE}`, this);
    // Not a watch metrics-server holds: the process starts and stops with its pod's container.
    cluster.api.watch('Pod', (_t, pod, old) => {
      if (pod.metadata.namespace !== METRICS_SERVER_NAMESPACE) return;
      const mine = (o: KubeObject | undefined) =>
        o?.metadata.labels?.['k8s-app'] === METRICS_SERVER_LABELS['k8s-app'];
      if (!mine(pod) && !mine(old)) return;
      if (!this.state.checkPending) {
        this.state.checkPending = true;
        this.cluster.engine.schedule(0, this.id, 'check');
      }
    });
  }

  start(): void {}

  handle(ev: SimEvent): void {
    if (ev.type === 'check') {
      this.state.checkPending = false;
      this.check();
    } else if (ev.type === 'scrape') {
      const gen = (ev.data as { gen: number }).gen;
      if (gen !== this.state.gen) return;
      this.scrape();
      this.cluster.engine.schedule(this.state.resolutionMs, this.id, 'scrape', { gen });
    }
  }

  /** The running metrics-server pod, if any (its container has started). */
  private servingPod(): KubeObject | undefined {
    const pods = this.cluster.api.list<KubeObject>('Pod', {
      namespace: METRICS_SERVER_NAMESPACE,
      labelSelector: 'k8s-app=metrics-server'
    });
    return pods.find(
      (p) =>
        !p.metadata.deletionTimestamp &&
        p.status?.phase === 'Running' &&
        ((p.status?.containerStatuses ?? []) as Any[]).some(
          (c) => c.name === 'metrics-server' && c.state?.running
        )
    );
  }

  private check(): void {
    const pod = this.servingPod();
    const uid = pod?.metadata.uid;
    if (uid === this.state.podUid) return;
    // A new process (or none): its storage starts empty and it scrapes at once.
    this.state = { ...this.state, ...emptyStorage(), podUid: uid, gen: this.state.gen + 1 };
    if (pod) {
      const c = ((pod.spec?.containers ?? []) as Any[]).find((x) => x.name === 'metrics-server');
      const res = flagValue((c?.args ?? []) as string[], 'metric-resolution');
      let ms = DEFAULT_METRIC_RESOLUTION_MS;
      try {
        if (res !== undefined) ms = Math.max(1000, parseDuration(res));
      } catch {
        // An unparsable flag stops the real binary; the default keeps the model going.
      }
      this.state.resolutionMs = ms;
      this.cluster.engine.schedule(0, this.id, 'scrape', { gen: this.state.gen });
    }
    const agg = this.cluster.component(AGGREGATOR_ID) as KubeAggregator | undefined;
    agg?.serverChanged(METRICS_SERVER_NAMESPACE, METRICS_SERVER_SERVICE);
  }

  private scrape(): void {
    let nodes: KubeObject[];
    try {
      this.cluster.api.countRead('list', 'Node', CTX);
      nodes = this.cluster.api.list<KubeObject>('Node');
    } catch (e) {
      if (e instanceof ApiError || e instanceof ConnectionError) return;
      throw e;
    }
    const batchNodes: Points = {};
    const batchPods: Record<string, Points> = {};
    const failed: Record<string, string> = {};
    for (const n of nodes) {
      const name = n.metadata.name;
      const address =
        ((n.status?.addresses ?? []) as Any[]).find((a) => a.type === 'InternalIP')?.address ?? name;
      const m = scrapeResourceMetrics(this.cluster, name, address);
      if ('error' in m) {
        failed[name] = m.error;
        continue;
      }
      batchNodes[name] = m.node;
      for (const c of m.containers) {
        const key = `${c.namespace}/${c.pod}`;
        (batchPods[key] ??= {})[c.container] = {
          startTime: c.startTime,
          timestamp: c.timestamp,
          cpuNs: c.cpuNs,
          memory: c.memory
        };
      }
    }
    this.storeNodes(batchNodes);
    this.storePods(batchPods);
    this.state.failed = failed;
  }

  /** nodeStorage.Store (pkg/storage/node.go). */
  private storeNodes(batch: Points): void {
    const { last, prev } = this.state.nodes;
    const nextLast: Points = {};
    const nextPrev: Points = {};
    for (const [name, p] of Object.entries(batch)) {
      nextLast[name] = p;
      const l = last[name];
      if (!l) continue;
      if (p.timestamp > l.timestamp) nextPrev[name] = l;
      else if (prev[name] && prev[name].timestamp < p.timestamp) nextPrev[name] = prev[name];
    }
    this.state.nodes = { last: nextLast, prev: nextPrev };
  }

  /** podStorage.Store (pkg/storage/pod.go). */
  private storePods(batch: Record<string, Points>): void {
    const { last, prev } = this.state.pods;
    const res = this.state.resolutionMs;
    const nextLast: Record<string, Points> = {};
    const nextPrev: Record<string, Points> = {};
    for (const [key, containers] of Object.entries(batch)) {
      const lastC: Points = {};
      const prevC: Points = {};
      for (const [name, p] of Object.entries(containers)) {
        lastC[name] = p;
        const age = p.timestamp - p.startTime;
        if (p.startTime < p.timestamp && age < res && age >= FRESH_CONTAINER_MIN_MS) {
          prevC[name] = { ...p, timestamp: p.startTime, cpuNs: 0 };
          continue;
        }
        const l = last[key]?.[name];
        if (!l || !(p.startTime < l.timestamp)) continue;
        if (p.timestamp > l.timestamp) prevC[name] = l;
        else if (prev[key]?.[name] && prev[key][name].timestamp < p.timestamp) prevC[name] = prev[key][name];
      }
      if (Object.keys(prevC).length) nextPrev[key] = prevC;
      nextLast[key] = lastC;
    }
    this.state.pods = { last: nextLast, prev: nextPrev };
  }

  // ---- the metrics.k8s.io API ----------------------------------------------------------------

  serving(): boolean {
    return this.state.podUid !== undefined;
  }

  private iso(ms: number): string {
    return new Date(this.cluster.api.epochMs + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private nodeMetrics(node: KubeObject): KubeObject | undefined {
    const name = node.metadata.name;
    const l = this.state.nodes.last[name];
    const p = this.state.nodes.prev[name];
    const u = l && p ? usage(l, p) : undefined;
    if (!u) return undefined;
    return {
      kind: 'NodeMetrics',
      apiVersion: API_VERSION,
      metadata: {
        name,
        creationTimestamp: this.iso(this.cluster.engine.now),
        ...(node.metadata.labels ? { labels: { ...node.metadata.labels } } : {})
      },
      timestamp: this.iso(l.timestamp),
      window: formatGoDuration(u.windowMs),
      usage: { cpu: u.cpu, memory: u.memory }
    } as KubeObject;
  }

  /** GetPodMetrics (pkg/storage/pod.go): every container must have both points. */
  private podMetrics(pod: KubeObject): KubeObject | undefined {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const last = this.state.pods.last[key];
    const prev = this.state.pods.prev[key];
    if (!last || !prev) return undefined;
    const containers: { name: string; usage: { cpu: string; memory: string } }[] = [];
    let earliest: { ts: number; windowMs: number } | undefined;
    for (const [name, l] of Object.entries(last)) {
      const p = prev[name];
      if (!p) return undefined;
      const u = usage(l, p);
      if (!u) continue;
      containers.push({ name, usage: { cpu: u.cpu, memory: u.memory } });
      if (!earliest || l.timestamp < earliest.ts) earliest = { ts: l.timestamp, windowMs: u.windowMs };
    }
    if (!earliest) return undefined;
    return {
      kind: 'PodMetrics',
      apiVersion: API_VERSION,
      metadata: {
        name: pod.metadata.name,
        namespace: pod.metadata.namespace,
        creationTimestamp: this.iso(this.cluster.engine.now),
        ...(pod.metadata.labels ? { labels: { ...pod.metadata.labels } } : {})
      },
      timestamp: this.iso(earliest.ts),
      window: formatGoDuration(earliest.windowMs),
      containers
    } as KubeObject;
  }

  list(kind: string, opts: ListOptions): KubeObject[] {
    const api = this.cluster.api;
    const sel = parseLabelSelector(opts.labelSelector);
    const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    const sorted = (objs: KubeObject[]) =>
      objs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    if (kind === 'NodeMetrics') {
      const nodes = api.list<KubeObject>('Node').filter((n) => matchRequirements(sel, n.metadata.labels));
      return sorted(nodes.map((n) => this.nodeMetrics(n)).filter((m): m is KubeObject => !!m));
    }
    const pods = api
      .list<KubeObject>('Pod', { namespace: opts.namespace })
      .filter((p) => matchRequirements(sel, p.metadata.labels));
    return sorted(pods.map((p) => this.podMetrics(p)).filter((m): m is KubeObject => !!m));
  }

  get(kind: string, namespace: string | undefined, name: string): KubeObject {
    const api = this.cluster.api;
    if (kind === 'NodeMetrics') {
      const node = api.tryGet<KubeObject>('Node', undefined, name);
      if (!node) throw notFound('node', name);
      const m = this.nodeMetrics(node);
      if (!m) throw notFound('nodemetrics.metrics.k8s.io', name);
      return m;
    }
    const pod = api.tryGet<KubeObject>('Pod', namespace, name);
    if (!pod) throw notFound('pod', name);
    const m = this.podMetrics(pod);
    if (!m) throw notFound('podmetrics.metrics.k8s.io', `${namespace}/${name}`);
    return m;
  }

  /** Nodes the last scrape could not reach, with the client's error. */
  scrapeFailures(): Record<string, string> {
    return { ...this.state.failed };
  }

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s as State);
  }
}

export const metricsServerComponent = defineComponent(
  METRICS_SERVER_ID,
  (cluster) => new MetricsServer(cluster)
);
