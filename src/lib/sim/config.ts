/**
 * Component flags and their defaults for the modelled Kubernetes version (v1.35 unless a scenario
 * says otherwise). Durations are in milliseconds. Each default cites the upstream value it mirrors.
 */
import type { ManagedProvider } from './controlplane/managed';

export interface KubeletConfig {
  /** nodeStatusUpdateFrequency: how often the kubelet computes node status (10s). */
  nodeStatusUpdateFrequency: number;
  /** nodeStatusReportFrequency: status is posted on change or after this long (5m). */
  nodeStatusReportFrequency: number;
  /** nodeLeaseDurationSeconds (40); the Lease is renewed every 0.25 × duration = 10s. */
  nodeLeaseDurationSeconds: number;
  /** Runtime and network readiness check period (updateRuntimeUp, 5s). */
  runtimeCheckPeriod: number;
  /** maxWaitForContainerRuntime: runtime reported down after this long without a good check (30s). */
  runtimeDownThreshold: number;
  /** Image pull back-off: 10s initial, ×2, capped at 300s. */
  imageBackOffInitial: number;
  imageBackOffMax: number;
  /** Container restart back-off (CrashLoopBackOff): 10s initial, ×2, capped at 300s; reset after 10 min running. */
  containerBackOffInitial: number;
  containerBackOffMax: number;
  containerBackOffReset: number;
  /** Eviction manager housekeeping period (10s). */
  evictionMonitoringPeriod: number;
  /** evictionPressureTransitionPeriod (5m). */
  evictionPressureTransitionPeriod: number;
  /** PLEG relist period (1s) and unhealthy threshold (3m). */
  plegRelistPeriod: number;
  plegRelistThreshold: number;
  maxPods: number;
}

export interface ControllerManagerConfig {
  /** --node-monitor-period (5s). */
  nodeMonitorPeriod: number;
  /** --node-monitor-grace-period: 50s since v1.32 (PR#126287), 40s before. */
  nodeMonitorGracePeriod: number;
  /** --node-startup-grace-period (60s). */
  nodeStartupGracePeriod: number;
  /** --node-eviction-rate (0.1 nodes/s) and --secondary-node-eviction-rate (0.01). */
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  /** --large-cluster-size-threshold (50) and --unhealthy-zone-threshold (0.55). */
  largeClusterSizeThreshold: number;
  unhealthyZoneThreshold: number;
  /** PodGC: loop period 20s, orphan quarantine 40s, --terminated-pod-gc-threshold 12500. */
  podGCPeriod: number;
  podGCQuarantine: number;
  terminatedPodGCThreshold: number;
}

export interface ApiServerConfig {
  /** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (300). */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
}

export interface ClusterConfig {
  seed: number;
  kubernetesVersion: string;
  /** The provider that runs the control plane (spec.controlPlane.managed); absent: kubeadm's own. */
  managed?: ManagedProvider;
  kubelet: KubeletConfig;
  controllerManager: ControllerManagerConfig;
  apiServer: ApiServerConfig;
  network: {
    proxyMode: 'iptables' | 'ipvs' | 'nftables' | 'none';
    cni: 'calico' | 'cilium' | 'flannel' | 'none';
    clusterCIDR: string;
    serviceCIDR: string;
    /**
     * How kube-proxy runs on each node: kubeadm's DaemonSet (default) or a systemd unit on the
     * host reading /var/lib/kube-proxy/config.conf (clusters built the hard way).
     */
    kubeProxy?: { deployment?: 'daemonset' | 'systemd' };
  };
}

/** Parse "v1.35" / "1.31.4" into a minor version number (35, 31). */
export function minorVersion(v: string): number {
  const m = /^v?1\.(\d+)/.exec(v);
  if (!m) throw new Error(`unsupported kubernetesVersion "${v}": expected v1.<minor>, for example v1.35`);
  return parseInt(m[1], 10);
}

export const DEFAULT_KUBERNETES_VERSION = 'v1.35.0';

export function defaultConfig(seed = 1, kubernetesVersion = DEFAULT_KUBERNETES_VERSION): ClusterConfig {
  const minor = minorVersion(kubernetesVersion);
  return {
    seed,
    kubernetesVersion,
    kubelet: {
      nodeStatusUpdateFrequency: 10_000,
      nodeStatusReportFrequency: 300_000,
      nodeLeaseDurationSeconds: 40,
      runtimeCheckPeriod: 5_000,
      runtimeDownThreshold: 30_000,
      imageBackOffInitial: 10_000,
      imageBackOffMax: 300_000,
      containerBackOffInitial: 10_000,
      containerBackOffMax: 300_000,
      containerBackOffReset: 600_000,
      evictionMonitoringPeriod: 10_000,
      evictionPressureTransitionPeriod: 300_000,
      plegRelistPeriod: 1_000,
      plegRelistThreshold: 180_000,
      maxPods: 110
    },
    controllerManager: {
      nodeMonitorPeriod: 5_000,
      nodeMonitorGracePeriod: minor >= 32 ? 50_000 : 40_000,
      nodeStartupGracePeriod: 60_000,
      nodeEvictionRate: 0.1,
      secondaryNodeEvictionRate: 0.01,
      largeClusterSizeThreshold: 50,
      unhealthyZoneThreshold: 0.55,
      podGCPeriod: 20_000,
      podGCQuarantine: 40_000,
      terminatedPodGCThreshold: 12_500
    },
    apiServer: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
    network: {
      proxyMode: 'iptables',
      cni: 'calico',
      clusterCIDR: '10.244.0.0/16',
      serviceCIDR: '10.96.0.0/12'
    }
  };
}
