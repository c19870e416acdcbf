/**
 * Node pool flavours: what a node of an EKS managed node group, a GKE node pool or an AKS agent
 * pool carries, and the rules that differ between the services. Pure data and functions (the
 * scenario loader and node builder import it without the autoscaler component).
 */
import type { NodePoolSpec } from '../../scenario/types';

export type Flavour = 'generic' | 'eks' | 'gke' | 'aks';
export const FLAVOURS: Flavour[] = ['generic', 'eks', 'gke', 'aks'];

/** What each service calls a node pool. */
export const POOL_KIND: Record<Flavour, string> = {
  generic: 'node pool',
  eks: 'managed node group',
  gke: 'node pool',
  aks: 'agent pool'
};

export const EKS_NODEGROUP_LABEL = 'eks.amazonaws.com/nodegroup';
export const EKS_CAPACITY_TYPE_LABEL = 'eks.amazonaws.com/capacityType';
export const GKE_NODEPOOL_LABEL = 'cloud.google.com/gke-nodepool';
export const AKS_AGENTPOOL_LABEL = 'kubernetes.azure.com/agentpool';
export const AKS_MODE_LABEL = 'kubernetes.azure.com/mode';
export const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';
/** An AKS system pool keeps at least this many nodes. */
export const AKS_SYSTEM_POOL_MIN = 2;

export function flavourOf(pool: NodePoolSpec): Flavour {
  return (pool.provider?.flavour as Flavour | undefined) ?? 'generic';
}

/** AKS pools are `user` pools unless they say `mode: system`. */
export function aksMode(pool: NodePoolSpec): 'system' | 'user' {
  return pool.provider?.mode === 'system' ? 'system' : 'user';
}

/** Labels the cloud puts on every node of the pool (the pool's own `labels` come on top). */
export function flavourLabels(pool: NodePoolSpec): Record<string, string> {
  const out: Record<string, string> = {};
  const type = pool.provider?.instanceType;
  if (type) out[INSTANCE_TYPE_LABEL] = type;
  switch (flavourOf(pool)) {
    case 'eks':
      out[EKS_NODEGROUP_LABEL] = pool.name;
      out[EKS_CAPACITY_TYPE_LABEL] = 'ON_DEMAND';
      break;
    case 'gke':
      out[GKE_NODEPOOL_LABEL] = pool.name;
      break;
    case 'aks':
      out['agentpool'] = pool.name;
      out[AKS_AGENTPOOL_LABEL] = pool.name;
      out[AKS_MODE_LABEL] = aksMode(pool);
      break;
    case 'generic':
      break;
  }
  return out;
}

export interface PoolProblem {
  field: string;
  value: unknown;
  message: string;
}

/** Rules of the managed services a pool spec breaks (checked when a scenario loads). */
export function poolProblems(pool: NodePoolSpec, path: string): PoolProblem[] {
  const out: PoolProblem[] = [];
  if (pool.provider?.mode !== undefined && flavourOf(pool) !== 'aks') {
    out.push({
      field: `${path}.provider.mode`,
      value: pool.provider.mode,
      message: 'only AKS pools have a system or user mode'
    });
  }
  if (flavourOf(pool) === 'aks' && aksMode(pool) === 'system') {
    const min = AKS_SYSTEM_POOL_MIN;
    if (pool.count < min)
      out.push({
        field: `${path}.count`,
        value: pool.count,
        message: `an AKS system node pool must have at least ${min} nodes`
      });
    if (pool.min !== undefined && pool.min < min)
      out.push({
        field: `${path}.min`,
        value: pool.min,
        message: `an AKS system node pool must have at least ${min} nodes`
      });
  }
  return out;
}
