/** A scenario as written (`spec`) and as loaded (defaults applied, nodes and faults resolved). */
import type { ClusterConfig } from '../config';
import type { ParsedManifest } from '../manifests';
import type { KubeletArgs } from '../node/types';

export interface NodePoolSpec {
  name: string;
  count: number;
  names?: string[];
  capacity?: Record<string, string | number>;
  shutdownGracePeriod?: string;
  shutdownGracePeriodCriticalPods?: string;
  kubeletVersion?: string;
  /** Devices advertised only by a device plugin (KubeletArgs.devices). */
  devices?: Record<string, number>;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
  runtime?: 'containerd' | 'cri-o';
  kubeReserved?: Record<string, string | number>;
  systemReserved?: Record<string, string | number>;
  evictionHard?: Record<string, string>;
  maxPods?: number;
  zone?: string;
  region?: string;
  images?: string[];
  pullBandwidth?: string | number;
  osImage?: string;
  kernelVersion?: string;
  /** Cluster Autoscaler bounds and provider, stored for it. */
  min?: number;
  max?: number;
  provider?: {
    flavour?: string;
    instanceType?: string;
    bootTime?: string | number;
    mode?: 'system' | 'user';
    failBoot?: boolean;
  };
}

export interface FaultSpec {
  at: string | number;
  action: string;
  target?: string;
  amount?: string | number;
  mode?: string;
}

export interface ScenarioSpec {
  seed?: number;
  kubernetesVersion?: string;
  duration?: string | number;
  controlPlane?: {
    /** The provider runs the control plane: no control-plane hosts, static pods or their faults. */
    managed?: 'eks' | 'gke' | 'aks';
    apiServers?: number;
    etcd?: { members?: 1 | 3 | 5; topology?: 'stacked' | 'external' };
    /** CPU cores per control-plane machine, for the API-server load model (default 2). */
    machine?: { cores?: number };
    /** The size the cluster is expected to grow to: the load model's what-if, published for lessons. */
    plan?: { nodes: number; podChurnPerSecond?: number };
  };
  nodePools?: NodePoolSpec[];
  network?: Partial<ClusterConfig['network']>;
  kubelet?: Record<string, string | number>;
  controllerManager?: Record<string, string | number>;
  apiServer?: Record<string, number>;
  registry?: { images?: { image: string; size: string | number }[] };
  faults?: FaultSpec[];
  /** Cluster Autoscaler flags (controllers/cluster-autoscaler). */
  clusterAutoscaler?: Record<string, string | number>;
  /** Addons installed with the cluster (scenario/addons). */
  addons?: { metricsServer?: boolean };
}

export interface ScheduledFault {
  /** Virtual ms. */
  at: number;
  action: string;
  target?: string;
  params?: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  description?: string;
  fileName: string;
  spec: ScenarioSpec;
  config: ClusterConfig;
  /** Default `nodeplane run` length in virtual ms (spec.duration, default 10m). */
  duration: number;
  apiServers: number;
  etcd: { members: number; topology: 'stacked' | 'external' };
  nodes: KubeletArgs[];
  registryImages: { image: string; sizeBytes: number }[];
  faults: ScheduledFault[];
  objects: ParsedManifest[];
}
