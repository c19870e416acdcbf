/**
 * Control-plane HA and sizing: leader election for kube-scheduler and kube-controller-manager,
 * and the API-server load model connected to the running cluster. Importing this module registers
 * the `leader-election` and `apiserver-load` component kinds, the control-plane faults
 * (StopControlPlaneNode / StartControlPlaneNode, ResizeControlPlane, AddApiServer,
 * RemoveApiServer) and scenario bootstrap hooks: leader election when the scenario has more than
 * one control-plane node, the load model always. Import it after `scenario/bootstrap` has loaded.
 */
import type { BootstrapStep } from '../scenario/hooks';
import { LE_KIND, type LeaderElectionArgs } from './component';
import { DEFAULT_CORES, LOAD_KIND, type ApiServerLoadArgs } from './sizing';

export { LeaderElection, LE_ID, LE_KIND, ELECTED, type LeaderElectionArgs } from './component';
export { LEADER_ELECTION, tryAcquireOrRenew, microTime, type Candidate } from './leaderelection';
export {
  estimateLoad,
  maxNodesWithinSlo,
  MUTATING_P99_SLO_MS,
  REQUEST_TIMEOUT_MS,
  type LoadInput,
  type LoadEstimate
} from './load';
export {
  ApiServerLoad,
  apiServerLoad,
  quorumTable,
  CORE_SIZES,
  DEFAULT_CORES,
  LOAD_CONFIGMAP,
  LOAD_ID,
  LOAD_KIND,
  MAX_API_SERVERS,
  RATE_WINDOW_MS,
  type ApiServerLoadArgs,
  type ClusterPlan,
  type ControlPlaneLoad,
  type MeasuredRates
} from './sizing';

/** Pod starts per second a plan assumes when it names none: the SLOs' churn limit. */
export const DEFAULT_PLAN_CHURN = 20;

/** Bootstrap step: leader election among the control-plane hosts when there are several. */
export const leaderElectionStep: BootstrapStep = (cluster, scenario) => {
  if (scenario.apiServers <= 1) return;
  const hosts = Array.from({ length: scenario.apiServers }, (_, i) => `control-plane-${i + 1}`);
  cluster.addComponent(LE_KIND, { hosts } satisfies LeaderElectionArgs);
};

/** Bootstrap step: the API server load model. */
export const apiserverLoadStep: BootstrapStep = (cluster, scenario) => {
  const cp = scenario.spec.controlPlane;
  const plan = cp?.plan;
  cluster.addComponent(LOAD_KIND, {
    cores: cp?.machine?.cores ?? DEFAULT_CORES,
    ...(plan
      ? { plan: { nodes: plan.nodes, podChurnPerSecond: plan.podChurnPerSecond ?? DEFAULT_PLAN_CHURN } }
      : {})
  } satisfies ApiServerLoadArgs);
};
