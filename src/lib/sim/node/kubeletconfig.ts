/**
 * The kubelet's configuration file as a kubeadm node keeps it: /var/lib/kubelet/config.yaml (a
 * KubeletConfiguration, kubelet.config.k8s.io/v1beta1) and the kubeconfig it talks to the API
 * server with, /etc/kubernetes/kubelet.conf. The values are the ones the simulated kubelet runs
 * with (its args and the cluster's kubelet config), so the file says what is in force.
 */
import { stringify } from 'yaml';
import { DEFAULT_EVICTION_HARD } from './allocatable';
import type { KubeletConfig } from '../config';
import type { KubeletArgs } from './types';
import type { RuntimeName } from './cri';

/** Go's time.Duration String() for whole milliseconds: 10s, 5m0s, 1h0m0s, 500ms. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

export function runtimeEndpoint(runtime: RuntimeName): string {
  return runtime === 'cri-o'
    ? 'unix:///var/run/crio/crio.sock'
    : 'unix:///var/run/containerd/containerd.sock';
}

/** The KubeletConfiguration in force for a kubelet, as YAML (keys sorted, as kubeadm writes it). */
export function kubeletConfigYaml(args: KubeletArgs, cfg: KubeletConfig, maxPods: number): string {
  const evictionHard =
    args.evictionHard && Object.keys(args.evictionHard).length ? args.evictionHard : DEFAULT_EVICTION_HARD;
  const config: Record<string, unknown> = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    authentication: {
      anonymous: { enabled: false },
      webhook: { cacheTTL: '2m0s', enabled: true },
      x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' }
    },
    authorization: {
      mode: 'Webhook',
      webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' }
    },
    cgroupDriver: 'systemd',
    clusterDNS: ['10.96.0.10'],
    clusterDomain: 'cluster.local',
    containerRuntimeEndpoint: runtimeEndpoint(args.runtime),
    evictionHard: { ...evictionHard },
    evictionPressureTransitionPeriod: goDuration(cfg.evictionPressureTransitionPeriod),
    healthzBindAddress: '127.0.0.1',
    healthzPort: 10248,
    imageGCHighThresholdPercent: 85,
    imageGCLowThresholdPercent: 80,
    maxPods,
    nodeLeaseDurationSeconds: cfg.nodeLeaseDurationSeconds,
    nodeStatusReportFrequency: goDuration(cfg.nodeStatusReportFrequency),
    nodeStatusUpdateFrequency: goDuration(cfg.nodeStatusUpdateFrequency),
    rotateCertificates: true,
    staticPodPath: '/etc/kubernetes/manifests',
    syncFrequency: '1m0s'
  };
  if (args.kubeReserved && Object.keys(args.kubeReserved).length)
    config.kubeReserved = { ...args.kubeReserved };
  if (args.systemReserved && Object.keys(args.systemReserved).length)
    config.systemReserved = { ...args.systemReserved };
  if (args.taints?.length) config.registerWithTaints = args.taints.map((t) => ({ ...t }));
  return stringify(config, { indentSeq: false, sortMapEntries: true, lineWidth: 0, version: '1.1' });
}

/** /etc/kubernetes/kubelet.conf: the kubeconfig kubeadm writes after TLS bootstrap. */
export function kubeletKubeconfig(nodeName: string): string {
  return `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk5vZGVwbGFuZSBDQQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==
    server: https://10.0.0.10:6443
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: system:node:${nodeName}
  name: system:node:${nodeName}@kubernetes
current-context: system:node:${nodeName}@kubernetes
kind: Config
preferences: {}
users:
- name: system:node:${nodeName}
  user:
    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem
    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem
`;
}
