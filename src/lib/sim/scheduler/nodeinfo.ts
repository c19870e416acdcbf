/**
 * The scheduler cache: NodeInfo per node with running request sums, kept incrementally as pods
 * are assigned and removed, and the node list in the order the scheduler walks it (NodeTree:
 * zones interleaved round-robin).
 */
import type { KubeObject, Taint } from '../api/types';
import { NodeColumns } from './columns';
import { addResource, emptyVector, podRequests, vectorFromList } from './resources';
import type { Handle, NodeInfo, PodInfo } from './types';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const REGION_LABEL = 'topology.kubernetes.io/region';
const NO_TAINTS: readonly Taint[] = Object.freeze([]);

/** Priority as admission resolves it; pods created without admission default to 0. */
export function podPriority(pod: KubeObject): number {
  return typeof pod.spec?.priority === 'number' ? pod.spec.priority : 0;
}

/** What a PodInfo derives from the pod's spec (read only: NodeInfo sums copy the numbers). */
type SpecParts = Pick<
  PodInfo,
  'priority' | 'requests' | 'nonZero' | 'hostPorts' | 'hasAffinityTerms' | 'hasRequiredAntiAffinity'
>;

/**
 * Spec parts per stored (frozen) spec: a pod's status writes keep its spec object, so the cache
 * re-reads a pod's requests once per spec, not once per event. Equal parts are one frozen object
 * (a Deployment's replicas all request the same), held in a bounded table.
 */
const partsOfSpec = new WeakMap<object, SpecParts>();
const SHARED_PARTS_LIMIT = 4096;
let sharedParts = new Map<string, SpecParts>();

function specParts(pod: KubeObject): SpecParts {
  const spec = pod.spec;
  const stored = !!spec && Object.isFrozen(spec);
  const hit = stored ? partsOfSpec.get(spec) : undefined;
  if (hit) return hit;
  const req = podRequests(pod, false);
  const nz = podRequests(pod, true);
  const hostPorts: PodInfo['hostPorts'] = [];
  for (const c of spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.hostPort)
        hostPorts.push({ hostIP: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  const aff = spec?.affinity;
  const parts: SpecParts = {
    priority: podPriority(pod),
    requests: req,
    nonZero: { cpu: nz.cpu, memory: nz.memory },
    hostPorts,
    hasAffinityTerms: !!(aff?.podAffinity || aff?.podAntiAffinity),
    hasRequiredAntiAffinity: !!aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length
  };
  const key = JSON.stringify(parts);
  let shared = sharedParts.get(key);
  if (!shared) {
    if (sharedParts.size >= SHARED_PARTS_LIMIT) sharedParts = new Map();
    Object.freeze(req.scalar);
    Object.freeze(req);
    Object.freeze(parts.nonZero);
    for (const hp of hostPorts) Object.freeze(hp);
    Object.freeze(hostPorts);
    shared = Object.freeze(parts);
    sharedParts.set(key, shared);
  }
  if (stored) partsOfSpec.set(spec, shared);
  return shared;
}

export function newPodInfo(pod: KubeObject): PodInfo {
  const parts = specParts(pod);
  return {
    pod,
    key: `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`,
    namespace: pod.metadata.namespace ?? 'default',
    priority: parts.priority,
    requests: parts.requests,
    nonZero: parts.nonZero,
    hostPorts: parts.hostPorts,
    hasAffinityTerms: parts.hasAffinityTerms,
    hasRequiredAntiAffinity: parts.hasRequiredAntiAffinity
  };
}

export function newNodeInfo(node: KubeObject): NodeInfo {
  const images = new Map<string, number>();
  for (const img of node.status?.images ?? []) {
    for (const n of img.names ?? []) images.set(n, img.sizeBytes ?? 0);
  }
  return {
    name: node.metadata.name,
    node,
    labels: node.metadata.labels ?? {},
    taints: (node.spec?.taints ?? NO_TAINTS) as Taint[],
    unschedulable: !!node.spec?.unschedulable,
    allocatable: vectorFromList(node.status?.allocatable ?? node.status?.capacity),
    requested: emptyVector(),
    nonZeroRequested: { cpu: 0, memory: 0 },
    pods: [],
    podsWithAffinity: 0,
    podsWithRequiredAntiAffinity: 0,
    usedPorts: [],
    images,
    generation: 0
  };
}

export function addPod(ni: NodeInfo, p: PodInfo): void {
  ni.pods.push(p);
  const r = ni.requested;
  r.cpu += p.requests.cpu;
  r.memory += p.requests.memory;
  r.ephemeralStorage += p.requests.ephemeralStorage;
  r.pods += 1;
  for (const k in p.requests.scalar) addResource(r, k, p.requests.scalar[k]);
  ni.nonZeroRequested.cpu += p.nonZero.cpu;
  ni.nonZeroRequested.memory += p.nonZero.memory;
  if (p.hasAffinityTerms) ni.podsWithAffinity++;
  if (p.hasRequiredAntiAffinity) ni.podsWithRequiredAntiAffinity++;
  for (const hp of p.hostPorts) ni.usedPorts.push(hp);
  ni.generation++;
}

export function removePod(ni: NodeInfo, key: string): PodInfo | undefined {
  const i = ni.pods.findIndex((p) => p.key === key);
  if (i < 0) return undefined;
  const [p] = ni.pods.splice(i, 1);
  const r = ni.requested;
  r.cpu -= p.requests.cpu;
  r.memory -= p.requests.memory;
  r.ephemeralStorage -= p.requests.ephemeralStorage;
  r.pods -= 1;
  for (const k in p.requests.scalar) addResource(r, k, -p.requests.scalar[k]);
  ni.nonZeroRequested.cpu -= p.nonZero.cpu;
  ni.nonZeroRequested.memory -= p.nonZero.memory;
  if (p.hasAffinityTerms) ni.podsWithAffinity--;
  if (p.hasRequiredAntiAffinity) ni.podsWithRequiredAntiAffinity--;
  for (const hp of p.hostPorts) {
    const j = ni.usedPorts.findIndex(
      (u) => u.port === hp.port && u.protocol === hp.protocol && u.hostIP === hp.hostIP
    );
    if (j >= 0) ni.usedPorts.splice(j, 1);
  }
  ni.generation++;
  return p;
}

/** A copy whose pod list can change without touching the cache (preemption dry runs). */
export function cloneNodeInfo(ni: NodeInfo): NodeInfo {
  return {
    ...ni,
    requested: { ...ni.requested, scalar: { ...ni.requested.scalar } },
    nonZeroRequested: { ...ni.nonZeroRequested },
    pods: [...ni.pods],
    usedPorts: [...ni.usedPorts]
  };
}

/** NodeTree order: one node from each zone in turn, zones in order of first appearance. */
export function nodeTreeOrder(nodes: NodeInfo[]): NodeInfo[] {
  const zones = new Map<string, NodeInfo[]>();
  for (const n of nodes) {
    const zone = `${n.labels[REGION_LABEL] ?? ''}:\u0000:${n.labels[ZONE_LABEL] ?? ''}`;
    let list = zones.get(zone);
    if (!list) zones.set(zone, (list = []));
    list.push(n);
  }
  if (zones.size <= 1) return nodes.slice();
  const lists = [...zones.values()];
  const out: NodeInfo[] = [];
  for (let i = 0; out.length < nodes.length; i++) {
    for (const l of lists) if (i < l.length) out.push(l[i]);
  }
  return out;
}

export interface SnapshotSources {
  services?: KubeObject[];
  replicaSets?: KubeObject[];
  replicationControllers?: KubeObject[];
  statefulSets?: KubeObject[];
  namespaces?: KubeObject[];
  minor: number;
}

/** Build the Handle plugins read, over the cache's NodeInfos. */
export function buildHandle(
  nodes: NodeInfo[],
  src: SnapshotSources,
  stats: Handle['stats'] = countAffinityPods(nodes)
): Handle {
  const nodeByName = new Map<string, NodeInfo>();
  const imageNodeCount = new Map<string, number>();
  for (const n of nodes) {
    nodeByName.set(n.name, n);
    for (const img of n.images.keys()) imageNodeCount.set(img, (imageNodeCount.get(img) ?? 0) + 1);
  }
  const ordered = nodeTreeOrder(nodes);
  return {
    nodes: ordered,
    columns: new NodeColumns(ordered),
    nodeByName,
    imageNodeCount,
    minor: src.minor,
    stats,
    ...sourceReaders(src)
  };
}

/** The Handle members that read Services, ReplicaSets and Namespaces (not the nodes). */
export function sourceReaders(src: SnapshotSources): Pick<Handle, 'namespaceLabels' | 'selectorsFor'> {
  const nsLabels = new Map<string, Record<string, string>>();
  for (const ns of src.namespaces ?? []) nsLabels.set(ns.metadata.name, ns.metadata.labels ?? {});
  return {
    namespaceLabels: (ns) => nsLabels.get(ns),
    selectorsFor: (pod) => defaultSelectors(pod, src)
  };
}

/** helper.DefaultSelector: selectors of the Services, RCs, ReplicaSets and StatefulSets that select the pod. */
function defaultSelectors(pod: KubeObject, src: SnapshotSources): Record<string, string>[] {
  const labels = pod.metadata.labels ?? {};
  const ns = pod.metadata.namespace ?? 'default';
  const out: Record<string, string>[] = [];
  const matches = (sel: Record<string, string> | undefined): boolean =>
    !!sel && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v);
  for (const s of src.services ?? []) {
    if ((s.metadata.namespace ?? 'default') === ns && matches(s.spec?.selector)) out.push(s.spec.selector);
  }
  for (const rc of src.replicationControllers ?? []) {
    if ((rc.metadata.namespace ?? 'default') === ns && matches(rc.spec?.selector)) out.push(rc.spec.selector);
  }
  for (const o of [...(src.replicaSets ?? []), ...(src.statefulSets ?? [])]) {
    const ml = o.spec?.selector?.matchLabels as Record<string, string> | undefined;
    if ((o.metadata.namespace ?? 'default') === ns && matches(ml)) out.push(ml!);
  }
  return out;
}

export function countAffinityPods(nodes: NodeInfo[]): Handle['stats'] {
  const stats = { podsWithAffinity: 0, podsWithRequiredAntiAffinity: 0 };
  for (const n of nodes) {
    stats.podsWithAffinity += n.podsWithAffinity;
    stats.podsWithRequiredAntiAffinity += n.podsWithRequiredAntiAffinity;
  }
  return stats;
}
