/**
 * A static three-worker cluster written straight through the API, used only when this build has
 * no scenario bootstrap module. Nothing runs in it (no kubelets, no controllers): it exists so the
 * lab's views can render, and the lab labels it as a placeholder.
 */
import { Cluster } from '$lib/sim/cluster';
import type { KubeObject } from '$lib/sim/api/types';

const ctx = { component: 'kubectl' };

export const PLACEHOLDER_FILE = 'placeholder.yaml';

export function placeholderCluster(): Cluster {
  const c = new Cluster();
  const ts = c.api.timestamp();
  for (let i = 1; i <= 3; i++) {
    const name = `worker-${i}`;
    c.api.create(
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' }
        },
        spec: {},
        status: {
          capacity: { cpu: '4', memory: '8Gi', pods: '110' },
          allocatable: { cpu: '3900m', memory: '7680Mi', pods: '110' },
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: ts,
              lastTransitionTime: ts
            }
          ],
          nodeInfo: { containerRuntimeVersion: 'containerd://2.1.4', kubeletVersion: 'v1.35.0' }
        }
      } as KubeObject,
      ctx
    );
    c.api.create(
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-node-lease' },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: c.api.timestamp() }
      } as KubeObject,
      ctx
    );
  }
  return c;
}
