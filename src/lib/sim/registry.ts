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
import { faultStartEtcdMember, faultStopEtcdMember } from './etcd/faults';
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
import { scenarioComponent } from './scenario/component';

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
    scenarioComponent
  ];
}

function faultTable(): FaultDef[] {
  return [
    nodeFaults.faultStopKubelet,
    nodeFaults.faultStartKubelet,
    nodeFaults.faultStopRuntime,
    nodeFaults.faultStartRuntime,
    nodeFaults.faultPartitionNode,
    nodeFaults.faultHealNode,
    nodeFaults.faultFillMemory,
    nodeFaults.faultFillDisk,
    nodeFaults.faultRemoveCNI,
    nodeFaults.faultInstallCNI,
    nodeFaults.faultDeleteNode,
    nodeFaults.faultReconfigureNode,
    faultStopControllerManager,
    faultStartControllerManager,
    faultFailMachineBoot,
    faultFixMachineBoot,
    faultStopScheduler,
    faultStartScheduler,
    faultStopEtcdMember,
    faultStartEtcdMember,
    faultStopKubeProxy,
    faultStartKubeProxy,
    faultSetProxyMode,
    faultStopControlPlaneNode,
    faultStartControlPlaneNode,
    faultResizeControlPlane,
    faultAddApiServer,
    faultRemoveApiServer
  ];
}

let components: Map<string, ComponentFactory> | undefined;
let faults: Map<string, FaultDef> | undefined;

/** Component kind → factory. */
export function COMPONENTS(): ReadonlyMap<string, ComponentFactory> {
  components ??= new Map(componentTable().map((c) => [c.kind, c.factory]));
  return components;
}

/** Fault action → its definition. */
export function FAULTS(): ReadonlyMap<string, FaultDef> {
  faults ??= new Map(faultTable().map((f) => [f.action, f]));
  return faults;
}
