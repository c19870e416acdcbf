/**
 * The cloud side of the node pools. In a real cluster min and max live in the cloud's API
 * (`eksctl scale nodegroup --nodes-max`, `gcloud container node-pools update --max-nodes`,
 * `az aks nodepool update --max-count`); Nodeplane stands in for that API with the ConfigMap
 * `kube-system/nodeplane-node-pools`, keys `<pool>.minSize` and `<pool>.maxSize`, which the
 * autoscaler creates at its first loop and reads at every loop.
 */
import type { Cluster } from '../../cluster';
import type { KubeObject, RequestContext } from '../../api/types';
import { AKS_SYSTEM_POOL_MIN, aksMode, flavourOf } from './flavours';
import type { NodeGroup } from './template';

export const POOLS_CONFIGMAP = 'nodeplane-node-pools';

export interface PoolSize {
  min: number;
  max: number;
}

/** Create the ConfigMap with the pools' sizes when it does not exist. */
export function ensurePoolsConfigMap(
  cluster: Cluster,
  ctx: RequestContext,
  groups: NodeGroup[],
  sizes: Record<string, PoolSize>
): void {
  if (cluster.api.tryGet('ConfigMap', 'kube-system', POOLS_CONFIGMAP)) return;
  const data: Record<string, string> = {};
  for (const g of groups) {
    data[`${g.name}.minSize`] = String(sizes[g.name]?.min ?? g.min);
    data[`${g.name}.maxSize`] = String(sizes[g.name]?.max ?? g.max);
  }
  cluster.api.create(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: POOLS_CONFIGMAP, namespace: 'kube-system' },
      data
    },
    ctx
  );
}

/**
 * The sizes the ConfigMap asks for. A value that is not a whole number, a max below the min, or
 * an AKS system pool below 2 is ignored (the pool keeps its size) and reported in `problems`.
 */
export function readPoolSizes(
  cluster: Cluster,
  groups: NodeGroup[],
  current: Record<string, PoolSize>
): { sizes: Record<string, PoolSize>; problems: string[] } {
  const cm = cluster.api.tryGet<KubeObject>('ConfigMap', 'kube-system', POOLS_CONFIGMAP);
  const data = (cm?.data ?? {}) as Record<string, string>;
  const sizes: Record<string, PoolSize> = {};
  const problems: string[] = [];
  for (const g of groups) {
    const cur = current[g.name] ?? { min: g.min, max: g.max };
    const num = (key: string, fallback: number) => {
      const v = data[key];
      if (v === undefined) return fallback;
      if (!/^\d+$/.test(v.trim())) {
        problems.push(`${key}: "${v}" is not a whole number`);
        return fallback;
      }
      return Number(v);
    };
    const min = num(`${g.name}.minSize`, cur.min);
    const max = num(`${g.name}.maxSize`, cur.max);
    if (max < min) {
      problems.push(`${g.name}: maxSize ${max} is below minSize ${min}`);
      sizes[g.name] = cur;
    } else if (flavourOf(g.spec) === 'aks' && aksMode(g.spec) === 'system' && min < AKS_SYSTEM_POOL_MIN) {
      problems.push(`${g.name}: an AKS system node pool must have at least ${AKS_SYSTEM_POOL_MIN} nodes`);
      sizes[g.name] = cur;
    } else {
      sizes[g.name] = { min, max };
    }
  }
  return { sizes, problems };
}
