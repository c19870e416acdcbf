/** kube-controller-manager (its component kind and faults are listed in ../registry.ts). */
export { KubeControllerManager, KCM_ID, KCM_KIND, type ControllerError } from './kube-controller-manager';
export { rolloutUndo, rolloutRestart, rolloutHistory } from './deployment/rollout';
export { addDaemonPodTolerations, nodeShouldRunDaemonPod } from './daemon/daemon_controller';
export type { ZoneState } from './nodelifecycle/zone';
