/**
 * kubeadm's kube-proxy addon (cmd/kubeadm/app/phases/addons/proxy/manifests.go, proxy.go): the
 * `kube-system/kube-proxy` ConfigMap with the KubeProxyConfiguration (`config.conf`) and the
 * in-cluster kubeconfig (`kubeconfig.conf`, the service-account token against the control-plane
 * endpoint), and the `kube-proxy` DaemonSet (k8s-app=kube-proxy, system-node-critical, host
 * network, tolerating every taint) that mounts the ConfigMap at /var/lib/kube-proxy. kubeadm
 * creates both once at `kubeadm init`; the DaemonSet controller then runs one pod per Node, and
 * each node's kube-proxy process (network/kubeproxy.ts) lives and restarts with that pod.
 */
import type { KubeObject } from '../api/types';

export const KUBE_PROXY_NAMESPACE = 'kube-system';
export const KUBE_PROXY_NAME = 'kube-proxy';
export const KUBE_PROXY_LABELS = { 'k8s-app': 'kube-proxy' } as const;
/** kubeadm's ControlPlaneEndpoint in the lab: the API server's virtual address. */
export const CONTROL_PLANE_ENDPOINT = 'https://10.0.0.10:6443';

/** The ConfigMap's `kubeconfig.conf` (KubeProxyConfigMap19). */
export const KUBE_PROXY_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
    server: ${CONTROL_PLANE_ENDPOINT}
  name: default
contexts:
- context:
    cluster: default
    namespace: default
    user: default
  name: default
current-context: default
users:
- name: default
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token`;

/** The image kubeadm deploys: registry.k8s.io/kube-proxy at the cluster's version. */
export function kubeProxyImage(kubernetesVersion: string): string {
  return `registry.k8s.io/kube-proxy:${kubernetesVersion}`;
}

export function kubeProxyConfigMap(configConf: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: KUBE_PROXY_NAME, namespace: KUBE_PROXY_NAMESPACE, labels: { app: 'kube-proxy' } },
    data: { 'kubeconfig.conf': KUBE_PROXY_KUBECONFIG, 'config.conf': configConf }
  } as KubeObject;
}

/** KubeProxyDaemonSet19. */
export function kubeProxyDaemonSet(kubernetesVersion: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: KUBE_PROXY_NAME,
      namespace: KUBE_PROXY_NAMESPACE,
      labels: { ...KUBE_PROXY_LABELS }
    },
    spec: {
      selector: { matchLabels: { ...KUBE_PROXY_LABELS } },
      updateStrategy: { type: 'RollingUpdate' },
      template: {
        metadata: { labels: { ...KUBE_PROXY_LABELS } },
        spec: {
          priorityClassName: 'system-node-critical',
          containers: [
            {
              name: 'kube-proxy',
              image: kubeProxyImage(kubernetesVersion),
              imagePullPolicy: 'IfNotPresent',
              command: [
                '/usr/local/bin/kube-proxy',
                '--config=/var/lib/kube-proxy/config.conf',
                '--hostname-override=$(NODE_NAME)'
              ],
              securityContext: { privileged: true },
              volumeMounts: [
                { mountPath: '/var/lib/kube-proxy', name: 'kube-proxy' },
                { mountPath: '/run/xtables.lock', name: 'xtables-lock', readOnly: false },
                { mountPath: '/lib/modules', name: 'lib-modules', readOnly: true }
              ],
              env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }]
            }
          ],
          hostNetwork: true,
          serviceAccountName: 'kube-proxy',
          volumes: [
            { name: 'kube-proxy', configMap: { name: KUBE_PROXY_NAME } },
            { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
            { name: 'lib-modules', hostPath: { path: '/lib/modules' } }
          ],
          tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { operator: 'Exists' }],
          nodeSelector: { 'kubernetes.io/os': 'linux' }
        }
      }
    }
  } as KubeObject;
}

/** Is `pod` one of the kube-proxy DaemonSet's pods? */
export function isKubeProxyPod(pod: KubeObject): boolean {
  return (
    pod.metadata.namespace === KUBE_PROXY_NAMESPACE &&
    pod.metadata.labels?.['k8s-app'] === KUBE_PROXY_LABELS['k8s-app'] &&
    pod.metadata.ownerReferences?.some((r) => r.kind === 'DaemonSet' && r.name === KUBE_PROXY_NAME) === true
  );
}
