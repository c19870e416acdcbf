/**
 * Scenario-level setup that optional modules (networking, the Cluster Autoscaler, leader
 * election) register at import time. Kept free of imports so a module can register a hook while
 * the bootstrap module itself is still loading.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { Scenario } from './types';

export type BootstrapHook = (cluster: Cluster, scenario: Scenario) => void;
export const bootstrapHooks: { name: string; hook: BootstrapHook }[] = [];

export function registerBootstrapHook(name: string, hook: BootstrapHook): void {
  const i = bootstrapHooks.findIndex((h) => h.name === name);
  if (i >= 0) bootstrapHooks[i] = { name, hook };
  else bootstrapHooks.push({ name, hook });
}

/**
 * Objects a cluster's installer applies once the first node has registered, before the scenario's
 * own objects (kubeadm's addons, the CNI manifest). Applied as `kubectl apply` would.
 */
export type BootstrapObjects = (cluster: Cluster, scenario: Scenario) => KubeObject[];
export const bootstrapObjects: { name: string; objects: BootstrapObjects }[] = [];

export function registerBootstrapObjects(name: string, objects: BootstrapObjects): void {
  const i = bootstrapObjects.findIndex((h) => h.name === name);
  if (i >= 0) bootstrapObjects[i] = { name, objects };
  else bootstrapObjects.push({ name, objects });
}
