/**
 * NodeResourcesFit (PreFilter, Filter, Score): the pod's real requests must fit the node's free
 * allocatable; the score follows scoringStrategy (LeastAllocated by default, MostAllocated,
 * RequestedToCapacityRatio) over requests with the non-zero cpu/memory defaults.
 */
import type { KubeObject } from '../../api/types';
import type { ClusterEventWithHint, QueueingHint } from '../events';
import { newNodeInfo, newPodInfo } from '../nodeinfo';
import { getResource, isScalarResource, type ResourceVector } from '../resources';
import { type NodeInfo, type Plugin, type PodInfo, type Status } from '../types';

export const Name = 'NodeResourcesFit';
export const ErrReasonTooManyPods = 'Too many pods';
/** `Insufficient <resource>` */
export const insufficient = (r: string): string => `Insufficient ${r}`;

export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';
export interface ResourceSpec {
  name: string;
  weight: number;
}
export interface UtilizationShapePoint {
  utilization: number;
  score: number;
}
export interface NodeResourcesFitArgs {
  ignoredResources?: string[];
  ignoredResourceGroups?: string[];
  scoringStrategy?: {
    type?: ScoringStrategyType;
    resources?: ResourceSpec[];
    requestedToCapacityRatio?: { shape: UtilizationShapePoint[] };
  };
}

export const defaultResources = (): ResourceSpec[] => [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 }
];

// Local copies: imported bindings cost a property read in the transpiled hot loop.
const MAX_NODE_SCORE = 100;
/** MaxCustomPriorityScore: shape scores are 0-10 and scaled to 0-100. */
const MAX_CUSTOM_PRIORITY_SCORE = 10;
const MAX_UTILIZATION = 100;

export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) requested = capacity;
  return Math.trunc((requested * MAX_NODE_SCORE) / capacity);
}

/** helper.BuildBrokenLinearFunction with integer arithmetic. */
export function brokenLinear(shape: UtilizationShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      if (p <= shape[i].utilization) {
        if (i === 0) return shape[0].score;
        const a = shape[i - 1];
        const b = shape[i];
        return (
          a.score + Math.trunc(((b.score - a.score) * (p - a.utilization)) / (b.utilization - a.utilization))
        );
      }
    }
    return shape[shape.length - 1].score;
  };
}

/** Allocatable and requested (node + pod) for one resource, as resource_allocation.go computes them, into out[2i], out[2i+1]. */
export function allocatableAndRequested(
  node: NodeInfo,
  pod: PodInfo,
  resource: string,
  useRequested: boolean,
  out: number[],
  i: number
): void {
  if (resource === 'cpu') {
    out[2 * i] = node.allocatable.cpu;
    out[2 * i + 1] = useRequested
      ? node.requested.cpu + pod.requests.cpu
      : node.nonZeroRequested.cpu + pod.nonZero.cpu;
    return;
  }
  if (resource === 'memory') {
    out[2 * i] = node.allocatable.memory;
    out[2 * i + 1] = useRequested
      ? node.requested.memory + pod.requests.memory
      : node.nonZeroRequested.memory + pod.nonZero.memory;
    return;
  }
  const podReq = getResource(pod.requests, resource);
  // An extended resource the pod does not request is left out of the score.
  if (podReq === 0 && isScalarResource(resource)) {
    out[2 * i] = 0;
    out[2 * i + 1] = 0;
    return;
  }
  out[2 * i] = getResource(node.allocatable, resource);
  out[2 * i + 1] = getResource(node.requested, resource) + podReq;
}

/**
 * Whether the pod's pod count, cpu, memory and ephemeral-storage requests fit (fitsRequest's four
 * fixed checks; extended resources are checked there).
 */
export function fitsFixed(
  podCount: number,
  allocPods: number,
  r: ResourceVector,
  allocCpu: number,
  usedCpu: number,
  allocMemory: number,
  usedMemory: number,
  allocEphemeral: number,
  usedEphemeral: number
): boolean {
  return (
    !(podCount + 1 > allocPods) &&
    !(r.cpu > 0 && r.cpu > allocCpu - usedCpu) &&
    !(r.memory > 0 && r.memory > allocMemory - usedMemory) &&
    !(r.ephemeralStorage > 0 && r.ephemeralStorage > allocEphemeral - usedEphemeral)
  );
}

/** LeastAllocated over cpu and memory (resource_allocation.go with leastRequestedScore). */
export function leastAllocatedCpuMemory(
  allocCpu: number,
  reqCpu: number,
  wCpu: number,
  allocMemory: number,
  reqMemory: number,
  wMemory: number
): number {
  let nodeScore = 0;
  let weightSum = 0;
  if (allocCpu !== 0) {
    nodeScore +=
      (reqCpu > allocCpu ? 0 : Math.trunc(((allocCpu - reqCpu) * MAX_NODE_SCORE) / allocCpu)) * wCpu;
    weightSum += wCpu;
  }
  if (allocMemory !== 0) {
    nodeScore +=
      (reqMemory > allocMemory ? 0 : Math.trunc(((allocMemory - reqMemory) * MAX_NODE_SCORE) / allocMemory)) *
      wMemory;
    weightSum += wMemory;
  }
  return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
}

/**
 * The reasons a pod does not fit. `unresolvable` is set when a request exceeds the node's whole
 * allocatable: evicting pods cannot help, so preemption skips the node. Hot path: no closures.
 */
export function fitsRequest(
  pod: PodInfo,
  node: NodeInfo,
  ignored: (r: string) => boolean
): { reasons: string[]; unresolvable: boolean } | null {
  const alloc = node.allocatable;
  const used = node.requested;
  const r = pod.requests;
  let reasons: string[] | null = null;
  let unresolvable = false;
  if (node.pods.length + 1 > alloc.pods) reasons = [ErrReasonTooManyPods];
  if (r.cpu > 0 && r.cpu > alloc.cpu - used.cpu) {
    (reasons ??= []).push(insufficient('cpu'));
    if (r.cpu > alloc.cpu) unresolvable = true;
  }
  if (r.memory > 0 && r.memory > alloc.memory - used.memory) {
    (reasons ??= []).push(insufficient('memory'));
    if (r.memory > alloc.memory) unresolvable = true;
  }
  if (r.ephemeralStorage > 0 && r.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    (reasons ??= []).push(insufficient('ephemeral-storage'));
    if (r.ephemeralStorage > alloc.ephemeralStorage) unresolvable = true;
  }
  for (const name in r.scalar) {
    const want = r.scalar[name];
    if (want === 0 || ignored(name)) continue;
    const capacity = alloc.scalar[name] ?? 0;
    if (want > capacity - (used.scalar[name] ?? 0)) {
      (reasons ??= []).push(insufficient(name));
      if (want > capacity) unresolvable = true;
    }
  }
  return reasons ? { reasons, unresolvable } : null;
}

/** Any resource the pod requests (or the pod count) grew in the node's allocatable. */
function haveAnyRequestedResourcesIncreased(
  pod: PodInfo,
  before: ResourceVector,
  after: ResourceVector
): boolean {
  if (after.pods > before.pods) return true;
  const r = pod.requests;
  if (
    (r.cpu > 0 && after.cpu > before.cpu) ||
    (r.memory > 0 && after.memory > before.memory) ||
    (r.ephemeralStorage > 0 && after.ephemeralStorage > before.ephemeralStorage)
  )
    return true;
  for (const name in r.scalar) {
    if (r.scalar[name] === 0) continue;
    if ((after.scalar[name] ?? 0) > (before.scalar[name] ?? 0)) return true;
  }
  return false;
}

/** A Node object as an empty NodeInfo, once per object (a node event is judged for every waiting pod). */
const emptyNodeInfos = new WeakMap<KubeObject, NodeInfo>();
function emptyNodeInfo(node: KubeObject): NodeInfo {
  let ni = emptyNodeInfos.get(node);
  if (!ni) emptyNodeInfos.set(node, (ni = newNodeInfo(node)));
  return ni;
}

/**
 * isSchedulableAfterNodeChange: the pod must fit the added or updated node when it is empty
 * (isFit), and an update must have grown an allocatable resource the pod requests.
 */
export function isSchedulableAfterNodeChange(
  pod: KubeObject,
  oldNode: KubeObject | undefined,
  newNode: KubeObject | undefined
): QueueingHint {
  if (!newNode) return 'QueueSkip';
  const pi = newPodInfo(pod);
  const after = emptyNodeInfo(newNode);
  if (fitsRequest(pi, after, () => false)) return 'QueueSkip';
  if (!oldNode) return 'Queue';
  return haveAnyRequestedResourcesIncreased(pi, emptyNodeInfo(oldNode).allocatable, after.allocatable)
    ? 'Queue'
    : 'QueueSkip';
}

/** isSchedulableAfterPodEvent: any deleted pod that was on a node may free room (no in-place resize here). */
export function isSchedulableAfterPodEvent(
  _pod: KubeObject,
  oldPod: KubeObject | undefined,
  newPod: KubeObject | undefined
): QueueingHint {
  if (newPod) return 'QueueSkip';
  return oldPod?.spec?.nodeName ? 'Queue' : 'QueueSkip';
}

/** With queueing hints there is no preCheck: Node Add and UpdateNodeAllocatable only. */
export const eventsToRegister = (): ClusterEventWithHint[] => [
  { events: ['AssignedPodDelete'], hint: isSchedulableAfterPodEvent },
  { events: ['NodeAdd', 'NodeUpdateNodeAllocatable'], hint: isSchedulableAfterNodeChange }
];

export function create(args: NodeResourcesFitArgs = {}, ctx: { minor: number } = { minor: 35 }): Plugin {
  const ignoredSet = new Set(args.ignoredResources ?? []);
  const groups = new Set(args.ignoredResourceGroups ?? []);
  // Only extended resources can be ignored (ignoredResources / ignoredResourceGroups).
  const ignored = (r: string): boolean =>
    ignoredSet.has(r) || (r.includes('/') && groups.has(r.split('/')[0]));
  const strategy = args.scoringStrategy?.type ?? 'LeastAllocated';
  const resources = args.scoringStrategy?.resources ?? defaultResources();
  const shape = (args.scoringStrategy?.requestedToCapacityRatio?.shape ?? []).map((p) => ({
    utilization: p.utilization,
    score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE)
  }));
  const raw = brokenLinear(shape);
  const strategyCode = strategy === 'LeastAllocated' ? 0 : strategy === 'MostAllocated' ? 1 : 2;
  const ar: number[] = new Array(resources.length * 2).fill(0);
  const filter = (pod: PodInfo, node: NodeInfo): Status | null => {
    const fit = fitsRequest(pod, node, ignored);
    if (!fit) return null;
    // Requests above the node's total allocatable became UnschedulableAndUnresolvable in v1.32.
    return {
      code: fit.unresolvable && ctx.minor >= 32 ? 'UnschedulableAndUnresolvable' : 'Unschedulable',
      reasons: fit.reasons
    };
  };
  // The default (cpu and memory, LeastAllocated) read straight from the vectors: the same
  // arithmetic as the general loop below without its per-resource name tests.
  const cpuMemory =
    strategyCode === 0 &&
    resources.length === 2 &&
    resources[0].name === 'cpu' &&
    resources[1].name === 'memory';
  const wCpu = resources[0]?.weight ?? 0;
  const wMem = resources[1]?.weight ?? 0;
  const leastCpuMemory = (pod: PodInfo, node: NodeInfo): number =>
    leastAllocatedCpuMemory(
      node.allocatable.cpu,
      node.nonZeroRequested.cpu + pod.nonZero.cpu,
      wCpu,
      node.allocatable.memory,
      node.nonZeroRequested.memory + pod.nonZero.memory,
      wMem
    );
  const general = (pod: PodInfo, node: NodeInfo): number => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < resources.length; i++) {
      allocatableAndRequested(node, pod, resources[i].name, false, ar, i);
      const alloc = ar[2 * i];
      const req = ar[2 * i + 1];
      if (alloc === 0) continue;
      const w = resources[i].weight;
      if (strategyCode === 0) {
        nodeScore += leastRequestedScore(req, alloc) * w;
        weightSum += w;
      } else if (strategyCode === 1) {
        nodeScore += mostRequestedScore(req, alloc) * w;
        weightSum += w;
      } else {
        const util = req > alloc ? MAX_UTILIZATION : Math.trunc((req * MAX_UTILIZATION) / alloc);
        const s = raw(util);
        if (s > 0) {
          nodeScore += s * w;
          weightSum += w;
        }
      }
    }
    if (weightSum === 0) return 0;
    return strategyCode === 2 ? Math.round(nodeScore / weightSum) : Math.trunc(nodeScore / weightSum);
  };
  const score = cpuMemory ? leastCpuMemory : general;
  return {
    name: Name,
    eventsToRegister,
    filter: (_s, pod, node) => filter(pod, node),
    filterAll(_s, pod, nodes, out, h, at) {
      // Without extended resources a node that passes the four fixed checks of fitsRequest fits;
      // only the others go through it (for their reasons).
      const r = pod.requests;
      let plain = true;
      for (const name in r.scalar) if (r.scalar[name] !== 0) plain = false;
      const c = at ? h.columns : undefined;
      let failed = 0;
      for (let k = 0; k < nodes.length; k++) {
        if (out[k] !== null) continue;
        const node = nodes[k];
        if (plain) {
          if (c) {
            const i = at![k];
            if (
              fitsFixed(
                c.podCount[i],
                c.allocPods[i],
                r,
                c.allocCpu[i],
                c.reqCpu[i],
                c.allocMemory[i],
                c.reqMemory[i],
                c.allocEphemeral[i],
                c.reqEphemeral[i]
              )
            )
              continue;
          } else {
            const alloc = node.allocatable;
            const used = node.requested;
            if (
              fitsFixed(
                node.pods.length,
                alloc.pods,
                r,
                alloc.cpu,
                used.cpu,
                alloc.memory,
                used.memory,
                alloc.ephemeralStorage,
                used.ephemeralStorage
              )
            )
              continue;
          }
        }
        const st = filter(pod, node);
        if (st) {
          out[k] = st;
          failed++;
        }
      }
      return failed;
    },
    score: (_s, pod, node) => score(pod, node),
    scoreAll(_s, pod, nodes, out, h, at) {
      const c = at ? h.columns : undefined;
      if (cpuMemory && c) {
        const pc = pod.nonZero.cpu;
        const pm = pod.nonZero.memory;
        for (let k = 0; k < nodes.length; k++) {
          const i = at![k];
          out[k] = leastAllocatedCpuMemory(
            c.allocCpu[i],
            c.nonZeroCpu[i] + pc,
            wCpu,
            c.allocMemory[i],
            c.nonZeroMemory[i] + pm,
            wMem
          );
        }
      } else if (cpuMemory) for (let i = 0; i < nodes.length; i++) out[i] = leastCpuMemory(pod, nodes[i]);
      else for (let i = 0; i < nodes.length; i++) out[i] = general(pod, nodes[i]);
    }
  };
}
