/**
 * Control-plane HA: leader election for kube-scheduler and kube-controller-manager. Importing this
 * module registers the `leader-election` component kind, the StopControlPlaneNode /
 * StartControlPlaneNode faults, and a scenario bootstrap hook that adds leader election when the
 * scenario has more than one control-plane node. Import it after `scenario/bootstrap` has loaded.
 */
import { registerBootstrapHook } from '../scenario/hooks';
import { LE_KIND, type LeaderElectionArgs } from './component';

export { LeaderElection, LE_ID, LE_KIND, ELECTED, type LeaderElectionArgs } from './component';
export { LEADER_ELECTION, tryAcquireOrRenew, microTime, type Candidate } from './leaderelection';
export { estimateLoad, loadInputFor, MUTATING_P99_SLO_MS, type LoadInput, type LoadEstimate } from './load';

registerBootstrapHook('leader-election', (cluster, scenario) => {
  if (scenario.apiServers <= 1) return;
  const hosts = Array.from({ length: scenario.apiServers }, (_, i) => `control-plane-${i + 1}`);
  cluster.addComponent(LE_KIND, { hosts } satisfies LeaderElectionArgs);
});
