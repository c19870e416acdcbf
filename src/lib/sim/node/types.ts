/**
 * How a node is described when it joins the cluster: the kubelet's flags and config and the
 * machine it runs on. Scenarios (node pools) and the Cluster Autoscaler create kubelets with these.
 */
import type { RuntimeName } from './cri';

export interface KubeletArgs {
  nodeName: string;
  /** Machine capacity as quantities: cpu, memory, ephemeral-storage, and extended resources (nvidia.com/gpu). */
  capacity: Record<string, string>;
  labels?: Record<string, string>;
  /** --register-with-taints */
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
  runtime: RuntimeName;
  /** kubeReserved / systemReserved as quantities (cpu, memory, ephemeral-storage, pid). */
  kubeReserved?: Record<string, string>;
  systemReserved?: Record<string, string>;
  /** evictionHard, e.g. { 'memory.available': '100Mi', 'nodefs.available': '10%' }. Setting any key drops the other defaults. */
  evictionHard?: Record<string, string>;
  maxPods?: number;
  zone?: string;
  region?: string;
  /** Node IP (InternalIP). */
  internalIP: string;
  /** Images already on the machine (name:tag), e.g. from the node pool's machine image. */
  preloadedImages?: string[];
  /** Image download speed in bytes per second (pull time = size / bandwidth). */
  pullBandwidth?: number;
  /** Node pool that created the node (label `nodeplane.dev/pool`). */
  pool?: string;
  /**
   * Devices the machine has that only a device plugin advertises (devicemanager.ts), e.g.
   * { 'nvidia.com/gpu': 4 }: absent from the Node until the plugin registers with the kubelet.
   */
  devices?: Record<string, number>;
  /** KubeletConfiguration shutdownGracePeriod / shutdownGracePeriodCriticalPods (default 0s: off). */
  shutdownGracePeriod?: string;
  shutdownGracePeriodCriticalPods?: string;
  /** The kubelet's version (nodeInfo.kubeletVersion); default the cluster's kubernetesVersion. */
  kubeletVersion?: string;
  /** kernel / OS shown in nodeInfo. */
  osImage?: string;
  kernelVersion?: string;
}
