/**
 * NodeResourcesFit (PreFilter, Filter, Score): the pod's real requests must fit the node's free
 * allocatable; the score follows scoringStrategy (LeastAllocated by default, MostAllocated,
 * RequestedToCapacityRatio) over requests with the non-zero cpu/memory defaults.
 */
import { getResource, isScalarResource } from '../resources';
import { MAX_NODE_SCORE, type NodeInfo, type Plugin, type PodInfo } from '../types';

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

/** Requested (node + pod) and allocatable for one resource, as resource_allocation.go computes them. */
export function allocatableAndRequested(
  node: NodeInfo,
  pod: PodInfo,
  resource: string,
  useRequested: boolean
): [number, number] {
  const alloc = getResource(node.allocatable, resource);
  const podReq =
    !useRequested && resource === 'cpu'
      ? pod.nonZero.cpu
      : !useRequested && resource === 'memory'
        ? pod.nonZero.memory
        : getResource(pod.requests, resource);
  // An extended resource the pod does not request is left out of the score.
  if (podReq === 0 && isScalarResource(resource)) return [0, 0];
  let nodeReq: number;
  if (!useRequested && resource === 'cpu') nodeReq = node.nonZeroRequested.cpu;
  else if (!useRequested && resource === 'memory') nodeReq = node.nonZeroRequested.memory;
  else nodeReq = getResource(node.requested, resource);
  return [alloc, nodeReq + podReq];
}

/**
 * The reasons a pod does not fit. `unresolvable` is set when a request exceeds the node's whole
 * allocatable: evicting pods cannot help, so preemption skips the node.
 */
export function fitsRequest(
  pod: PodInfo,
  node: NodeInfo,
  ignored: (r: string) => boolean
): { reasons: string[]; unresolvable: boolean } {
  const reasons: string[] = [];
  let unresolvable = false;
  const alloc = node.allocatable;
  const used = node.requested;
  if (node.pods.length + 1 > alloc.pods) reasons.push(ErrReasonTooManyPods);
  const r = pod.requests;
  let scalarCount = 0;
  for (const _ in r.scalar) scalarCount++;
  if (r.cpu === 0 && r.memory === 0 && r.ephemeralStorage === 0 && scalarCount === 0)
    return { reasons, unresolvable };
  const check = (name: string, want: number, capacity: number, inUse: number): void => {
    if (want > 0 && want > capacity - inUse) {
      reasons.push(insufficient(name));
      if (want > capacity) unresolvable = true;
    }
  };
  check('cpu', r.cpu, alloc.cpu, used.cpu);
  check('memory', r.memory, alloc.memory, used.memory);
  check('ephemeral-storage', r.ephemeralStorage, alloc.ephemeralStorage, used.ephemeralStorage);
  for (const name in r.scalar) {
    if (ignored(name)) continue;
    check(name, r.scalar[name], alloc.scalar[name] ?? 0, used.scalar[name] ?? 0);
  }
  return { reasons, unresolvable };
}

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
  return {
    name: Name,
    filter(_s, pod, node) {
      const { reasons, unresolvable } = fitsRequest(pod, node, ignored);
      if (!reasons.length) return null;
      // Requests above the node's total allocatable became UnschedulableAndUnresolvable in v1.32.
      return {
        code: unresolvable && ctx.minor >= 32 ? 'UnschedulableAndUnresolvable' : 'Unschedulable',
        reasons
      };
    },
    score(_s, pod, node) {
      let nodeScore = 0;
      let weightSum = 0;
      for (let i = 0; i < resources.length; i++) {
        const [alloc, req] = allocatableAndRequested(node, pod, resources[i].name, false);
        if (alloc === 0) continue;
        const w = resources[i].weight;
        if (strategy === 'LeastAllocated') {
          nodeScore += leastRequestedScore(req, alloc) * w;
          weightSum += w;
        } else if (strategy === 'MostAllocated') {
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
      return strategy === 'RequestedToCapacityRatio'
        ? Math.round(nodeScore / weightSum)
        : Math.trunc(nodeScore / weightSum);
    }
  };
}
