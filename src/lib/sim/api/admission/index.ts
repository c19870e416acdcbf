/**
 * The admission chain kube-apiserver runs on every write, in upstream order: defaulting (done when
 * the request is decoded), the mutating plugins TaintNodesByCondition, Priority and
 * DefaultTolerationSeconds (the order of the default --enable-admission-plugins list), then
 * validation. The chain is this one table; ServiceAllocation (ClusterIP and NodePort allocation,
 * network/allocator.ts) runs after the built-in mutating plugins.
 */
import type { AdmissionPlugin, ApiServer } from '../apiserver';
import type { Cluster } from '../../cluster';
import { defaultingPlugin } from './defaults';
import { defaultTolerationSecondsPlugin } from './defaulttolerationseconds';
import { priorityPlugin } from './priority';
import { taintNodesByConditionPlugin } from './taintnodesbycondition';
import { validationPlugin } from './validation';
import { serviceAllocator } from '../../network/allocator';

export type AdmissionPluginFactory = (cluster: Cluster) => AdmissionPlugin;

export function installAdmission(api: ApiServer, cluster: Cluster): void {
  api.admission.push(
    defaultingPlugin,
    taintNodesByConditionPlugin,
    priorityPlugin,
    defaultTolerationSecondsPlugin(() => cluster.config.apiServer),
    serviceAllocator(cluster),
    validationPlugin
  );
}

export { defaultPullPolicy, qosClass } from './defaults';
export { SYSTEM_PRIORITY_CLASSES } from './priority';
export { qualifiedKind, validateObject } from './validation';
