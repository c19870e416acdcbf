/**
 * A small hand-built cluster for tests of the session and the read models: three workers, the
 * scheduler and the controller manager, a three-replica Deployment and one Pod too big for any
 * node. Built directly with components (no scenario file), so a test sees each part it relies on.
 */
import { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { KubeletArgs } from '../node/types';

export const PLACEHOLDER_FILE = 'placeholder.yaml';

const ctx = { component: 'kubectl' };

export function placeholderCluster(): Cluster {
  const c = new Cluster();
  for (let i = 1; i <= 3; i++) {
    const args: KubeletArgs = {
      nodeName: `worker-${i}`,
      capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '50Gi' },
      runtime: 'containerd',
      internalIP: `10.0.0.${10 + i}`,
      zone: 'zone-a'
    };
    c.addComponent('kubelet', args);
  }
  c.addComponent('kube-scheduler', {});
  c.addComponent('kube-controller-manager', {});
  const container = (name: string, cpu: string, memory: string) => ({
    name,
    image: 'nginx:1.27',
    resources: { requests: { cpu, memory } }
  });
  c.api.create(
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [container('nginx', '500m', '256Mi')] }
        }
      }
    } as KubeObject,
    ctx
  );
  c.api.create(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'big', namespace: 'default' },
      spec: { containers: [container('app', '6', '1Gi')] }
    } as KubeObject,
    ctx
  );
  return c;
}
