/**
 * The lab's stand-in cluster for builds without the scenario bootstrap: three workers, the
 * scheduler and the controller manager (whichever component kinds this build registers), a
 * three-replica Deployment and one Pod too big for any node. It is labelled as a placeholder in
 * the UI; once `createCluster` exists the lab uses the chosen scenario instead.
 */
import { Cluster } from '$lib/sim/cluster';
import type { KubeObject } from '$lib/sim/api/types';
import type { KubeletArgs } from '$lib/sim/node/types';

export const PLACEHOLDER_FILE = 'placeholder.yaml';

const componentModules = import.meta.glob([
  '/src/lib/sim/node/index.ts',
  '/src/lib/sim/scheduler/component.ts',
  '/src/lib/sim/controllers/index.ts'
]);

/** Import the modules that register component kinds (each registers itself on import). */
export async function loadComponentKinds(): Promise<void> {
  await Promise.all(Object.values(componentModules).map((load) => load().catch(() => undefined)));
}

const ctx = { component: 'kubectl' };

function tryAdd(c: Cluster, kind: string, args: unknown): void {
  try {
    c.addComponent(kind, args);
  } catch {
    // The kind is not part of this build; the map shows the component as absent.
  }
}

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
    tryAdd(c, 'kubelet', args);
  }
  tryAdd(c, 'kube-scheduler', {});
  tryAdd(c, 'kube-controller-manager', {});
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
