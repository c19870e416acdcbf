/** Scenario files: load and check them, and build a running cluster from them. */
export { loadScenario, SCENARIO_API_VERSION, DEFAULT_DURATION_MS } from './load';
export {
  createCluster,
  bootstrapSteps,
  scenarioFaultFailures,
  MissingComponentError,
  type CreateClusterOptions,
  type CreatedCluster
} from './bootstrap';
export { ScenarioError } from './errors';
export { ScenarioComponent, SCENARIO_COMPONENT_ID } from './component';
export type { Scenario, ScenarioSpec, NodePoolSpec, FaultSpec, ScheduledFault } from './types';
