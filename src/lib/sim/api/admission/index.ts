/**
 * The admission chain kube-apiserver runs on every write, in upstream order: defaulting (done when
 * the request is decoded), the mutating plugins TaintNodesByCondition, Priority and
 * DefaultTolerationSeconds (the order of the default --enable-admission-plugins list), then
 * validation. Other modules add plugins with `registerAdmissionPlugin` at import time; they run
 * after the built-in ones in each phase and apply to clusters created afterwards.
 */
import type { AdmissionPlugin, ApiServer } from '../apiserver';
import type { Cluster } from '../../cluster';
import { defaultingPlugin } from './defaults';
import { defaultTolerationSecondsPlugin } from './defaulttolerationseconds';
import { priorityPlugin } from './priority';
import { taintNodesByConditionPlugin } from './taintnodesbycondition';
import { validationPlugin } from './validation';

export type AdmissionPluginFactory = (cluster: Cluster) => AdmissionPlugin;

const extra: { name: string; factory: AdmissionPluginFactory }[] = [];

/** Add a plugin (e.g. ClusterIP allocation) to every cluster created after this call. Idempotent by name. */
export function registerAdmissionPlugin(name: string, factory: AdmissionPluginFactory): void {
  const i = extra.findIndex((p) => p.name === name);
  if (i >= 0) extra[i] = { name, factory };
  else extra.push({ name, factory });
}

export function installAdmission(api: ApiServer, cluster: Cluster): void {
  api.admission.push(
    defaultingPlugin,
    taintNodesByConditionPlugin,
    priorityPlugin,
    defaultTolerationSecondsPlugin(() => cluster.config.apiServer),
    ...extra.map((p) => p.factory(cluster)),
    validationPlugin
  );
}

export { defaultPullPolicy, qosClass } from './defaults';
export { SYSTEM_PRIORITY_CLASSES } from './priority';
export { qualifiedKind, validateObject } from './validation';
