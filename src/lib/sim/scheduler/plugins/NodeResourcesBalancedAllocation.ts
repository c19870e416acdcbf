/**
 * NodeResourcesBalancedAllocation (PreScore, Score): prefers nodes whose cpu and memory
 * utilization (actual requests, not the non-zero defaults) stay close. BestEffort pods are
 * skipped so they do not pile onto one node (issue #129138).
 */
import { status, MAX_NODE_SCORE, type Plugin } from '../types';
import { allocatableAndRequested, defaultResources, type ResourceSpec } from './NodeResourcesFit';
import { getResource } from '../resources';

export const Name = 'NodeResourcesBalancedAllocation';

export interface BalancedAllocationArgs {
  resources?: ResourceSpec[];
}

export function balancedResourceScorer(requested: number[], allocatable: number[]): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const f = Math.min(requested[i] / allocatable[i], 1);
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0] - fractions[1]) / 2);
  else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum += (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

export function create(args: BalancedAllocationArgs = {}): Plugin {
  const resources = args.resources ?? defaultResources();
  const req: number[] = new Array(resources.length).fill(0);
  const alloc: number[] = new Array(resources.length).fill(0);
  return {
    name: Name,
    preScore(_s, pod) {
      if (resources.every((r) => getResource(pod.requests, r.name) === 0)) return status('Skip');
      return null;
    },
    score(_s, pod, node) {
      for (let i = 0; i < resources.length; i++) {
        const [a, r] = allocatableAndRequested(node, pod, resources[i].name, true);
        alloc[i] = a;
        req[i] = r;
      }
      return balancedResourceScorer(req, alloc);
    }
  };
}
