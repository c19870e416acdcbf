/** The type of a scenario-level setup step (networking, the Cluster Autoscaler, leader election). */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { Scenario } from './types';

export type BootstrapStep = (cluster: Cluster, scenario: Scenario) => void;

/**
 * Objects a cluster's installer applies once the first node has registered, before the scenario's
 * own objects (kubeadm's addons, the CNI manifest). Applied as `kubectl apply` would.
 */
export type BootstrapObjects = (cluster: Cluster, scenario: Scenario) => KubeObject[];
