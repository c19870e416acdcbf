/**
 * The lab's view model: a small, plain summary of the cluster that the views render. It is read
 * from the API server's store (what `kubectl get` would see) plus the node host views and the
 * fault log, and recomputed at most once per animation frame.
 */
import type { Cluster } from '../cluster';
import type { KubeObject, Pod, Node, Lease, Taint } from '../api/types';
import { podStatusReason } from '../api/corev1/podstatus';
import { podRequests } from '../api/corev1/requests';
import { firstTolerating } from '../api/corev1/taints';
import { formatResource, tryParseQuantity } from '../api/quantity';
import type { EventLogEntry } from '../events/recorder';
import { kubeProxyOf } from '../network/kubeproxy';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface ResourceBar {
  name: string;
  /** milli-units, as quantity.ts parses them */
  capacity: number;
  allocatable: number;
  requested: number;
  label: { capacity: string; allocatable: string; requested: string };
}

export interface PodView {
  key: string;
  name: string;
  namespace: string;
  phase: string;
  /** The STATUS column of `kubectl get pods`. */
  status: string;
  nodeName?: string;
  owner?: string;
  /** Virtual ms left before the taint manager evicts it (NoExecute taint tolerated for a while). */
  evictionIn?: number;
  /** With `evictionIn`: the whole wait, the tolerationSeconds (ms) it counts down from. */
  evictionTotal?: number;
  terminating: boolean;
  /**
   * The cluster's own pods, not the learner's workload: mirror pods of static pods and the
   * add-ons that run at system-node-critical / system-cluster-critical priority (kube-proxy,
   * CoreDNS, the CNI's agents).
   */
  system?: boolean;
}

export interface NodeView {
  name: string;
  ready: ConditionStatus;
  /** Virtual ms of the Ready condition's lastTransitionTime. */
  readySince?: number;
  conditions: { type: string; status: string; reason?: string; message?: string }[];
  taints: { key: string; value?: string; effect: string }[];
  unschedulable: boolean;
  roles: string[];
  labels: Record<string, string>;
  resources: ResourceBar[];
  pods: PodView[];
  kubeletRunning: boolean;
  runtime: { name: string; running: boolean };
  cniInstalled: boolean;
  /** kube-proxy on the node: the mode in force and whether it runs (absent where none runs). */
  kubeProxy?: {
    mode: string;
    running: boolean;
    /** It runs as a systemd unit on the node (spec.network.kubeProxy.deployment: systemd). */
    unit?: boolean;
  };
  partitioned: boolean;
  /** Virtual ms of the last Lease renewal, if a Lease exists. */
  leaseRenewedAt?: number;
  exists: boolean;
  /** The Node object was deleted (DeleteNode); otherwise a missing Node has not registered yet. */
  deleted: boolean;
}

export interface ControlPlaneView {
  /** The provider that runs the control plane (absent: the cluster's own, kubeadm-built). */
  managed?: 'eks' | 'gke' | 'aks';
  apiServers: { name: string; running: boolean }[];
  etcd: {
    /**
     * `learner` while a joining member is not yet promoted; `diskSlow` while its disk is slow;
     * `diskFailed` once its disk failed, `dataLost` once a new, empty disk replaced it.
     */
    members: {
      name: string;
      running: boolean;
      leader: boolean;
      learner?: true;
      diskSlow?: true;
      diskFailed?: true;
      dataLost?: true;
    }[];
    quorum: boolean;
    need: number;
  };
  scheduler: { present: boolean; running: boolean };
  controllerManager: { present: boolean; running: boolean };
}

export interface LabView {
  now: number;
  nodes: NodeView[];
  pendingPods: PodView[];
  controlPlane: ControlPlaneView;
  proxyMode: string;
  cni: string;
  events: readonly EventLogEntry[];
  faults: readonly { t: number; action: string; target?: string }[];
  podCount: number;
}

const BAR_RESOURCES = ['cpu', 'memory', 'pods'];

/** Virtual ms of a node Lease's renewTime. */
function renewedAt(cluster: Cluster, lease: object | undefined): number | undefined {
  const t = (lease as Lease | undefined)?.spec?.renewTime;
  return t ? cluster.api.timeOf(t) : undefined;
}

/**
 * Whether two views of a node differ only in their Lease's renewTime (the parts the builder keeps
 * when they did not change are the same objects).
 */
export function onlyHeartbeatChanged(a: NodeView, b: NodeView): boolean {
  if (a.leaseRenewedAt === b.leaseRenewedAt) return false;
  for (const k of Object.keys(a) as (keyof NodeView)[]) {
    if (k === 'leaseRenewedAt' || a[k] === b[k]) continue;
    if (k === 'kubeProxy' && JSON.stringify(a.kubeProxy) === JSON.stringify(b.kubeProxy)) continue;
    return false;
  }
  return Object.keys(b).length === Object.keys(a).length;
}

/** Whether the last Stop/Start (or Remove/Install, Partition/Heal) fault for `target` left it stopped. */
export function stoppedByFaults(
  faults: readonly { action: string; target?: string }[],
  target: string,
  stop: string,
  start: string
): boolean {
  for (let i = faults.length - 1; i >= 0; i--) {
    const f = faults[i];
    // Control-plane faults may name no target (there is one scheduler).
    if (f.target !== undefined && f.target !== target) continue;
    if (f.action === stop) return true;
    if (f.action === start) return false;
  }
  return false;
}

export function podKey(p: { metadata: { namespace?: string; name: string } }): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
}

/** kubectl's STATUS column, from api/corev1/podstatus.ts (the same cell `kubectl get pods` prints). */
export function podStatus(p: Pod): string {
  return podStatusReason(p as unknown as KubeObject);
}

function isTerminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

/**
 * Remaining time before NoExecute eviction: the smallest tolerationSeconds among the node's
 * NoExecute taints, counted from the taint's timeAdded (as the taint manager does).
 */
export function evictionRemaining(cluster: Cluster, pod: Pod, taints: readonly Taint[]): number | undefined {
  return evictionCountdown(cluster, pod, taints)?.left;
}

/** The countdown that evicts first: what is left of it and the tolerationSeconds it started from (ms). */
export function evictionCountdown(
  cluster: Cluster,
  pod: Pod,
  taints: readonly Taint[]
): { left: number; total: number } | undefined {
  let best: { left: number; total: number } | undefined;
  for (const taint of taints) {
    if (taint.effect !== 'NoExecute' || !taint.timeAdded) continue;
    const tol = firstTolerating(pod.spec?.tolerations, taint);
    if (!tol || tol.tolerationSeconds == null) continue;
    const total = Math.max(0, tol.tolerationSeconds * 1000);
    const deadline = cluster.api.timeOf(taint.timeAdded) + total;
    const left = Math.max(0, deadline - cluster.now);
    if (!best || left < best.left) best = { left, total };
  }
  return best;
}

function podView(p: Pod & KubeObject, eviction: { left: number; total: number } | undefined): PodView {
  const owner = p.metadata.ownerReferences?.[0];
  return {
    key: podKey(p),
    name: p.metadata.name ?? '',
    namespace: p.metadata.namespace ?? 'default',
    phase: p.status?.phase ?? 'Pending',
    status: podStatus(p),
    nodeName: p.spec?.nodeName,
    owner: owner ? `${owner.kind}/${owner.name}` : undefined,
    evictionIn: eviction?.left,
    ...(eviction ? { evictionTotal: eviction.total } : {}),
    terminating: !!p.metadata.deletionTimestamp,
    ...(isSystemPod(p) ? { system: true } : {})
  };
}

const SYSTEM_PRIORITY_CLASSES = ['system-node-critical', 'system-cluster-critical'];

function isSystemPod(p: Pod & KubeObject): boolean {
  if (p.metadata.annotations?.['kubernetes.io/config.mirror']) return true;
  return SYSTEM_PRIORITY_CLASSES.includes(
    (p.spec as { priorityClassName?: string })?.priorityClassName ?? ''
  );
}

function resourceBars(node: Node, pods: Pod[]): ResourceBar[] {
  const cap = node.status?.capacity ?? {};
  const alloc = node.status?.allocatable ?? {};
  const requested: Record<string, number> = {};
  let live = 0;
  for (const p of pods) {
    if (isTerminal(p)) continue;
    live++;
    const reqs = podRequests(p);
    for (const k in reqs) requested[k] = (requested[k] ?? 0) + reqs[k];
  }
  requested.pods = live * 1000;
  const names = [
    ...BAR_RESOURCES,
    ...Object.keys(cap).filter((n) => n.includes('/') && !BAR_RESOURCES.includes(n))
  ].filter((n) => n in cap || n in alloc);
  return names.map((name) => {
    const capacity = tryParseQuantity(cap[name]) ?? 0;
    const allocatable = tryParseQuantity(alloc[name]) ?? capacity;
    const req = requested[name] ?? 0;
    return {
      name,
      capacity,
      allocatable,
      requested: req,
      label: {
        capacity: formatResource(name, capacity),
        allocatable: formatResource(name, allocatable),
        requested: formatResource(name, req)
      }
    };
  });
}

function readyOf(node: Node): ConditionStatus {
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  return (c?.status as ConditionStatus) ?? 'Unknown';
}

function readySince(cluster: Cluster, node: Node | undefined): number | undefined {
  const ts = node?.status?.conditions?.find((x) => x.type === 'Ready')?.lastTransitionTime;
  return ts ? cluster.api.timeOf(ts) : undefined;
}

function componentRunning(
  cluster: Cluster,
  id: string,
  stop: string,
  start: string
): { present: boolean; running: boolean } {
  const c = cluster.component(id);
  if (!c) return { present: false, running: false };
  // getState() may copy a large state (the scheduler's history); the fault log is enough here.
  return { present: true, running: !stoppedByFaults(cluster.faultLog, id, stop, start) };
}

/** Build the view model once (tests, one-off readers). The lab keeps a `ViewBuilder` instead. */
export function buildView(cluster: Cluster): LabView {
  return new ViewBuilder(cluster).build();
}

interface NodeMemo {
  node?: object;
  pods: readonly object[];
  lease?: object;
  host: string;
  faults: number;
  partitioned: boolean;
  /** A pod on the node shows an eviction countdown, which changes with the clock. */
  timed: boolean;
  view: NodeView;
}

/** worker-2 before worker-10. */
const byNodeName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

const sameItems = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Builds the view model frame after frame for one cluster, reusing what did not change: stored
 * objects are frozen and replaced on every write, so a pod whose object is the same object as last
 * time keeps its PodView, and a node whose Node, Lease, pods, host agents and faults are unchanged
 * keeps its NodeView (the same object, so the map skips re-rendering its card).
 */
export class ViewBuilder {
  private nodeMemo = new Map<string, NodeMemo>();
  private podMemo = new WeakMap<object, PodView>();
  private pendingMemo: { pods: readonly object[]; view: PodView[] } = { pods: [], view: [] };
  private nodesMemo: NodeView[] = [];
  private cpMemo: { key: string; view?: ControlPlaneView } = { key: '' };

  constructor(readonly cluster: Cluster) {}

  private pod(p: Pod & KubeObject, taints: readonly Taint[]): PodView {
    const eviction =
      p.spec?.nodeName && !p.metadata.deletionTimestamp && taints.length
        ? evictionCountdown(this.cluster, p, taints)
        : undefined;
    const prev = this.podMemo.get(p);
    if (prev && prev.evictionIn === eviction?.left && prev.evictionTotal === eviction?.total) return prev;
    const v = podView(p, eviction);
    this.podMemo.set(p, v);
    return v;
  }

  private node(name: string, node: (Node & KubeObject) | undefined, lease: object | undefined): NodeView {
    const cluster = this.cluster;
    const pods = cluster.api.podsOnNode<Pod & KubeObject>(name);
    const host = cluster.nodeHost(name);
    const hostKey = host
      ? `${host.kubeletRunning}|${host.runtimeName}|${host.runtimeRunning}|${host.cni.installed}`
      : '';
    // kube-proxy runs on every Node object's machine, simulated or not (the host's, when it has one).
    const kp = (host ? host.kubeProxy : kubeProxyOf(cluster, name))?.status();
    const proxyKey = kp ? `${kp.mode}|${kp.running}|${kp.unit ?? false}` : '';
    const partitioned = cluster.partitioned.has(name);
    const faults = cluster.faultLog.length;
    const memo = this.nodeMemo.get(name);
    if (
      memo &&
      !memo.timed &&
      memo.node === node &&
      memo.host === hostKey + proxyKey &&
      memo.faults === faults &&
      memo.partitioned === partitioned &&
      sameItems(memo.pods, pods)
    ) {
      if (memo.lease === lease) return memo.view;
      // Only the heartbeat: the same view with the new renewTime (a Lease renews every 10 s).
      memo.lease = lease;
      memo.view = { ...memo.view, leaseRenewedAt: renewedAt(cluster, lease) };
      return memo.view;
    }
    const taints = (node?.spec?.taints ?? []) as Taint[];
    const labels = { ...(node?.metadata.labels ?? {}) } as Record<string, string>;
    const podViews = pods.map((p) => this.pod(p, taints)).sort((a, b) => (a.key < b.key ? -1 : 1));
    const view: NodeView = {
      name,
      exists: !!node,
      deleted: !node && cluster.faultLog.some((f) => f.action === 'DeleteNode' && f.target === name),
      ready: node ? readyOf(node) : 'Unknown',
      readySince: readySince(cluster, node),
      conditions: (node?.status?.conditions ?? []).map(
        (c: { type: string; status: string; reason?: string; message?: string }) => ({
          type: c.type,
          status: c.status,
          reason: c.reason,
          message: c.message
        })
      ),
      taints: taints.map((t) => ({ key: t.key, value: t.value, effect: t.effect })),
      unschedulable: !!node?.spec?.unschedulable,
      roles: Object.keys(labels)
        .filter((k) => k.startsWith('node-role.kubernetes.io/'))
        .map((k) => k.slice('node-role.kubernetes.io/'.length)),
      labels,
      resources: node ? resourceBars(node, pods) : [],
      pods: podViews,
      kubeletRunning: host
        ? host.kubeletRunning
        : !stoppedByFaults(cluster.faultLog, name, 'StopKubelet', 'StartKubelet'),
      runtime: {
        name:
          host?.runtimeName ?? node?.status?.nodeInfo?.containerRuntimeVersion?.split(':')[0] ?? 'containerd',
        running: host
          ? host.runtimeRunning
          : !stoppedByFaults(cluster.faultLog, name, 'StopRuntime', 'StartRuntime')
      },
      cniInstalled: host
        ? host.cni.installed
        : !stoppedByFaults(cluster.faultLog, name, 'RemoveCNI', 'InstallCNI'),
      ...(kp
        ? { kubeProxy: { mode: kp.mode, running: kp.running, ...(kp.unit ? { unit: true } : {}) } }
        : {}),
      partitioned,
      leaseRenewedAt: renewedAt(cluster, lease)
    };
    // Keep the previous parts that did not change, so a card re-renders only what did.
    const prev = memo?.view;
    if (prev) {
      if (sameItems(view.pods, prev.pods)) view.pods = prev.pods;
      for (const k of ['resources', 'conditions', 'taints', 'roles', 'labels', 'runtime'] as const)
        if (JSON.stringify(view[k]) === JSON.stringify(prev[k]))
          (view as unknown as Record<string, unknown>)[k] = prev[k];
    }
    this.nodeMemo.set(name, {
      node,
      pods,
      lease,
      host: hostKey + proxyKey,
      faults,
      partitioned,
      timed: podViews.some((p) => p.evictionIn !== undefined),
      view
    });
    return view;
  }

  build(): LabView {
    const cluster = this.cluster;
    const nodes = cluster.api.list<Node & KubeObject>('Node');
    const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
    const leases = new Map(
      cluster.api
        .list<Lease & KubeObject>('Lease', { namespace: 'kube-node-lease' })
        .map((l) => [l.metadata.name, l])
    );
    const names = new Set(byName.keys());
    // A kubelet whose Node object was deleted still shows (greyed) until it re-registers.
    for (const host of cluster.nodeHosts()) names.add(host.name);
    let nodeViews = [...names]
      .sort(byNodeName)
      .map((name) => this.node(name, byName.get(name), leases.get(name)));
    if (sameItems(nodeViews, this.nodesMemo)) nodeViews = this.nodesMemo;
    this.nodesMemo = nodeViews;
    const allPods = cluster.api.list<Pod & KubeObject>('Pod');
    const unbound = allPods.filter((p) => !p.spec?.nodeName && !isTerminal(p));
    if (!sameItems(unbound, this.pendingMemo.pods))
      this.pendingMemo = {
        pods: unbound,
        view: unbound.map((p) => this.pod(p, [])).sort((a, b) => (a.key < b.key ? -1 : 1))
      };
    const controlPlane: ControlPlaneView = {
      ...(cluster.config.managed ? { managed: cluster.config.managed } : {}),
      apiServers: cluster.apiServers.map((a) => ({ ...a })),
      etcd: {
        members: cluster.etcd.members.map((m) => ({
          name: m.name,
          running: m.running,
          leader: cluster.etcd.leader === m.name,
          ...(m.learner ? { learner: true as const } : {}),
          ...(m.disk?.slow ? { diskSlow: true as const } : {}),
          ...(m.diskFailed ? { diskFailed: true as const } : {}),
          ...(m.dataLost ? { dataLost: true as const } : {})
        })),
        quorum: cluster.etcd.hasQuorum(),
        need: cluster.etcd.quorum
      },
      scheduler: componentRunning(cluster, 'kube-scheduler', 'StopScheduler', 'StartScheduler'),
      controllerManager: componentRunning(
        cluster,
        'kube-controller-manager',
        'StopControllerManager',
        'StartControllerManager'
      )
    };
    const cpKey = JSON.stringify(controlPlane);
    if (cpKey !== this.cpMemo.key) this.cpMemo = { key: cpKey, view: controlPlane };
    return {
      now: cluster.now,
      nodes: nodeViews,
      pendingPods: this.pendingMemo.view,
      controlPlane: this.cpMemo.view!,
      proxyMode: cluster.config.network.proxyMode,
      cni: cluster.config.network.cni,
      events: cluster.eventLog,
      faults: cluster.faultLog,
      podCount: allPods.length
    };
  }
}
