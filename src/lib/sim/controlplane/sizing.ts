/**
 * The load model connected to the running cluster (component kind `apiserver-load`): the control
 * plane's machine shape (cores per control-plane machine), the API server's request counters
 * sampled over a sliding window of virtual time, and the faults that resize the control plane or
 * add and remove kube-apiserver instances behind the load balancer.
 *
 * Saturation is shown, not enacted: requests the model says would queue still succeed at once in
 * the simulation (see docs/operations.md, "What the model changes").
 */
import { FaultError, defineComponent, defineFault, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { ApiError, ConnectionError } from '../api/errors';
import { clone, type KubeObject, type RequestContext } from '../api/types';
import { estimateLoad, type LoadEstimate, type LoadInput } from './load';
import { DISK, quorumOf } from '../etcd/etcd';
import { foldLatency, type LatencyState } from '../api/metrics';

export const LOAD_ID = 'apiserver-load';
export const LOAD_KIND = 'apiserver-load';
/** The ConfigMap a scenario with `controlPlane.plan` gets: the model's figures, for lessons and kubectl. */
export const LOAD_CONFIGMAP = 'apiserver-load-model';
import { CORE_SIZES, DEFAULT_CORES, MAX_API_SERVERS, RATE_WINDOW_MS, SAMPLE_PERIOD_MS } from './load';
export { CORE_SIZES, DEFAULT_CORES, MAX_API_SERVERS, RATE_WINDOW_MS, SAMPLE_PERIOD_MS };

const MUTATING = new Set(['create', 'update', 'patch', 'delete']);

export interface ClusterPlan {
  /** Nodes the cluster is expected to grow to. */
  nodes: number;
  /** Pod starts per second expected at that size. */
  podChurnPerSecond: number;
}

export interface ApiServerLoadArgs {
  cores: number;
  plan?: ClusterPlan;
}

interface Sample {
  t: number;
  counts: Record<string, number>;
}

interface State {
  cores: number;
  samples: Sample[];
  /** The last data written to the ConfigMap (JSON), to write only on change. */
  published: string;
  /** apiserver_request_duration_seconds, counted at each sample at the latency the model gives. */
  latency?: LatencyState;
}

export interface MeasuredRates {
  /** The window the rates cover (ms): up to RATE_WINDOW_MS, less just after the start. */
  windowMs: number;
  /** Requests per second per "<verb> <resource>", highest first. */
  byRequest: { request: string; perSecond: number }[];
  mutatingPerSecond: number;
  readsPerSecond: number;
  /** Pods created per second: the measured churn. */
  podStartsPerSecond: number;
}

export interface ControlPlaneLoad {
  cores: number;
  apiServers: number;
  nodes: number;
  measured: MeasuredRates;
  /** The model for the cluster as it runs now (its nodes, running API servers, measured churn). */
  live: LoadInput;
  liveEstimate: LoadEstimate;
  plan?: ClusterPlan;
  planEstimate?: LoadEstimate;
}

export class ApiServerLoad implements Component {
  readonly id = LOAD_ID;
  readonly kind = LOAD_KIND;
  state: State;

  constructor(
    private cluster: Cluster,
    readonly args: ApiServerLoadArgs
  ) {
    this.state = { cores: args.cores, samples: [], published: '' };
  }

  start(): void {
    this.cluster.engine.schedule(0, this.id, 'sample');
  }

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as State;
  }

  /** The request-duration histograms up to the last sample. */
  get latency(): LatencyState | undefined {
    return this.state.latency;
  }

  get cores(): number {
    return this.state.cores;
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'sample') return;
    this.sample();
    this.publish();
    this.cluster.engine.schedule(SAMPLE_PERIOD_MS, this.id, 'sample');
  }

  private sample(): void {
    const now = this.cluster.now;
    const samples = this.state.samples;
    const counts = this.cluster.api.requestCounts();
    samples.push({ t: now, counts });
    this.state.latency = foldLatency(this.state.latency, counts, this.load().liveEstimate);
    // Keep the newest sample at or before the window's start, so the window is always covered.
    while (samples.length > 2 && samples[1].t <= now - RATE_WINDOW_MS) samples.shift();
  }

  /** Rates from the oldest kept sample to the counters now. */
  measured(): MeasuredRates {
    const now = this.cluster.now;
    const first = this.state.samples[0];
    const windowMs = first ? now - first.t : 0;
    const current = this.cluster.api.requestCounts();
    const byRequest: MeasuredRates['byRequest'] = [];
    let mutating = 0;
    let reads = 0;
    if (first && windowMs > 0) {
      for (const [request, n] of Object.entries(current)) {
        const d = n - (first.counts[request] ?? 0);
        if (d <= 0) continue;
        const perSecond = d / (windowMs / 1000);
        byRequest.push({ request, perSecond });
        if (MUTATING.has(request.split(' ')[0])) mutating += perSecond;
        else reads += perSecond;
      }
    }
    byRequest.sort((a, b) => b.perSecond - a.perSecond || (a.request < b.request ? -1 : 1));
    const podStarts = byRequest.find((r) => r.request === 'create pods')?.perSecond ?? 0;
    return {
      windowMs,
      byRequest,
      mutatingPerSecond: mutating,
      readsPerSecond: reads,
      podStartsPerSecond: podStarts
    };
  }

  load(): ControlPlaneLoad {
    const measured = this.measured();
    const apiServers = this.cluster.apiServers.filter((a) => a.running).length;
    const nodes = this.cluster.api.count('Node');
    const live: LoadInput = {
      nodes,
      podChurnPerSecond: measured.podStartsPerSecond,
      apiServers,
      cores: this.state.cores,
      etcdExtraMs: this.cluster.etcd.hasQuorum() ? this.cluster.etcd.commitWaitMs() - DISK.fsyncMs : 0
    };
    const plan = this.args.plan;
    return {
      cores: this.state.cores,
      apiServers,
      nodes,
      measured,
      live,
      liveEstimate: estimateLoad(live),
      ...(plan
        ? {
            plan,
            planEstimate: estimateLoad({
              nodes: plan.nodes,
              podChurnPerSecond: plan.podChurnPerSecond,
              apiServers,
              cores: this.state.cores
            })
          }
        : {})
    };
  }

  resize(cores: number): void {
    this.state.cores = cores;
    this.publish();
  }

  /** Write the model's figures to kube-system/apiserver-load-model (scenarios with a plan only). */
  publish(): void {
    if (!this.args.plan) return;
    const l = this.load();
    const p = l.planEstimate!;
    const data: Record<string, string> = {
      cores: String(l.cores),
      apiServers: String(l.apiServers),
      nodes: String(l.nodes),
      podChurnPerSecond: round(l.live.podChurnPerSecond, 2),
      p99MutatingMs: round(l.liveEstimate.p99MutatingMs, 0),
      utilisation: round(l.liveEstimate.utilisation, 2),
      sloMet: String(l.liveEstimate.sloMet),
      planNodes: String(l.plan!.nodes),
      planPodChurnPerSecond: String(l.plan!.podChurnPerSecond),
      planP99MutatingMs: round(p.p99MutatingMs, 0),
      planUtilisation: round(p.utilisation, 2),
      planSloMet: String(p.sloMet)
    };
    const json = JSON.stringify(data);
    if (json === this.state.published) return;
    const api = this.cluster.api;
    const ctx: RequestContext = { component: LOAD_ID };
    try {
      const cur = api.tryGet<KubeObject>('ConfigMap', 'kube-system', LOAD_CONFIGMAP);
      if (cur) {
        const upd = clone(cur);
        upd.data = data;
        api.update(upd, ctx);
      } else {
        api.create(
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: LOAD_CONFIGMAP,
              namespace: 'kube-system',
              annotations: { 'nodeplane.dev/modelled': 'API-server load model, see docs/operations.md' }
            },
            data
          },
          ctx
        );
      }
      this.state.published = json;
    } catch (e) {
      // No quorum or no reachable API server: the figures wait for the next sample.
      if (!(e instanceof ApiError || e instanceof ConnectionError)) throw e;
    }
  }
}

function round(v: number, digits: number): string {
  const f = 10 ** digits;
  return String(Math.round(v * f) / f);
}

export const apiServerLoadComponent = defineComponent(
  LOAD_KIND,
  (cluster: Cluster, args: ApiServerLoadArgs) => new ApiServerLoad(cluster, args)
);

/** The cluster's load component, if it has one. */
export function apiServerLoad(cluster: Cluster): ApiServerLoad | undefined {
  return cluster.component<ApiServerLoad>(LOAD_ID);
}

/** etcd's quorum table for n members: the majority needed, n − quorum failures tolerated. */
export function quorumTable(n: number): { members: number; quorum: number; tolerated: number } {
  const quorum = quorumOf(n);
  return { members: n, quorum, tolerated: n - quorum };
}

function loadComponent(cluster: Cluster): ApiServerLoad {
  const c = apiServerLoad(cluster);
  if (!c) throw new FaultError('this cluster has no API-server load model');
  return c;
}

export const faultResizeControlPlane = defineFault(
  'ResizeControlPlane',
  `Give every control-plane machine this many CPU cores (target = ${CORE_SIZES.join(', ')})`,
  (cluster, p) => {
    const cores = Number(p.target);
    if (!(CORE_SIZES as readonly number[]).includes(cores)) {
      throw new FaultError(
        `cannot resize the control plane to "${p.target ?? ''}" cores (sizes: ${CORE_SIZES.join(', ')})`
      );
    }
    loadComponent(cluster).resize(cores);
  }
);

/** Next free control-plane node number for a new kube-apiserver. */
function nextHost(cluster: Cluster): string {
  const used = new Set(cluster.apiServers.map((a) => a.name));
  for (let i = 1; ; i++) {
    const host = `control-plane-${i}`;
    if (i === 1 && used.has('kube-apiserver')) continue;
    if (!used.has(`kube-apiserver-${host}`)) return host;
  }
}

export const faultAddApiServer = defineFault(
  'AddApiServer',
  'Join one more kube-apiserver instance behind the load balancer (its machine has the control plane’s cores)',
  (cluster) => {
    loadComponent(cluster);
    if (cluster.apiServers.length >= MAX_API_SERVERS) {
      throw new FaultError(`the control plane already has ${MAX_API_SERVERS} kube-apiserver instances`);
    }
    cluster.apiServers = [
      ...cluster.apiServers,
      { name: `kube-apiserver-${nextHost(cluster)}`, running: true }
    ];
    apiServerLoad(cluster)!.publish();
  }
);

export const faultRemoveApiServer = defineFault(
  'RemoveApiServer',
  'Take a kube-apiserver instance out of the load balancer and shut it down (target = instance, default the last one)',
  (cluster, p) => {
    loadComponent(cluster);
    const names = cluster.apiServers.map((a) => a.name);
    const name = p.target ? String(p.target) : names[names.length - 1];
    if (!names.includes(name)) {
      throw new FaultError(`no kube-apiserver "${name}" (instances: ${names.join(', ')})`);
    }
    if (names.length <= 1) throw new FaultError('cannot remove the only kube-apiserver');
    cluster.apiServers = cluster.apiServers.filter((a) => a.name !== name);
    apiServerLoad(cluster)!.publish();
  }
);
