/**
 * kube-aggregator, the part of kube-apiserver that serves APIs registered with an APIService
 * (apiregistration.k8s.io/v1) by proxying them to the Service named in `spec.service`
 * (staging/src/k8s.io/kube-aggregator):
 *
 * - the remote availability controller (pkg/controllers/status/remote/remote_available_controller.go)
 *   keeps each APIService's `Available` condition: the Service must exist and listen on
 *   `spec.service.port` (default 443), its EndpointSlices must have a ready endpoint with that
 *   port's name, and a GET of `/apis/<group>/<version>` on the Service must answer; otherwise the
 *   condition is False with ServiceNotFound, ServicePortError, EndpointsNotFound, MissingEndpoints
 *   or FailedDiscoveryCheck. It runs on every change of an APIService, a Service or an EndpointSlice.
 * - discovery lists a group version only while its APIService is Available; an unavailable one is
 *   "stale" in aggregated discovery and clients drop it (client-go discovery/aggregated_discovery.go).
 * - a request for an aggregated resource is proxied to the server behind the Service; an
 *   unavailable APIService answers 503 `the server is currently unable to handle the request`.
 *
 * The aggregated server itself is a component (metrics-server/) that registers with
 * `api.aggregatedServers` under "<namespace>/<service>". Component kind and id `kube-aggregator`.
 */
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { ApiError, ConnectionError } from './errors';
import type { ApiServer, ListOptions } from './apiserver';
import { AGGREGATED_RESOURCES, RESOURCES, type ResourceInfo } from './resources';
import { clone, type KubeObject, type RequestContext } from './types';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export const AGGREGATOR_ID = 'kube-aggregator';
const CTX: RequestContext = { component: 'kube-apiserver' };
/** The workqueue's first retry after a failed status write (client-go's rate limiter starts at 5ms; modelled as 1s). */
const RETRY_MS = 1_000;

/** An aggregated API server as kube-aggregator reaches it through its Service. */
export interface AggregatedServer {
  /** The process answers (its pod runs and it has started serving). */
  serving(): boolean;
  list(kind: string, opts: ListOptions): KubeObject[];
  /** Throws the server's NotFound. */
  get(kind: string, namespace: string | undefined, name: string): KubeObject;
}

export interface ApiServiceCondition {
  type: 'Available';
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export function apiServiceName(r: Pick<ResourceInfo, 'group' | 'version'>): string {
  return `${r.version}.${r.group}`;
}

export function availableCondition(apiService: KubeObject | undefined): ApiServiceCondition | undefined {
  return ((apiService?.status?.conditions ?? []) as ApiServiceCondition[]).find(
    (c) => c.type === 'Available'
  );
}

function isAvailable(apiService: KubeObject | undefined): boolean {
  return availableCondition(apiService)?.status === 'True';
}

export interface Discovery {
  /** Every resource a client discovers, the built-in ones first. */
  resources: ResourceInfo[];
  /** Group versions registered but not Available: stale in aggregated discovery. */
  stale: string[];
}

/** What /apis (aggregated discovery) lists right now. */
export function discovery(api: ApiServer): Discovery {
  const resources = [...RESOURCES];
  const stale: string[] = [];
  for (const r of AGGREGATED_RESOURCES) {
    const svc = api.tryGet<KubeObject>('APIService', undefined, apiServiceName(r));
    if (!svc) continue;
    if (isAvailable(svc)) resources.push(r);
    else if (!stale.includes(`${r.group}/${r.version}`)) stale.push(`${r.group}/${r.version}`);
  }
  return { resources, stale };
}

/** The `Error from server (ServiceUnavailable)` of a request to an unavailable aggregated API. */
function serviceUnavailable(r: ResourceInfo): ApiError {
  return new ApiError(
    503,
    'ServiceUnavailable',
    `the server is currently unable to handle the request (get ${r.plural}.${r.group})`
  );
}

function backendFor(api: ApiServer, r: ResourceInfo): AggregatedServer {
  const svc = api.tryGet<KubeObject>('APIService', undefined, apiServiceName(r));
  if (!svc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  const ref = svc.spec?.service as { namespace?: string; name?: string } | undefined;
  const server = ref ? api.aggregatedServers.get(`${ref.namespace}/${ref.name}`) : undefined;
  if (!isAvailable(svc) || !server?.serving()) throw serviceUnavailable(r);
  return server;
}

function aggregated(kind: string): ResourceInfo {
  const r = AGGREGATED_RESOURCES.find((x) => x.kind === kind);
  if (!r) throw new Error(`no aggregated resource for kind ${kind}`);
  return r;
}

/** A list of an aggregated resource, proxied to its server. */
export function aggregatedList(api: ApiServer, kind: string, opts: ListOptions = {}): KubeObject[] {
  const r = aggregated(kind);
  return backendFor(api, r).list(kind, opts);
}

/** A get of an aggregated resource, proxied to its server. */
export function aggregatedGet(
  api: ApiServer,
  kind: string,
  namespace: string | undefined,
  name: string
): KubeObject {
  const r = aggregated(kind);
  return backendFor(api, r).get(kind, r.namespaced ? namespace : undefined, name);
}

interface State {
  /** APIService names waiting for a sync. */
  queue: string[];
  pending: boolean;
}

interface Verdict {
  status: ApiServiceCondition['status'];
  reason: string;
  message: string;
}

/** The remote availability controller's checks for one APIService (sync in upstream). */
function check(api: ApiServer, svc: KubeObject): Verdict {
  const ref = svc.spec?.service as { namespace?: string; name?: string; port?: number } | undefined;
  if (!ref) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
  const ns = ref.namespace ?? 'default';
  const port = ref.port ?? 443;
  const service = api.tryGet<KubeObject>('Service', ns, ref.name ?? '');
  if (!service) {
    return {
      status: 'False',
      reason: 'ServiceNotFound',
      message: `service/${ref.name} in "${ns}" is not present`
    };
  }
  const sp = ((service.spec?.ports ?? []) as Any[]).find((p) => p.port === port);
  if (!sp) {
    return {
      status: 'False',
      reason: 'ServicePortError',
      message: `service/${ref.name} in "${ns}" is not listening on port ${port}`
    };
  }
  const portName: string = sp.name ?? '';
  const slices = api.list<KubeObject>('EndpointSlice', {
    namespace: ns,
    labelSelector: `kubernetes.io/service-name=${ref.name}`
  });
  if (!slices.length) {
    return {
      status: 'False',
      reason: 'EndpointsNotFound',
      message: `cannot find endpointslices for service/${ref.name} in "${ns}"`
    };
  }
  const active = slices.some(
    (s) =>
      ((s.endpoints ?? []) as Any[]).some((e) => e.conditions?.ready !== false) &&
      ((s.ports ?? []) as Any[]).some((p) => p.name === portName && p.port !== undefined)
  );
  if (!active) {
    return {
      status: 'False',
      reason: 'MissingEndpoints',
      message: `endpointslices for service/${ref.name} in "${ns}" have no addresses with port name "${portName}"`
    };
  }
  const server = api.aggregatedServers.get(`${ns}/${ref.name}`);
  if (!server?.serving()) {
    const ip = String(service.spec?.clusterIP ?? '');
    const url = `https://${ip}:${port}/apis/${svc.spec?.group}/${svc.spec?.version}`;
    return {
      status: 'False',
      reason: 'FailedDiscoveryCheck',
      message: `failing or missing response from ${url}: Get "${url}": dial tcp ${ip}:${port}: connect: connection refused`
    };
  }
  return { status: 'True', reason: 'Passed', message: 'all checks passed' };
}

export class KubeAggregator implements Component {
  readonly id = AGGREGATOR_ID;
  readonly kind = AGGREGATOR_ID;
  readonly args: Record<string, never> = {};
  private state: State = { queue: [], pending: false };

  constructor(private cluster: Cluster) {
    const api = cluster.api;
    api.watchingAs(CTX, () => {
      api.watch('APIService', (_t, o) => this.enqueue(o.metadata.name));
      api.watch('Service', (_t, o) => this.enqueueFor(o.metadata.namespace, o.metadata.name));
      api.watch('EndpointSlice', (_t, o) =>
        this.enqueueFor(o.metadata.namespace, o.metadata.labels?.['kubernetes.io/service-name'])
      );
    });
  }

  start(): void {
    for (const s of this.cluster.api.list<KubeObject>('APIService')) this.enqueue(s.metadata.name);
  }

  /** A change of the aggregated server itself (it started or stopped serving). */
  serverChanged(namespace: string, name: string): void {
    this.enqueueFor(namespace, name);
  }

  private enqueueFor(namespace: string | undefined, service: string | undefined): void {
    if (!service) return;
    for (const s of this.cluster.api.list<KubeObject>('APIService')) {
      const ref = s.spec?.service as { namespace?: string; name?: string } | undefined;
      if (ref && ref.name === service && (ref.namespace ?? 'default') === namespace)
        this.enqueue(s.metadata.name);
    }
  }

  private enqueue(name: string): void {
    if (!this.state.queue.includes(name)) this.state.queue.push(name);
    if (!this.state.pending) {
      this.state.pending = true;
      this.cluster.engine.schedule(0, this.id, 'sync');
    }
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'sync') return;
    this.state.pending = false;
    const names = this.state.queue;
    this.state.queue = [];
    for (const name of names) {
      try {
        this.sync(name);
      } catch (e) {
        if (!(e instanceof ApiError || e instanceof ConnectionError)) throw e;
        if (!this.state.queue.includes(name)) this.state.queue.push(name);
        if (!this.state.pending) {
          this.state.pending = true;
          this.cluster.engine.schedule(RETRY_MS, this.id, 'sync');
        }
      }
    }
  }

  private sync(name: string): void {
    const api = this.cluster.api;
    const svc = api.tryGet<KubeObject>('APIService', undefined, name);
    if (!svc) return;
    const v = check(api, svc);
    const old = availableCondition(svc);
    if (old && old.status === v.status && old.reason === v.reason && old.message === v.message) return;
    const next = clone(svc);
    const cond: ApiServiceCondition = {
      type: 'Available',
      status: v.status,
      lastTransitionTime:
        old && old.status === v.status
          ? old.lastTransitionTime
          : new Date(api.epochMs + this.cluster.engine.now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      reason: v.reason,
      message: v.message
    };
    next.status = { ...(next.status ?? {}), conditions: [cond] };
    api.update(next, CTX, { subresource: 'status' });
  }

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s as State);
  }
}

export const kubeAggregatorComponent = defineComponent(
  AGGREGATOR_ID,
  (cluster) => new KubeAggregator(cluster)
);
