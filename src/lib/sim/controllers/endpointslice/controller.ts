/**
 * The EndpointSlice controller (kube-controller-manager `endpointslice`): for every Service with a
 * selector it keeps EndpointSlices listing the matching pods that have an IP, with ready / serving /
 * terminating conditions, at most 100 endpoints per slice (--max-endpoints-per-slice default).
 * Runs as its own component kind `endpointslice-controller`; kube-controller-manager hosts it.
 */
import { ApiError, ConnectionError } from '../../api/errors';
import { matchRequirements, parseLabelSelector, type Requirement } from '../../api/selectors';
import type { KubeObject, RequestContext } from '../../api/types';
import { defineComponent, type Cluster, type Component } from '../../cluster';
import type { SimEvent } from '../../engine/engine';
import type { Controller, ControllerHost } from '../controller';

export const MAX_ENDPOINTS_PER_SLICE = 100;
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
const CTX: RequestContext = { component: 'kube-controller-manager' };

interface State {
  queue: string[];
  pending: boolean;
}

interface SlicePort {
  name: string;
  port: number;
  protocol: string;
}

interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  zone?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

function selectorString(sel: Record<string, string>): string {
  return Object.entries(sel)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** A Service's selector as requirements, parsed once per stored Service object. */
const parsedSelectors = new WeakMap<KubeObject, { text: string; reqs: Requirement[] } | null>();

function serviceSelector(svc: KubeObject): { text: string; reqs: Requirement[] } | null {
  let s = parsedSelectors.get(svc);
  if (s === undefined) {
    const sel = svc.spec?.selector as Record<string, string> | undefined;
    if (!sel || !Object.keys(sel).length) s = null;
    else {
      const text = selectorString(sel);
      s = { text, reqs: parseLabelSelector(text) };
    }
    if (Object.isFrozen(svc)) parsedSelectors.set(svc, s);
  }
  return s;
}

interface Selection {
  namespace: string;
  reqs: Requirement[];
  pods: Map<string, KubeObject>;
  /** The selected pods' names in order, until one is added or removed. */
  names?: string[];
}

/**
 * The pods each selector selects in a namespace, kept from Pod watch events as the controllers'
 * informer caches are: a sync reads its Service's pods without walking every pod in the namespace.
 * A selection is listed once, the first time a Service with that selector is synced.
 */
export class SelectedPodsIndex {
  private selections = new Map<string, Selection>();

  constructor(private cluster: Cluster) {}

  watch(): () => void {
    return this.cluster.api.watch('Pod', (type, pod) => {
      const ns = pod.metadata.namespace;
      const name = pod.metadata.name;
      for (const s of this.selections.values()) {
        if (s.namespace !== ns) continue;
        if (type !== 'DELETED' && matchRequirements(s.reqs, pod.metadata.labels)) {
          if (!s.pods.has(name)) s.names = undefined;
          s.pods.set(name, pod);
        } else if (s.pods.delete(name)) s.names = undefined;
      }
    });
  }

  /** The pods `reqs` (the selector `text`) selects in `namespace`, sorted by name. */
  select(namespace: string, text: string, reqs: Requirement[]): KubeObject[] {
    const key = `${namespace}/${text}`;
    let s = this.selections.get(key);
    if (!s) {
      const pods = new Map<string, KubeObject>();
      for (const p of this.cluster.api.list('Pod', { namespace }))
        if (matchRequirements(reqs, p.metadata.labels)) pods.set(p.metadata.name, p);
      this.selections.set(key, (s = { namespace, reqs, pods }));
    }
    const names = (s.names ??= [...s.pods.keys()].sort());
    const out: KubeObject[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) out[i] = s.pods.get(names[i])!;
    return out;
  }
}

/**
 * The pods a Service selects, sorted by name, or undefined when the Service has no selector (its
 * endpoints are then written by someone else). Shared by the Endpoints and EndpointSlice
 * controllers; with `index`, read from it instead of listing the namespace's pods.
 */
export function selectedPods(
  cluster: Cluster,
  svc: KubeObject,
  index?: SelectedPodsIndex
): KubeObject[] | undefined {
  const sel = serviceSelector(svc);
  if (!sel) return undefined;
  if (index) return index.select(svc.metadata.namespace ?? 'default', sel.text, sel.reqs);
  return cluster.api
    .list('Pod', { namespace: svc.metadata.namespace })
    .filter((p) => matchRequirements(sel.reqs, p.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}

/** The Services in the pod's namespace whose selector matches the pod now or matched it before. */
export function servicesOfPod(cluster: Cluster, pod: KubeObject, old?: KubeObject): string[] {
  const keys: string[] = [];
  for (const svc of cluster.api.list('Service', { namespace: pod.metadata.namespace })) {
    const sel = serviceSelector(svc);
    if (!sel) continue;
    if (
      matchRequirements(sel.reqs, pod.metadata.labels) ||
      (old && matchRequirements(sel.reqs, old.metadata.labels))
    )
      keys.push(`${svc.metadata.namespace}/${svc.metadata.name}`);
  }
  return keys;
}

/** The pod's IPs (status.podIPs, or status.podIP alone). */
function podIPs(pod: KubeObject): string[] {
  const ips = pod.status?.podIPs as { ip: string }[] | undefined;
  if (ips) return ips.map((x) => x.ip);
  const ip = pod.status?.podIP as string | undefined;
  return ip ? [ip] : [];
}

/** Two string maps (labels) with the same keys and values, in any order. */
export function sameStrings(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined
): boolean {
  const x = Object.keys(a ?? {});
  if (x.length !== Object.keys(b ?? {}).length) return false;
  for (const k of x) if (!b || !Object.hasOwn(b, k) || a![k] !== b[k]) return false;
  return true;
}

/**
 * endpointslice/util podEndpointsChanged: whether a pod update may change its endpoint (deletion
 * timestamp, readiness, IPs) and whether it may change which Services select it (labels, hostname,
 * subdomain). NodeName is set before the pod has an IP, and name, namespace and UID never change.
 */
export function podEndpointsChanged(
  old: KubeObject,
  cur: KubeObject
): { podChanged: boolean; labelsChanged: boolean } {
  const labelsChanged =
    !sameStrings(old.metadata.labels, cur.metadata.labels) ||
    old.spec?.hostname !== cur.spec?.hostname ||
    old.spec?.subdomain !== cur.spec?.subdomain;
  // Upstream compares the two *metav1.Time pointers, which differ whenever either is set.
  if (old.metadata.deletionTimestamp !== undefined || cur.metadata.deletionTimestamp !== undefined)
    return { podChanged: true, labelsChanged };
  if (podReady(old) !== podReady(cur)) return { podChanged: true, labelsChanged };
  const a = podIPs(old);
  const b = podIPs(cur);
  const podChanged = a.length !== b.length || a.some((ip, i) => ip !== b[i]);
  return { podChanged, labelsChanged };
}

/**
 * The Services a pod watch event concerns, as the Endpoints and EndpointSlice controllers' pod
 * handlers find them (staging/src/k8s.io/endpointslice/util/controller_utils.go
 * GetServicesToUpdateOnPodChange): an added or deleted pod concerns the Services selecting it; an
 * update only when podEndpointsChanged says so, and then the Services selecting the pod now or
 * before (with only its labels changed, those that selected it before or now but not both).
 */
export function servicesToUpdateOnPodChange(cluster: Cluster, pod: KubeObject, old?: KubeObject): string[] {
  if (!old) return servicesOfPod(cluster, pod);
  if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
  const { podChanged, labelsChanged } = podEndpointsChanged(old, pod);
  if (!podChanged && !labelsChanged) return [];
  const keys: string[] = [];
  for (const svc of cluster.api.list('Service', { namespace: pod.metadata.namespace })) {
    const sel = serviceSelector(svc);
    if (!sel) continue;
    const now = matchRequirements(sel.reqs, pod.metadata.labels);
    const before = labelsChanged ? matchRequirements(sel.reqs, old.metadata.labels) : now;
    if (podChanged ? now || before : now !== before)
      keys.push(`${svc.metadata.namespace}/${svc.metadata.name}`);
  }
  return keys;
}

function podReady(pod: KubeObject): boolean {
  return ((pod.status?.conditions ?? []) as { type: string; status: string }[]).some(
    (c) => c.type === 'Ready' && c.status === 'True'
  );
}

/** targetPort as a number, or the named container port of this pod (undefined if it has none). */
export function resolveTargetPort(
  pod: KubeObject,
  target: number | string | undefined,
  port: number
): number | undefined {
  if (target === undefined) return port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return parseInt(target, 10);
  for (const c of (pod.spec?.containers ?? []) as { ports?: { name?: string; containerPort: number }[] }[])
    for (const p of c.ports ?? []) if (p.name === target) return p.containerPort;
  return undefined;
}

/** One pod's endpoint for a Service: its resolved ports (and their key) and the endpoint, as JSON too. */
interface PodEndpoint {
  ports: SlicePort[];
  key: string;
  ep: SliceEndpoint;
  json: string;
  zone: string | undefined;
}

/**
 * Endpoints already built, by the Service spec (ports, publishNotReadyAddresses) and the stored pod
 * they were built from; both are frozen, so an entry holds while they are the same objects and the
 * pod's node is in the same zone.
 */
const builtEndpoints = new WeakMap<object, WeakMap<KubeObject, PodEndpoint | null>>();

function podEndpoint(cluster: Cluster, svc: KubeObject, pod: KubeObject): PodEndpoint | null {
  const nodeName = pod.spec?.nodeName as string | undefined;
  const zone = nodeName
    ? cluster.api.tryGet('Node', undefined, nodeName)?.metadata.labels?.['topology.kubernetes.io/zone']
    : undefined;
  const spec = svc.spec as object | undefined;
  const cacheable = !!spec && Object.isFrozen(spec) && Object.isFrozen(pod);
  let byPod = cacheable ? builtEndpoints.get(spec!) : undefined;
  if (cacheable && !byPod) builtEndpoints.set(spec!, (byPod = new WeakMap()));
  const hit = byPod?.get(pod);
  if (hit !== undefined && (hit === null || hit.zone === zone)) return hit;
  const built = buildPodEndpoint(svc, pod, nodeName, zone);
  byPod?.set(pod, built);
  return built;
}

function buildPodEndpoint(
  svc: KubeObject,
  pod: KubeObject,
  nodeName: string | undefined,
  zone: string | undefined
): PodEndpoint | null {
  const ip = pod.status?.podIP as string | undefined;
  const phase = pod.status?.phase;
  if (!ip || phase === 'Succeeded' || phase === 'Failed') return null;
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  const ports: SlicePort[] = [];
  for (const p of (svc.spec?.ports ?? []) as {
    name?: string;
    port: number;
    targetPort?: number | string;
    protocol?: string;
  }[]) {
    const resolved = resolveTargetPort(pod, p.targetPort, p.port);
    if (resolved !== undefined)
      ports.push({ name: p.name ?? '', port: resolved, protocol: p.protocol ?? 'TCP' });
  }
  const terminating = !!pod.metadata.deletionTimestamp;
  const serving = publishNotReady || podReady(pod);
  const ep: SliceEndpoint = {
    addresses: [ip],
    conditions: { ready: serving && !terminating, serving, terminating },
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace!,
      name: pod.metadata.name,
      uid: pod.metadata.uid!
    }
  };
  if (nodeName) {
    ep.nodeName = nodeName;
    if (zone) ep.zone = zone;
  }
  return { ports, key: JSON.stringify(ports), ep, json: JSON.stringify(ep), zone };
}

interface EndpointGroup {
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
  /** Each endpoint as JSON, in the same order. */
  json: string[];
}

/** The desired endpoints of a Service, grouped by resolved port set (pods with different named ports get separate slices). */
export function desiredEndpoints(
  cluster: Cluster,
  svc: KubeObject,
  index?: SelectedPodsIndex
): Map<string, EndpointGroup> {
  const groups = new Map<string, EndpointGroup>();
  const pods = selectedPods(cluster, svc, index);
  if (!pods) return groups;
  for (const pod of pods) {
    const e = podEndpoint(cluster, svc, pod);
    if (!e) continue;
    let g = groups.get(e.key);
    if (!g) groups.set(e.key, (g = { ports: e.ports, endpoints: [], json: [] }));
    g.endpoints.push(e.ep);
    g.json.push(e.json);
  }
  return groups;
}

/** JSON of a stored slice's endpoints, once per stored (frozen) array. */
const storedJson = new WeakMap<object, string>();

function endpointsJson(endpoints: unknown[]): string {
  if (!Object.isFrozen(endpoints)) return JSON.stringify(endpoints);
  let j = storedJson.get(endpoints);
  if (j === undefined) storedJson.set(endpoints, (j = JSON.stringify(endpoints)));
  return j;
}

/**
 * The Service keys an object change concerns (informer event handlers of the real controller).
 * `own` says whether a slice event comes from this controller's own write: upstream's
 * endpointSliceTracker (staging/src/k8s.io/endpointslice/util/endpointslice_tracker.go, used by
 * pkg/controller/endpointslice/endpointslice_controller.go onEndpointSliceAdd / Update / Delete)
 * remembers the generation of every slice the controller wrote or deleted, and ShouldSync queues
 * the Service again only for a slice someone else changed.
 */
function watchKeys(
  cluster: Cluster,
  enqueue: (key: string) => void,
  own: (key: string) => boolean = () => false
): (() => void)[] {
  const api = cluster.api;
  return [
    api.watch('Service', (_t, o) => enqueue(`${o.metadata.namespace}/${o.metadata.name}`)),
    api.watch('Pod', (t, o, old) => {
      const keys =
        t === 'MODIFIED' && old
          ? servicesToUpdateOnPodChange(cluster, o, old)
          : servicesOfPod(cluster, o, old);
      for (const k of keys) enqueue(k);
    }),
    api.watch('EndpointSlice', (_t, o) => {
      const svc = o.metadata.labels?.['kubernetes.io/service-name'];
      if (svc && o.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === MANAGED_BY) {
        const key = `${o.metadata.namespace}/${svc}`;
        if (!own(key)) enqueue(key);
      }
    })
  ];
}

/** Reconcile the EndpointSlices of one Service ("namespace/name"). Throws API errors for the caller to retry. */
export function syncEndpointSlices(
  cluster: Cluster,
  key: string,
  ctx: RequestContext = CTX,
  index?: SelectedPodsIndex
): void {
  const [ns, name] = key.split('/');
  const api = cluster.api;
  const svc = api.tryGet('Service', ns, name);
  // The Service's own slices come from the owner index (a label selector over every slice would
  // cost O(Services) per sync); without the Service, every slice labelled with its name.
  const existing = (
    svc
      ? api
          .listByController('EndpointSlice', svc.metadata.uid!, ns, { order: 'list' })
          .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name)
      : api.list('EndpointSlice', { namespace: ns, labelSelector: `kubernetes.io/service-name=${name}` })
  )
    .filter((s) => s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === MANAGED_BY)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  if (!svc || !svc.spec?.selector || svc.spec?.type === 'ExternalName') {
    // Slices are garbage-collected through their ownerReference; delete directly when the Service is gone.
    for (const s of existing) api.delete('EndpointSlice', ns, s.metadata.name, {}, ctx);
    return;
  }
  const desired: KubeObject[] = [];
  const groups = desiredEndpoints(cluster, svc, index);
  // A Service with no matching pods still gets one placeholder slice without endpoints.
  if (!groups.size) groups.set('[]', { ports: [], endpoints: [], json: [] });
  /** The JSON of each desired slice's endpoints (JSON.stringify of the array, from its parts). */
  const desiredJson: string[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < Math.max(1, Math.ceil(g.endpoints.length / MAX_ENDPOINTS_PER_SLICE)); i++) {
      desired.push({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: '',
          generateName: `${name}-`,
          namespace: ns,
          labels: {
            'endpointslice.kubernetes.io/managed-by': MANAGED_BY,
            'kubernetes.io/service-name': name,
            ...(svc.spec.clusterIP === 'None' ? { 'service.kubernetes.io/headless': '' } : {})
          },
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'Service',
              name,
              uid: svc.metadata.uid!,
              controller: true,
              blockOwnerDeletion: true
            }
          ]
        },
        addressType: 'IPv4',
        endpoints: g.endpoints.slice(i * MAX_ENDPOINTS_PER_SLICE, (i + 1) * MAX_ENDPOINTS_PER_SLICE),
        ports: g.ports
      });
      desiredJson.push(
        `[${g.json.slice(i * MAX_ENDPOINTS_PER_SLICE, (i + 1) * MAX_ENDPOINTS_PER_SLICE).join(',')}]`
      );
    }
  }
  desired.forEach((d, i) => {
    const cur = existing[i];
    if (!cur) {
      api.create(d, ctx);
      return;
    }
    if (
      endpointsJson((cur.endpoints ?? []) as unknown[]) === desiredJson[i] &&
      JSON.stringify(cur.ports ?? []) === JSON.stringify(d.ports)
    )
      return;
    api.update(
      {
        ...cur,
        metadata: { ...cur.metadata, labels: d.metadata.labels },
        endpoints: d.endpoints,
        ports: d.ports
      },
      ctx
    );
  });
  for (const extra of existing.slice(desired.length))
    api.delete('EndpointSlice', ns, extra.metadata.name, {}, ctx);
}

/**
 * The controller as kube-controller-manager hosts it (controllers/controller.ts contract):
 * `new EndpointSliceKcmController(this.host('endpointslice-controller'))` in the manager's list.
 */
export class EndpointSliceKcmController implements Controller {
  readonly name = 'endpointslice-controller';
  private pods: SelectedPodsIndex;
  constructor(private host: ControllerHost) {
    this.pods = new SelectedPodsIndex(host.cluster);
  }
  /** The Service being synced: the slice events its writes cause are this controller's own. */
  private syncing: string | undefined;
  watch(): (() => void)[] {
    this.pods = new SelectedPodsIndex(this.host.cluster);
    return [
      this.pods.watch(),
      ...watchKeys(
        this.host.cluster,
        (k) => this.host.enqueue(k),
        (k) => k === this.syncing
      )
    ];
  }
  sync(key: string): void {
    this.syncing = key;
    try {
      syncEndpointSlices(this.host.cluster, key, this.host.ctx, this.pods);
    } finally {
      this.syncing = undefined;
    }
  }
  resyncKeys(): string[] {
    return this.host.cluster.api.list('Service').map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
  }
}

/** The same controller as a standalone component (`endpointslice-controller`), until the manager hosts it. */
export class EndpointSliceController implements Component {
  readonly kind = 'endpointslice-controller';
  readonly id = 'endpointslice-controller';
  state: State = { queue: [], pending: false };
  private unwatch: (() => void)[];

  constructor(
    private cluster: Cluster,
    readonly args: Record<string, never> = {}
  ) {
    this.unwatch = watchKeys(cluster, (k) => this.enqueue(k));
  }

  private enqueue(key: string): void {
    if (!this.state.queue.includes(key)) this.state.queue.push(key);
    if (!this.state.pending) {
      this.state.pending = true;
      this.cluster.engine.schedule(0, this.id, 'sync');
    }
  }

  start(): void {
    for (const s of this.cluster.api.list('Service'))
      this.enqueue(`${s.metadata.namespace}/${s.metadata.name}`);
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'sync') return;
    this.state.pending = false;
    const keys = this.state.queue;
    this.state.queue = [];
    for (const key of keys) {
      try {
        syncEndpointSlices(this.cluster, key);
      } catch (e) {
        if (!(e instanceof ConnectionError || e instanceof ApiError)) throw e;
        if (!this.state.queue.includes(key)) this.state.queue.push(key);
        if (!this.state.pending) {
          this.state.pending = true;
          this.cluster.engine.schedule(1000, this.id, 'sync');
        }
      }
    }
  }

  getState(): State {
    return this.state;
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as State;
  }

  dispose(): void {
    for (const u of this.unwatch) u();
  }
}

export const endpointSliceControllerComponent = defineComponent(
  'endpointslice-controller',
  (cluster, args) => new EndpointSliceController(cluster, args)
);
