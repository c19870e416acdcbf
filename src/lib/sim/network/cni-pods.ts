/**
 * The CNI plugin's own workloads, as its install manifest creates them right after `kubeadm init`:
 * - Calico (manifests/calico.yaml): DaemonSet `calico-node` (k8s-app=calico-node, host network,
 *   tolerates every taint, system-node-critical, requests 250m CPU), Deployment
 *   `calico-kube-controllers` (1 replica, system-cluster-critical) and its PodDisruptionBudget
 *   (maxUnavailable 1) in kube-system;
 * - Cilium (Helm chart defaults): DaemonSet `cilium` (k8s-app=cilium, host network, tolerates
 *   every taint) and Deployment `cilium-operator` (2 replicas, host network, one per node) in
 *   kube-system;
 * - Flannel (kube-flannel.yml): namespace `kube-flannel` with DaemonSet `kube-flannel-ds`
 *   (app=flannel, host network, tolerates NoSchedule, requests 100m CPU / 50Mi).
 * Host-network pods need no CNI to start, which is how the plugin's agents come up on nodes that
 * are still NetworkNotReady. A cluster with `cni: none` gets none of them. Applied with the CoreDNS
 * addon (scenario/addons/coredns.ts) as bootstrap objects (scenario/bootstrap.ts).
 */
import type { KubeObject } from '../api/types';
import type { CniPlugin } from './cni';

const KS = 'kube-system';
const ALL_TAINTS = [
  { effect: 'NoSchedule', operator: 'Exists' },
  { key: 'CriticalAddonsOnly', operator: 'Exists' },
  { effect: 'NoExecute', operator: 'Exists' }
];
const LINUX = { 'kubernetes.io/os': 'linux' };

function daemonSet(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  podSpec: Record<string, unknown>
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { ...labels } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: { metadata: { labels: { ...labels } }, spec: podSpec }
    }
  };
}

function deployment(
  name: string,
  labels: Record<string, string>,
  replicas: number,
  podSpec: Record<string, unknown>
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: KS, labels: { ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...labels } },
      strategy: { type: 'Recreate' },
      template: { metadata: { labels: { ...labels } }, spec: podSpec }
    }
  };
}

export function cniObjects(plugin: CniPlugin): KubeObject[] {
  switch (plugin) {
    case 'calico':
      return [
        daemonSet(
          'calico-node',
          KS,
          { 'k8s-app': 'calico-node' },
          {
            nodeSelector: LINUX,
            hostNetwork: true,
            tolerations: ALL_TAINTS,
            serviceAccountName: 'calico-node',
            terminationGracePeriodSeconds: 0,
            priorityClassName: 'system-node-critical',
            containers: [
              {
                name: 'calico-node',
                image: 'docker.io/calico/node:v3.30.3',
                resources: { requests: { cpu: '250m' } }
              }
            ]
          }
        ),
        deployment('calico-kube-controllers', { 'k8s-app': 'calico-kube-controllers' }, 1, {
          nodeSelector: LINUX,
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }
          ],
          serviceAccountName: 'calico-kube-controllers',
          priorityClassName: 'system-cluster-critical',
          containers: [
            { name: 'calico-kube-controllers', image: 'docker.io/calico/kube-controllers:v3.30.3' }
          ]
        }),
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: {
            name: 'calico-kube-controllers',
            namespace: KS,
            labels: { 'k8s-app': 'calico-kube-controllers' }
          },
          spec: { maxUnavailable: 1, selector: { matchLabels: { 'k8s-app': 'calico-kube-controllers' } } }
        }
      ];
    case 'cilium':
      return [
        daemonSet(
          'cilium',
          KS,
          { 'k8s-app': 'cilium' },
          {
            nodeSelector: LINUX,
            hostNetwork: true,
            tolerations: [{ operator: 'Exists' }],
            serviceAccountName: 'cilium',
            priorityClassName: 'system-node-critical',
            containers: [{ name: 'cilium-agent', image: 'quay.io/cilium/cilium:v1.18.2' }]
          }
        ),
        deployment('cilium-operator', { 'io.cilium/app': 'operator', name: 'cilium-operator' }, 2, {
          nodeSelector: LINUX,
          hostNetwork: true,
          tolerations: [{ operator: 'Exists' }],
          serviceAccountName: 'cilium-operator',
          priorityClassName: 'system-cluster-critical',
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                {
                  labelSelector: { matchLabels: { 'io.cilium/app': 'operator' } },
                  topologyKey: 'kubernetes.io/hostname'
                }
              ]
            }
          },
          containers: [{ name: 'cilium-operator', image: 'quay.io/cilium/operator-generic:v1.18.2' }]
        })
      ];
    case 'flannel':
      return [
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: {
            name: 'kube-flannel',
            labels: { 'k8s-app': 'flannel', 'pod-security.kubernetes.io/enforce': 'privileged' }
          }
        },
        daemonSet(
          'kube-flannel-ds',
          'kube-flannel',
          { app: 'flannel', 'k8s-app': 'flannel' },
          {
            nodeSelector: LINUX,
            hostNetwork: true,
            priorityClassName: 'system-node-critical',
            tolerations: [{ effect: 'NoSchedule', operator: 'Exists' }],
            serviceAccountName: 'flannel',
            containers: [
              {
                name: 'kube-flannel',
                image: 'ghcr.io/flannel-io/flannel:v0.27.3',
                command: ['/opt/bin/flanneld'],
                args: ['--ip-masq', '--kube-subnet-mgr'],
                resources: { requests: { cpu: '100m', memory: '50Mi' } }
              }
            ]
          }
        )
      ];
    default:
      return [];
  }
}
