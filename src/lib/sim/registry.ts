/**
 * The one table of the simulation's parts: every component kind and every fault action, each
 * imported from the module that implements it. Modules only define their parts
 * (`defineComponent`, `defineFault`); nothing registers itself by being imported. The admission
 * chain's table is api/admission/index.ts, the scheduler plugins' scheduler/registry.ts, the
 * scenario bootstrap steps scenario/bootstrap.ts.
 *
 * The tables are built on first use: this module and the component modules import each other
 * (through cluster.ts), and a component module may still be loading when this one is.
 */
import type { ComponentDef, ComponentFactory, FaultDef } from './cluster';
import { kubeletComponent } from './node/kubelet';
import * as nodeFaults from './node/faults';
import {
  kubeControllerManagerComponent,
  faultStartControllerManager,
  faultStopControllerManager
} from './controllers/kube-controller-manager';
import { endpointSliceControllerComponent } from './controllers/endpointslice/controller';
import {
  clusterAutoscalerComponent,
  faultFailMachineBoot,
  faultFixMachineBoot
} from './controllers/cluster-autoscaler/autoscaler';
import { kubeSchedulerComponent, faultStartScheduler, faultStopScheduler } from './scheduler/component';
import {
  faultFixEtcdDisk,
  faultSlowEtcdDisk,
  faultStartEtcdMember,
  faultStopEtcdMember
} from './etcd/faults';
import { faultFailEtcdDisk, faultRejoinEtcdMember, faultReplaceEtcdDisk } from './etcd/faults';
import {
  kubeProxyComponent,
  faultSetProxyMode,
  faultStartKubeProxy,
  faultStopKubeProxy
} from './network/kubeproxy';
import { loadBalancerControllerComponent } from './network/lbcontroller';
import { apiServerEndpointsComponent } from './network/apiserver-endpoints';
import {
  leaderElectionComponent,
  faultStartControlPlaneNode,
  faultStopControlPlaneNode
} from './controlplane/component';
import {
  apiServerLoadComponent,
  faultAddApiServer,
  faultRemoveApiServer,
  faultResizeControlPlane
} from './controlplane/sizing';
import { faultJoinControlPlaneNode, kubeadmJoinComponent } from './controlplane/kubeadm';
import { scenarioComponent } from './scenario/component';
import { staticPodsComponent } from './etcd/staticpods';
import { prometheusComponent } from './monitoring/prometheus';
import { kubeAggregatorComponent } from './api/aggregator';
import { metricsServerComponent } from './metrics-server/metrics-server';
import { nodeAutoRepairComponent } from './controlplane/autorepair';

function componentTable(): ComponentDef[] {
  return [
    kubeletComponent,
    kubeControllerManagerComponent,
    endpointSliceControllerComponent,
    clusterAutoscalerComponent,
    kubeSchedulerComponent,
    kubeProxyComponent,
    loadBalancerControllerComponent,
    apiServerEndpointsComponent,
    leaderElectionComponent,
    apiServerLoadComponent,
    staticPodsComponent,
    prometheusComponent,
    kubeAggregatorComponent,
    metricsServerComponent,
    nodeAutoRepairComponent,
    kubeadmJoinComponent,
    scenarioComponent
  ];
}

/**
 * What a fault's `target` names: a node, an etcd member, a control-plane node, a node pool, a
 * kube-apiserver instance, a node or `all`, or nothing. `scenario`: a scenario file may schedule it.
 */
export type FaultTargetKind =
  'node' | 'nodeOrAll' | 'etcdMember' | 'controlPlaneNode' | 'pool' | 'apiServer' | 'none';

export interface FaultEntry {
  fault: FaultDef;
  target: FaultTargetKind;
  scenario: boolean;
  /**
   * It acts on the control plane (its hosts, etcd, kube-scheduler, kube-controller-manager, the
   * API servers): not offered when the provider runs the control plane (controlPlane.managed).
   */
  controlPlane?: true;
}

function faultTable(): FaultEntry[] {
  return [
    { fault: nodeFaults.faultStopKubelet, target: 'node', scenario: true },
    { fault: nodeFaults.faultStartKubelet, target: 'node', scenario: true },
    { fault: nodeFaults.faultStopRuntime, target: 'node', scenario: true },
    { fault: nodeFaults.faultStartRuntime, target: 'node', scenario: true },
    { fault: nodeFaults.faultPartitionNode, target: 'node', scenario: true },
    { fault: nodeFaults.faultHealNode, target: 'node', scenario: true },
    { fault: nodeFaults.faultFillMemory, target: 'node', scenario: true },
    { fault: nodeFaults.faultFillDisk, target: 'node', scenario: true },
    { fault: nodeFaults.faultRemoveCNI, target: 'node', scenario: true },
    { fault: nodeFaults.faultInstallCNI, target: 'node', scenario: true },
    { fault: nodeFaults.faultDeleteNode, target: 'node', scenario: true },
    { fault: nodeFaults.faultReconfigureNode, target: 'node', scenario: false },
    { fault: nodeFaults.faultShutdownNode, target: 'node', scenario: true },
    { fault: nodeFaults.faultPowerOnNode, target: 'node', scenario: true },
    { fault: nodeFaults.faultUpgradeKubelet, target: 'node', scenario: true },
    { fault: faultStopControllerManager, target: 'none', scenario: true, controlPlane: true },
    { fault: faultStartControllerManager, target: 'none', scenario: true, controlPlane: true },
    { fault: faultFailMachineBoot, target: 'pool', scenario: true },
    { fault: faultFixMachineBoot, target: 'pool', scenario: true },
    { fault: faultStopScheduler, target: 'none', scenario: true, controlPlane: true },
    { fault: faultStartScheduler, target: 'none', scenario: true, controlPlane: true },
    { fault: faultStopEtcdMember, target: 'etcdMember', scenario: true, controlPlane: true },
    { fault: faultStartEtcdMember, target: 'etcdMember', scenario: true, controlPlane: true },
    { fault: faultSlowEtcdDisk, target: 'etcdMember', scenario: true, controlPlane: true },
    { fault: faultFixEtcdDisk, target: 'etcdMember', scenario: true, controlPlane: true },
    { fault: faultStopKubeProxy, target: 'node', scenario: true },
    { fault: faultStartKubeProxy, target: 'node', scenario: true },
    { fault: faultSetProxyMode, target: 'nodeOrAll', scenario: true },
    { fault: faultStopControlPlaneNode, target: 'controlPlaneNode', scenario: true, controlPlane: true },
    { fault: faultStartControlPlaneNode, target: 'controlPlaneNode', scenario: true, controlPlane: true },
    { fault: faultResizeControlPlane, target: 'none', scenario: false, controlPlane: true },
    { fault: faultAddApiServer, target: 'none', scenario: false, controlPlane: true },
    { fault: faultRemoveApiServer, target: 'apiServer', scenario: false, controlPlane: true },
    { fault: faultJoinControlPlaneNode, target: 'none', scenario: true, controlPlane: true },
    { fault: faultFailEtcdDisk, target: 'etcdMember', scenario: true, controlPlane: true },
    { fault: faultReplaceEtcdDisk, target: 'etcdMember', scenario: true, controlPlane: true },
    { fault: faultRejoinEtcdMember, target: 'etcdMember', scenario: true, controlPlane: true }
  ];
}

let components: Map<string, ComponentFactory> | undefined;
let faults: Map<string, FaultDef> | undefined;
let entries: Map<string, FaultEntry> | undefined;

/** Component kind → factory. */
export function COMPONENTS(): ReadonlyMap<string, ComponentFactory> {
  components ??= new Map(componentTable().map((c) => [c.kind, c.factory]));
  return components;
}

function faultEntries(): ReadonlyMap<string, FaultEntry> {
  entries ??= new Map(faultTable().map((e) => [e.fault.action, e]));
  return entries;
}

/** Fault action → its definition. */
export function FAULTS(): ReadonlyMap<string, FaultDef> {
  faults ??= new Map([...faultEntries()].map(([a, e]) => [a, e.fault]));
  return faults;
}

/** What the action's target names (undefined for an unknown action). */
export function faultTargetKind(action: string): FaultTargetKind | undefined {
  return faultEntries().get(action)?.target;
}

/** Whether the action acts on the control plane (not offered in a managed cluster). */
export function isControlPlaneFault(action: string): boolean {
  return faultEntries().get(action)?.controlPlane === true;
}

/** The fault actions a scenario file may schedule, in table order. */
export function scenarioFaultActions(): string[] {
  return [...faultEntries().values()].filter((e) => e.scenario).map((e) => e.fault.action);
}
