/** Scenario overrides → ClusterConfig: durations ("40s") to milliseconds, by upstream setting name. */
import { defaultConfig, DEFAULT_KUBERNETES_VERSION, type ClusterConfig } from '../config';
import { parseDuration } from '../engine/duration';
import type { ScenarioSpec } from './types';

/** Settings held in milliseconds in ClusterConfig; every other override is a plain number. */
const DURATION_KEYS = new Set([
  'nodeStatusUpdateFrequency',
  'nodeStatusReportFrequency',
  'runtimeCheckPeriod',
  'runtimeDownThreshold',
  'imageBackOffInitial',
  'imageBackOffMax',
  'containerBackOffInitial',
  'containerBackOffMax',
  'containerBackOffReset',
  'evictionMonitoringPeriod',
  'evictionPressureTransitionPeriod',
  'plegRelistPeriod',
  'plegRelistThreshold',
  'nodeMonitorPeriod',
  'nodeMonitorGracePeriod',
  'nodeStartupGracePeriod',
  'podGCPeriod',
  'podGCQuarantine'
]);

function overrides<T extends object>(target: T, values: Record<string, string | number> | undefined): void {
  for (const [k, v] of Object.entries(values ?? {})) {
    (target as Record<string, number>)[k] = DURATION_KEYS.has(k) ? parseDuration(v) : Number(v);
  }
}

export function scenarioConfig(spec: ScenarioSpec): ClusterConfig {
  const config = defaultConfig(spec.seed ?? 1, spec.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION);
  overrides(config.kubelet, spec.kubelet);
  overrides(config.controllerManager, spec.controllerManager);
  overrides(config.apiServer, spec.apiServer);
  config.network = { ...config.network, ...spec.network };
  if (spec.controlPlane?.managed) config.managed = spec.controlPlane.managed;
  return config;
}
