/**
 * The control loop as traffic: who talks to kube-apiserver, with which verbs, how often, and the
 * watch events it sends back. Built from kube-apiserver's request log (api/requestlog.ts), so the
 * cluster diagram draws only what happened.
 *
 * Components are folded into the processes an operator sees: the controllers into
 * kube-controller-manager (listed by name), the service controller into
 * cloud-controller-manager, node agents per node — or, above {@link AGGREGATE_ABOVE} nodes, per
 * node pool (or zone), so a diagram of 200 nodes has a handful of edges.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { nodeGroup } from './groups';
import { RATE_SECONDS, RequestLog, VERB_CLASSES, type EdgeRates, type VerbClass } from '../api/requestlog';

export type { VerbClass } from '../api/requestlog';
export { VERB_CLASSES } from '../api/requestlog';

export type Process =
  | 'kube-scheduler'
  | 'kube-controller-manager'
  | 'cloud-controller-manager'
  | 'cluster-autoscaler'
  | 'kubectl'
  | 'kubelet'
  | 'kube-proxy';

export const AGGREGATE_ABOVE = 40;
/** Dots per frame at most: above that the diagram shows rates only. */
export const MAX_DOTS = 150;

export interface TrafficEdge {
  /** `kube-scheduler`, `kubelet@worker-1`, `kubelet@pool:general`. */
  id: string;
  process: Process;
  /** The node, for node agents drawn per node. */
  node?: string;
  /** The pool or zone, for node agents drawn per group. */
  group?: string;
  /** Nodes folded into a group edge. */
  nodes?: number;
  /** Requests per virtual second to kube-apiserver, per class, over the last RATE_SECONDS. */
  in: Record<VerbClass, number>;
  /** Watch events per virtual second from kube-apiserver. */
  out: Record<VerbClass, number>;
  total: number;
}

export interface TrafficDot {
  seq: number;
  t: number;
  edge: string;
  dir: 'in' | 'out';
  verbClass: VerbClass;
  verb: string;
  resource: string;
  /** A write: it goes on from kube-apiserver to etcd. */
  write: boolean;
  name?: string;
  namespace?: string;
  /** The component that made it, when it is a part of the process (a controller of KCM). */
  part?: string;
}

export interface TrafficModel {
  now: number;
  windowSeconds: number;
  /** Node agents are drawn per pool/zone (more than AGGREGATE_ABOVE nodes). */
  aggregated: boolean;
  edges: TrafficEdge[];
  /** kube-controller-manager's controllers and their requests per virtual second. */
  controllers: { name: string; rate: number }[];
  /** Writes per virtual second from kube-apiserver to etcd. */
  etcdWrites: number;
  /** Requests and watch events after `afterSeq` (the newest MAX_DOTS). */
  dots: TrafficDot[];
  /** More happened since the last frame than the dots carry. */
  dotsDropped: number;
  lastSeq: number;
}

/** The controller name as kube-controller-manager's `--controllers` flag spells it. */
const CONTROLLERS: Record<string, string> = {
  'node-controller': 'node-lifecycle-controller',
  'taint-eviction-controller': 'taint-eviction-controller',
  'replicaset-controller': 'replicaset-controller',
  'deployment-controller': 'deployment-controller',
  'daemonset-controller': 'daemonset-controller',
  'endpointslice-controller': 'endpointslice-controller',
  controllermanager: 'disruption-controller',
  'garbage-collector-controller': 'garbage-collector-controller',
  'pod-garbage-collector': 'pod-garbage-collector-controller',
  'node-ipam-controller': 'node-ipam-controller'
};

/** The process a request's component belongs to (undefined: the API server itself, or the scenario). */
export function processOf(component: string): { process: Process; part?: string } | undefined {
  if (component === 'kubelet' || component === 'kube-proxy' || component === 'kube-scheduler') {
    return { process: component };
  }
  if (component === 'kubectl') return { process: 'kubectl' };
  if (component === 'cluster-autoscaler') return { process: 'cluster-autoscaler' };
  if (
    component === 'service-controller' ||
    component === 'service-lb-controller' ||
    component === 'cloud-controller-manager'
  ) {
    return { process: 'cloud-controller-manager', part: 'service-lb-controller' };
  }
  if (component === 'kube-controller-manager') return { process: 'kube-controller-manager' };
  if (CONTROLLERS[component]) return { process: 'kube-controller-manager', part: CONTROLLERS[component] };
  if (component.endsWith('-controller')) return { process: 'kube-controller-manager', part: component };
  return undefined;
}

function zero(): Record<VerbClass, number> {
  return { read: 0, watch: 0, create: 0, update: 0, delete: 0, bind: 0 };
}

function add(into: Record<VerbClass, number>, from: Record<VerbClass, number>, scale: number): void {
  for (const k of VERB_CLASSES) into[k] += from[k] * scale;
}

function round(r: Record<VerbClass, number>): Record<VerbClass, number> {
  for (const k of VERB_CLASSES) r[k] = Math.round(r[k] * 100) / 100;
  return r;
}

/** Start kube-apiserver's request log (off by default: the CLI and benchmarks do not pay for it). */
export function enableTraffic(cluster: Cluster): void {
  cluster.api.requestLog ??= new RequestLog();
}

/**
 * The traffic since `afterSeq`. Returns null while the request log is off (the cluster was built
 * without it): call `enableTraffic` first.
 */
export function trafficModel(cluster: Cluster, afterSeq: number): TrafficModel | null {
  const log = cluster.api.requestLog;
  if (!log) return null;
  const nodes = cluster.api.list<KubeObject>('Node');
  const aggregated = nodes.length > AGGREGATE_ABOVE;
  const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
  const edgeIdOf = (component: string, node: string | undefined): string | undefined => {
    const p = processOf(component);
    if (!p) return undefined;
    if (p.process === 'kubelet' || p.process === 'kube-proxy') {
      if (!node) return undefined;
      return aggregated
        ? `${p.process}@${nodeGroup(byName.get(node)?.metadata.labels)}`
        : `${p.process}@${node}`;
    }
    return p.process;
  };
  const edges = new Map<string, TrafficEdge>();
  const groupNodes = new Map<string, Set<string>>();
  const controllers = new Map<string, number>();
  let etcdWrites = 0;
  const scale = 1 / RATE_SECONDS;
  for (const r of log.rates(cluster.now) as EdgeRates[]) {
    const id = edgeIdOf(r.component, r.node);
    if (!id) continue;
    const p = processOf(r.component)!;
    let e = edges.get(id);
    if (!e) {
      e = { id, process: p.process, in: zero(), out: zero(), total: 0 };
      if (r.node && !aggregated) e.node = r.node;
      if (r.node && aggregated) e.group = id.slice(id.indexOf('@') + 1);
      edges.set(id, e);
    }
    add(e.in, r.in, scale);
    add(e.out, r.out, scale);
    e.total += r.total;
    if (e.group && r.node) {
      let s = groupNodes.get(id);
      if (!s) groupNodes.set(id, (s = new Set()));
      s.add(r.node);
    }
    etcdWrites += (r.in.create + r.in.update + r.in.delete + r.in.bind) * scale;
    if (p.part) {
      const rate = VERB_CLASSES.reduce((n, k) => n + r.in[k], 0) * scale;
      controllers.set(p.part, (controllers.get(p.part) ?? 0) + rate);
    }
  }
  for (const [id, s] of groupNodes) edges.get(id)!.nodes = s.size;
  const fresh = log.since(afterSeq);
  const kept = fresh.slice(-MAX_DOTS);
  const dots: TrafficDot[] = [];
  for (const r of kept) {
    const edge = edgeIdOf(r.component, r.node);
    if (!edge) continue;
    const part = processOf(r.component)?.part;
    dots.push({
      seq: r.seq,
      t: r.t,
      edge,
      dir: r.dir,
      verbClass: r.verbClass,
      verb: r.verb,
      resource: r.resource,
      write: r.write,
      ...(r.name ? { name: r.name } : {}),
      ...(r.namespace ? { namespace: r.namespace } : {}),
      ...(part ? { part } : {})
    });
  }
  return {
    now: cluster.now,
    windowSeconds: RATE_SECONDS,
    aggregated,
    edges: [...edges.values()].map((e) => ({ ...e, in: round(e.in), out: round(e.out) })),
    controllers: [...controllers.entries()]
      .map(([name, rate]) => ({ name, rate: Math.round(rate * 100) / 100 }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    etcdWrites: Math.round(etcdWrites * 100) / 100,
    dots,
    dotsDropped: Math.max(0, log.last - afterSeq - kept.length),
    lastSeq: log.last
  };
}
