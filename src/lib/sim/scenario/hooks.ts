/** The type of a scenario-level setup step (networking, the Cluster Autoscaler, leader election). */
import type { Cluster } from '../cluster';
import type { Scenario } from './types';

export type BootstrapStep = (cluster: Cluster, scenario: Scenario) => void;
