/**
 * Scenario-level setup that optional modules (networking, the Cluster Autoscaler, leader
 * election) register at import time. Kept free of imports so a module can register a hook while
 * the bootstrap module itself is still loading.
 */
import type { Cluster } from '../cluster';
import type { Scenario } from './types';

export type BootstrapHook = (cluster: Cluster, scenario: Scenario) => void;
export const bootstrapHooks: { name: string; hook: BootstrapHook }[] = [];

export function registerBootstrapHook(name: string, hook: BootstrapHook): void {
  const i = bootstrapHooks.findIndex((h) => h.name === name);
  if (i >= 0) bootstrapHooks[i] = { name, hook };
  else bootstrapHooks.push({ name, hook });
}
