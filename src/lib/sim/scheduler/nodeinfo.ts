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

/**
 * Spec parts by the stored container list, with the other fields they read: a binding writes a new
 * spec (nodeName) that keeps the pod's frozen containers, affinity and overhead.
 */
interface PartsOfContainers {
  initContainers: unknown;
  overhead: unknown;
  affinity: unknown;
  priority: unknown;
  parts: SpecParts;
}
const partsOfContainers = new WeakMap<object, PartsOfContainers>();

function specParts(pod: KubeObject): SpecParts {
  const spec = pod.spec;
  const stored = !!spec && Object.isFrozen(spec);
  const hit = stored ? partsOfSpec.get(spec) : undefined;
  if (hit) return hit;
  const containers = spec?.containers;
  const byContainers = stored && containers ? partsOfContainers.get(containers) : undefined;
  if (
    byContainers &&
    byContainers.initContainers === spec!.initContainers &&
    byContainers.overhead === spec!.overhead &&
    byContainers.affinity === spec!.affinity &&
    byContainers.priority === spec!.priority
  ) {
    partsOfSpec.set(spec!, byContainers.parts);
    return byContainers.parts;
  }
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
  if (stored) {
    partsOfSpec.set(spec, shared);
    if (containers && Object.isFrozen(containers))
      partsOfContainers.set(containers, {
        initContainers: spec.initContainers,
        overhead: spec.overhead,
        affinity: spec.affinity,
        priority: spec.priority,
        parts: shared
      });
  }
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

/** The last NodeInfo.podLabelsVersion handed out (process-wide, so no two pod sets share one). */
let podLabelsVersions = 0;

/** Image name → size, from the Node's status.images. */
function imagesOf(node: KubeObject): Map<string, number> {
  const images = new Map<string, number>();
  for (const img of node.status?.images ?? []) {
    for (const n of img.names ?? []) images.set(n, img.sizeBytes ?? 0);
  }
  return images;
}

/** `images`: the map of the same stored image list when it is known (a status report keeps it). */
export function newNodeInfo(node: KubeObject, images = imagesOf(node)): NodeInfo {
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
    generation: 0,
    podLabelsVersion: ++podLabelsVersions,
    labelPairs: new Map()
  };
}

/**
 * `old`'s pods and sums on the Node `node` (the cache's UpdateNode: NodeInfo.SetNode keeps the
 * pods). The pod-derived parts are copied or taken over, not walked again, so a Node status update
 * costs the node's own fields; `old` is then the cache's no longer.
 */
export function withNode(old: NodeInfo, node: KubeObject): NodeInfo {
  const imgs = node.status?.images;
  const sameImages = !!imgs && Object.isFrozen(imgs) && old.node.status?.images === imgs;
  const ni = newNodeInfo(node, sameImages ? old.images : imagesOf(node));
  ni.pods = old.pods.slice();
  ni.requested = { ...old.requested, scalar: { ...old.requested.scalar } };
  ni.nonZeroRequested = { ...old.nonZeroRequested };
  ni.podsWithAffinity = old.podsWithAffinity;
  ni.podsWithRequiredAntiAffinity = old.podsWithRequiredAntiAffinity;
  ni.usedPorts = old.usedPorts.slice();
  ni.generation = old.generation + 1;
  ni.podLabelsVersion = old.podLabelsVersion;
  // Taken over, not copied: `old` leaves the cache, and only the cache adds and removes pods.
  ni.labelPairs = old.labelPairs;
  return ni;
}

function copyPairs(m: Map<string, Map<string, number>>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [ns, pairs] of m) out.set(ns, new Map(pairs));
  return out;
}

/** A labels object's pairs as `key\u0000value`, once per (stored, frozen) labels object. */
const pairsOfLabels = new WeakMap<object, string[]>();
const NO_PAIRS: string[] = [];

export function labelPairsOf(labels: Record<string, string> | undefined): string[] {
  if (!labels) return NO_PAIRS;
  let pairs = pairsOfLabels.get(labels);
  if (!pairs) {
    pairs = [];
    for (const k in labels) pairs.push(`${k}\u0000${labels[k]}`);
    if (Object.isFrozen(labels)) pairsOfLabels.set(labels, pairs);
  }
  return pairs;
}

function countPairs(ni: NodeInfo, p: PodInfo, sign: 1 | -1): void {
  const m = p.pod.metadata;
  if (m.deletionTimestamp) return;
  let pairs = ni.labelPairs.get(p.namespace);
  if (!pairs) ni.labelPairs.set(p.namespace, (pairs = new Map()));
  for (const kv of labelPairsOf(m.labels)) {
    const n = (pairs.get(kv) ?? 0) + sign;
    if (n === 0) pairs.delete(kv);
    else pairs.set(kv, n);
  }
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
  countPairs(ni, p, 1);
  ni.generation++;
  ni.podLabelsVersion = ++podLabelsVersions;
}

export function removePod(ni: NodeInfo, key: string): PodInfo | undefined {
  const i = ni.pods.findIndex((p) => p.key === key);
  if (i < 0) return undefined;
  const [p] = ni.pods.splice(i, 1);
  countPairs(ni, p, -1);
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
  ni.podLabelsVersion = ++podLabelsVersions;
  return p;
}

/** Whether a selector sees `a` and `b` (one pod before and after an update) alike. */
export function sameToSelectors(a: PodInfo, b: PodInfo): boolean {
  return (
    a.pod.metadata.labels === b.pod.metadata.labels &&
    a.namespace === b.namespace &&
    !a.pod.metadata.deletionTimestamp === !b.pod.metadata.deletionTimestamp
  );
}

/** A copy whose pod list can change without touching the cache (preemption dry runs). */
export function cloneNodeInfo(ni: NodeInfo): NodeInfo {
  return {
    ...ni,
    requested: { ...ni.requested, scalar: { ...ni.requested.scalar } },
    nonZeroRequested: { ...ni.nonZeroRequested },
    pods: [...ni.pods],
    usedPorts: [...ni.usedPorts],
    labelPairs: copyPairs(ni.labelPairs)
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
  const index = selectorIndex(src);
  return {
    namespaceLabels: (ns) => nsLabels.get(ns),
    selectorsFor: (pod) => defaultSelectors(pod, index)
  };
}

interface IndexedSelector {
  /** Position in the order DefaultSelector reads them: Services, RCs, then ReplicaSets and StatefulSets. */
  order: number;
  selector: Record<string, string>;
  entries: [string, string][];
}

/**
 * The selectors DefaultSelector reads, each filed under its namespace and its first label pair: a
 * selector matches a pod only if the pod has that pair, so a pod looks at the selectors filed under
 * its own labels instead of every Service and ReplicaSet in the cluster.
 */
function selectorIndex(src: SnapshotSources): Map<string, IndexedSelector[]> {
  const index = new Map<string, IndexedSelector[]>();
  let order = 0;
  const file = (o: KubeObject, sel: Record<string, string> | undefined) => {
    order++;
    const entries = Object.entries(sel ?? {});
    // An empty selector is stored as none (omitempty), and a Service without one selects nothing
    // (GetPodServices, pkg/scheduler/framework/plugins/helper/spread.go).
    if (!entries.length) return;
    const [k, v] = entries[0];
    const key = `${o.metadata.namespace ?? 'default'}\u0000${k}\u0000${v}`;
    let list = index.get(key);
    if (!list) index.set(key, (list = []));
    list.push({ order, selector: sel!, entries });
  };
  for (const s of src.services ?? []) file(s, s.spec?.selector);
  for (const rc of src.replicationControllers ?? []) file(rc, rc.spec?.selector);
  for (const o of [...(src.replicaSets ?? []), ...(src.statefulSets ?? [])])
    file(o, o.spec?.selector?.matchLabels as Record<string, string> | undefined);
  return index;
}

/** helper.DefaultSelector: selectors of the Services, RCs, ReplicaSets and StatefulSets that select the pod. */
function defaultSelectors(pod: KubeObject, index: Map<string, IndexedSelector[]>): Record<string, string>[] {
  const labels: Record<string, string> = pod.metadata.labels ?? {};
  const ns = pod.metadata.namespace ?? 'default';
  const found: IndexedSelector[] = [];
  for (const k in labels) {
    const list = index.get(`${ns}\u0000${k}\u0000${labels[k]}`);
    if (!list) continue;
    for (const s of list) if (s.entries.every(([sk, sv]) => labels[sk] === sv)) found.push(s);
  }
  if (found.length > 1) found.sort((a, b) => a.order - b.order);
  return found.map((s) => s.selector);
}

export function countAffinityPods(nodes: NodeInfo[]): Handle['stats'] {
  const stats = { podsWithAffinity: 0, podsWithRequiredAntiAffinity: 0 };
  for (const n of nodes) {
    stats.podsWithAffinity += n.podsWithAffinity;
    stats.podsWithRequiredAntiAffinity += n.podsWithRequiredAntiAffinity;
  }
  return stats;
}
