/**
 * Cluster Autoscaler. Importing this module registers the `cluster-autoscaler` component kind and
 * a scenario bootstrap hook that adds it when a node pool can grow (`max` above `count`) or sets a
 * `min`, with the scenario's `spec.clusterAutoscaler` flags. Import it after `scenario/bootstrap` has loaded (it registers the hook at import time).
 */
import type { BootstrapStep } from '../../scenario/hooks';
import { autoscaledPools } from './template';
import { CA_KIND, type AutoscalerArgs } from './autoscaler';

export { ClusterAutoscaler, CA_ID, CA_KIND, CA_DEFAULTS, type AutoscalerArgs } from './autoscaler';
export {
  planScaleUp,
  choose,
  EXPANDERS,
  PRIORITY_CONFIGMAP,
  type Expander,
  type ScaleUpPlan
} from './scaleup';
export { checkNode, blockingReason, utilization, TO_BE_DELETED_TAINT, SAFE_TO_EVICT } from './scaledown';
export { STATUS_CONFIGMAP } from './status';
export { POOLS_CONFIGMAP } from './pools';
export { caOptions, type CaOptions } from './limits';
export * from './flavours';
export { autoscaledPools, templateNode, POOL_LABEL } from './template';

/** Bootstrap step: the Cluster Autoscaler when a node pool is autoscaled. */
export const clusterAutoscalerStep: BootstrapStep = (cluster, scenario) => {
  const pools = autoscaledPools(scenario.spec.nodePools ?? []);
  if (!pools.length) return;
  const flags = scenario.spec.clusterAutoscaler;
  cluster.addComponent(CA_KIND, {
    pools: structuredClone(pools),
    ...(flags ? { flags: structuredClone(flags) } : {})
  } satisfies AutoscalerArgs);
};
