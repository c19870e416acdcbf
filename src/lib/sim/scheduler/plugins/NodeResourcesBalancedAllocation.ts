/**
 * NodeResourcesBalancedAllocation (PreScore, Score): prefers nodes whose cpu and memory
 * utilization (actual requests, not the non-zero defaults) stay close. BestEffort pods are
 * skipped so they do not pile onto one node (issue #129138).
 */
import { status, type NodeInfo, type Plugin, type PodInfo } from '../types';
import { allocatableAndRequested, defaultResources, type ResourceSpec } from './NodeResourcesFit';
import { getResource } from '../resources';

const MAX_NODE_SCORE = 100;

export const Name = 'NodeResourcesBalancedAllocation';

export interface BalancedAllocationArgs {
  resources?: ResourceSpec[];
}

/** `ar` holds [allocatable, requested] pairs; `fractions` is scratch space of the same count. */
export function balancedResourceScorer(ar: number[], fractions: number[]): number {
  let n = 0;
  let total = 0;
  for (let i = 0; i < ar.length; i += 2) {
    if (ar[i] === 0) continue;
    const f = Math.min(ar[i + 1] / ar[i], 1);
    total += f;
    fractions[n++] = f;
  }
  let std = 0;
  if (n === 2) std = Math.abs((fractions[0] - fractions[1]) / 2);
  else if (n > 2) {
    const mean = total / n;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (fractions[i] - mean) * (fractions[i] - mean);
    std = Math.sqrt(sum / n);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/** balancedResourceScorer for exactly cpu and memory, both allocatable: the same arithmetic. */
export function balancedCpuMemory(
  allocCpu: number,
  reqCpu: number,
  allocMemory: number,
  reqMemory: number
): number {
  const fc = Math.min(reqCpu / allocCpu, 1);
  const fm = Math.min(reqMemory / allocMemory, 1);
  return Math.trunc((1 - Math.abs((fc - fm) / 2)) * MAX_NODE_SCORE);
}

export function create(args: BalancedAllocationArgs = {}): Plugin {
  const resources = args.resources ?? defaultResources();
  const ar: number[] = new Array(resources.length * 2).fill(0);
  const fractions: number[] = new Array(resources.length).fill(0);
  const general = (pod: PodInfo, node: NodeInfo): number => {
    for (let i = 0; i < resources.length; i++)
      allocatableAndRequested(node, pod, resources[i].name, true, ar, i);
    return balancedResourceScorer(ar, fractions);
  };
  // The default (cpu and memory): balancedResourceScorer's two-resource case read straight from
  // the vectors, the same arithmetic in the same order.
  const cpuMemory = resources.length === 2 && resources[0].name === 'cpu' && resources[1].name === 'memory';
  const twoResources = (pod: PodInfo, node: NodeInfo): number => {
    const ac = node.allocatable.cpu;
    const am = node.allocatable.memory;
    if (ac === 0 || am === 0) return general(pod, node);
    return balancedCpuMemory(
      ac,
      node.requested.cpu + pod.requests.cpu,
      am,
      node.requested.memory + pod.requests.memory
    );
  };
  const score = cpuMemory ? twoResources : general;
  return {
    name: Name,
    preScore(_s, pod) {
      for (const r of resources) if (getResource(pod.requests, r.name) !== 0) return null;
      return status('Skip');
      return null;
    },
    score: (_s, pod, node) => score(pod, node),
    scoreAll(_s, pod, nodes, out, h, at) {
      const c = at ? h.columns : undefined;
      if (cpuMemory && c) {
        const pc = pod.requests.cpu;
        const pm = pod.requests.memory;
        for (let k = 0; k < nodes.length; k++) {
          const i = at![k];
          const ac = c.allocCpu[i];
          const am = c.allocMemory[i];
          out[k] =
            ac === 0 || am === 0
              ? general(pod, nodes[k])
              : balancedCpuMemory(ac, c.reqCpu[i] + pc, am, c.reqMemory[i] + pm);
        }
      } else if (cpuMemory) for (let i = 0; i < nodes.length; i++) out[i] = twoResources(pod, nodes[i]);
      else for (let i = 0; i < nodes.length; i++) out[i] = general(pod, nodes[i]);
    }
  };
}
