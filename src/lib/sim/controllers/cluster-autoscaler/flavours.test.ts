import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCluster } from '../../scenario';
import { ScenarioError } from '../../scenario/errors';
import './index';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { CA_ID, type ClusterAutoscaler } from './autoscaler';

function pools(yaml: string, objects = ''): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ca-flavours }
spec:
  seed: 4
  nodePools:
${yaml}${objects ? `---\n${objects}` : ''}`;
}

const labels = (cluster: Cluster, node: string) =>
  cluster.api.get<KubeObject>('Node', undefined, node).metadata.labels ?? {};

describe('node pool flavours', () => {
  it('EKS, GKE and AKS nodes carry the labels each service sets, at start and after a scale-up', () => {
    const { cluster } = createCluster(
      pools(`    - name: ng-apps
      count: 1
      max: 2
      provider: { flavour: eks, instanceType: m5.large }
    - name: pool-apps
      count: 1
      provider: { flavour: gke, instanceType: e2-standard-4 }
    - name: system
      count: 2
      provider: { flavour: aks, mode: system, instanceType: Standard_D4s_v5 }
    - name: user
      count: 1
      provider: { flavour: aks }
`)
    );
    cluster.runUntil(5_000);
    expect(labels(cluster, 'ng-apps-1')).toMatchObject({
      'eks.amazonaws.com/nodegroup': 'ng-apps',
      'eks.amazonaws.com/capacityType': 'ON_DEMAND',
      'node.kubernetes.io/instance-type': 'm5.large',
      'nodeplane.dev/pool': 'ng-apps'
    });
    expect(labels(cluster, 'pool-apps-1')).toMatchObject({
      'cloud.google.com/gke-nodepool': 'pool-apps',
      'node.kubernetes.io/instance-type': 'e2-standard-4'
    });
    expect(labels(cluster, 'system-2')).toMatchObject({
      agentpool: 'system',
      'kubernetes.azure.com/agentpool': 'system',
      'kubernetes.azure.com/mode': 'system',
      'node.kubernetes.io/instance-type': 'Standard_D4s_v5'
    });
    expect(labels(cluster, 'user-1')['kubernetes.azure.com/mode']).toBe('user');
    // Only ng-apps is a node group; the status's cluster-wide counts still cover all six nodes (the
    // five workers and kubeadm's control-plane-1, which is in no group).
    cluster.runUntil(10_000);
    const doc = parse(
      (
        cluster.api.get<KubeObject>('ConfigMap', 'kube-system', 'cluster-autoscaler-status').data as Record<
          string,
          string
        >
      ).status
    );
    expect(doc.clusterWide.health.nodeCounts.registered).toEqual({ total: 6, ready: 6, notStarted: 0 });
    expect(doc.nodeGroups.map((g: { name: string }) => g.name)).toEqual(['ng-apps']);
    expect(doc.nodeGroups[0].health.nodeCounts.registered.total).toBe(1);
    expect(
      Object.keys(labels(cluster, 'user-1')).filter((k) => k.includes('eks') || k.includes('gke'))
    ).toEqual([]);
  });

  it('a new EKS machine gets its node group label on the template and on the Node', () => {
    const big = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      nodeSelector: { eks.amazonaws.com/nodegroup: ng-apps }
      containers: [{ name: c, image: 'nginx:1.27', resources: { requests: { cpu: '3' } } }]
`;
    const { cluster } = createCluster(
      pools(
        `    - name: ng-apps
      count: 1
      max: 2
      provider: { flavour: eks, bootTime: 30s }
`,
        big
      )
    );
    cluster.runUntil(60_000);
    // The nodeSelector matches the template node, so the pool scales up.
    expect(cluster.eventLog.filter((e) => e.reason === 'TriggeredScaleUp').map((e) => e.message)).toEqual([
      'pod triggered scale-up: [{ng-apps 1->2 (max: 2)}]'
    ]);
    expect(labels(cluster, 'ng-apps-2')['eks.amazonaws.com/nodegroup']).toBe('ng-apps');
  });

  it('an AKS system pool below 2 nodes does not load, with the field and a clear message', () => {
    const bad = pools(`    - name: system
      count: 1
      min: 1
      max: 3
      provider: { flavour: aks, mode: system }
    - name: apps
      count: 1
      provider: { flavour: gke, mode: user }
`);
    let err: unknown;
    try {
      createCluster(bad, { fileName: 'aks.yaml' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const msg = (err as Error).message;
    expect(msg).toContain(
      'spec.nodePools[0].count: Invalid value: 1: an AKS system node pool must have at least 2 nodes'
    );
    expect(msg).toContain(
      'spec.nodePools[0].min: Invalid value: 1: an AKS system node pool must have at least 2 nodes'
    );
    expect(msg).toContain(
      'spec.nodePools[1].provider.mode: Invalid value: "user": only AKS pools have a system or user mode'
    );
  });
});

describe('the pools ConfigMap (the cloud side of min and max)', () => {
  const burst = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 4
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: c, image: 'nginx:1.27', resources: { requests: { cpu: 1200m } } }]
`;
  const scenario = pools(
    `    - name: system
      count: 2
      min: 2
      max: 2
      capacity: { cpu: '2', memory: 8Gi }
      taints: [{ key: CriticalAddonsOnly, value: 'true', effect: NoSchedule }]
      provider: { flavour: aks, mode: system }
    - name: apps
      count: 1
      min: 0
      max: 1
      capacity: { cpu: '2', memory: 8Gi }
      provider: { flavour: aks, bootTime: 60s }
`,
    burst
  );

  it('is created at the first loop; raising maxSize lets the next loop scale up', () => {
    const { cluster } = createCluster(scenario);
    cluster.runUntil(10_000);
    const cm = cluster.api.get<KubeObject>('ConfigMap', 'kube-system', 'nodeplane-node-pools');
    expect(cm.data).toEqual({
      'system.minSize': '2',
      'system.maxSize': '2',
      'apps.minSize': '0',
      'apps.maxSize': '1'
    });
    expect(cluster.eventLog.filter((e) => e.reason === 'NotTriggerScaleUp').map((e) => e.message)).toEqual(
      // Both pools are at their max (system 2 of 2, apps 1 of 1).
      Array(3).fill("pod didn't trigger scale-up: 2 max node group size reached")
    );
    // Both pools are node groups here (system sets min and max); the cluster-wide count has
    // control-plane-1 as well.
    const doc = parse(
      (
        cluster.api.get<KubeObject>('ConfigMap', 'kube-system', 'cluster-autoscaler-status').data as Record<
          string,
          string
        >
      ).status
    );
    expect(doc.clusterWide.health.nodeCounts.registered).toEqual({ total: 4, ready: 4, notStarted: 0 });
    expect(doc.nodeGroups.map((g: { name: string }) => g.name)).toEqual(['system', 'apps']);
    expect(doc.nodeGroups[1].health.nodeCounts.registered).toEqual({ total: 1, ready: 1, notStarted: 0 });
    cluster.api.patch(
      'ConfigMap',
      'kube-system',
      'nodeplane-node-pools',
      { data: { 'apps.maxSize': '4' } },
      { component: 'kubectl' }
    );
    cluster.runUntil(20_000);
    expect(cluster.eventLog.filter((e) => e.reason === 'ScaledUpGroup').map((e) => [e.t, e.message])).toEqual(
      [[20_000, 'Scale-up: setting group apps size to 4 instead of 1 (max: 4)']]
    );
  });

  it('keeps the old size for a value it cannot use and says why on the ConfigMap', () => {
    const { cluster } = createCluster(scenario);
    cluster.runUntil(10_000);
    cluster.api.patch(
      'ConfigMap',
      'kube-system',
      'nodeplane-node-pools',
      { data: { 'system.minSize': '1', 'apps.maxSize': 'lots' } },
      { component: 'kubectl' }
    );
    cluster.runUntil(30_000);
    const warnings = cluster.eventLog.filter((e) => e.reason === 'InvalidPoolSize');
    expect(warnings.map((e) => [e.t, e.type, e.object, e.message])).toEqual([
      [
        20_000,
        'Warning',
        'ConfigMap/kube-system/nodeplane-node-pools',
        'system: an AKS system node pool must have at least 2 nodes; apps.maxSize: "lots" is not a whole number'
      ]
    ]);
    expect(cluster.component<ClusterAutoscaler>(CA_ID)!.state.sizes).toEqual({
      system: { min: 2, max: 2 },
      apps: { min: 0, max: 1 }
    });
  });
});
