import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCluster } from '../../scenario';
import './index';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { CA_ID, type ClusterAutoscaler } from './autoscaler';
import { Cluster as ClusterClass } from '../../cluster';
import { timeWhen } from '../testing/harness';

const scaleUpScenario = readFileSync(
  new URL('../../../../../scenarios/autoscaler-scale-up.yaml', import.meta.url),
  'utf8'
);

/**
 * CoreDNS without a budget keeps its node (--skip-nodes-with-system-pods); an operator running the
 * autoscaler gives it one. (calico-kube-controllers has one from the Calico manifest.)
 */
const COREDNS_PDB = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: coredns, namespace: kube-system }
spec:
  maxUnavailable: 1
  selector: { matchLabels: { k8s-app: kube-dns } }
`;

/** Two small workers the autoscaler may remove down to zero, plus extra objects. */
function scaleDownScenario(objects: string, systemPdb = true): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ca-scale-down }
spec:
  seed: 3
  nodePools:
    - name: worker
      count: 2
      min: 0
      capacity: { cpu: '2', memory: 8Gi }
---
${systemPdb ? `${COREDNS_PDB}---\n` : ''}${objects}`;
}

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: nginx, image: 'nginx:1.27', resources: { requests: { cpu: 100m, memory: 64Mi } } }
`;

const caEvents = (cluster: Cluster, reason: string) => cluster.eventLog.filter((e) => e.reason === reason);
const nodeNames = (cluster: Cluster) =>
  cluster.api
    .list<KubeObject>('Node')
    // kubeadm's control-plane-1 is a Node too, in no node group: the autoscaler never touches it.
    .filter((n) => n.metadata.labels?.['node-role.kubernetes.io/control-plane'] === undefined)
    .map((n) => n.metadata.name)
    .sort();
const ca = (cluster: Cluster) => cluster.component<ClusterAutoscaler>(CA_ID)!;

describe('cluster autoscaler: scale-up', () => {
  it('decides within one scan interval of the pods becoming unschedulable; machines join after bootTime', () => {
    const { cluster } = createCluster(scaleUpScenario);
    cluster.runUntil(70_000);
    const failed = caEvents(cluster, 'FailedScheduling').filter((e) =>
      e.message.includes('Insufficient cpu')
    );
    const unschedulableAt = Math.min(...failed.map((e) => e.t));
    const triggered = caEvents(cluster, 'TriggeredScaleUp');
    // 3 × 1200m on 2-CPU machines: one pod per node, so two more nodes for the two pending pods.
    expect(triggered.map((e) => e.message)).toEqual([
      'pod triggered scale-up: [{worker 1->3 (max: 3)}]',
      'pod triggered scale-up: [{worker 1->3 (max: 3)}]'
    ]);
    expect(triggered[0].t).toBe(10_000);
    expect(triggered[0].t - unschedulableAt).toBeLessThanOrEqual(10_000);
    expect(triggered[0].source).toBe('cluster-autoscaler');
    expect(caEvents(cluster, 'ScaledUpGroup').map((e) => [e.object, e.message])).toEqual([
      [
        'ConfigMap/kube-system/cluster-autoscaler-status',
        'Scale-up: setting group worker size to 3 instead of 1 (max: 3)'
      ]
    ]);
    // The machines boot for 45 s, then their kubelets register the Nodes.
    const api = cluster.api;
    expect(nodeNames(cluster)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    const created = api.get<KubeObject>('Node', undefined, 'worker-2').metadata.creationTimestamp!;
    expect(api.timeOf(created)).toBe(55_000);
    expect(api.get<KubeObject>('Node', undefined, 'worker-3').metadata.labels?.['nodeplane.dev/pool']).toBe(
      'worker'
    );
    cluster.runUntil(120_000);
    const pods = api.list<KubeObject>('Pod', { namespace: 'default' });
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(['worker-1', 'worker-2', 'worker-3']);
    const doc = parse(
      (
        api.get<KubeObject>('ConfigMap', 'kube-system', 'cluster-autoscaler-status').data as Record<
          string,
          string
        >
      ).status
    );
    expect(doc.autoscalerStatus).toBe('Running');
    expect(doc.nodeGroups[0]).toMatchObject({
      name: 'worker',
      health: {
        status: 'Healthy',
        nodeCounts: { registered: { total: 3, ready: 3, notStarted: 0 }, unregistered: 0 },
        cloudProviderTarget: 3,
        minSize: 1,
        maxSize: 3
      },
      scaleUp: { status: 'NoActivity' }
    });
  });

  it('reports NotTriggerScaleUp when the pool is at its max or the pod fits no template', () => {
    const selector = createCluster(
      scaleUpScenario.replace('      containers:', '      nodeSelector: { disktype: ssd }\n      containers:')
    ).cluster;
    selector.runUntil(10_000);
    // One event per pending pod (three replicas, none fits: no node has disktype=ssd).
    expect(caEvents(selector, 'NotTriggerScaleUp').map((e) => [e.t, e.message])).toEqual(
      Array(3).fill([
        10_000,
        "pod didn't trigger scale-up: 1 node(s) didn't match Pod's node affinity/selector"
      ])
    );
    expect(caEvents(selector, 'TriggeredScaleUp')).toEqual([]);
    // Four pods, one per node, max 3: the pool grows to 3 and the last pod hears why not.
    const { cluster } = createCluster(scaleUpScenario.replace('replicas: 3', 'replicas: 4'));
    cluster.runUntil(20_000);
    expect(caEvents(cluster, 'TriggeredScaleUp').map((e) => e.message)).toEqual([
      'pod triggered scale-up: [{worker 1->3 (max: 3)}]',
      'pod triggered scale-up: [{worker 1->3 (max: 3)}]'
    ]);
    expect(caEvents(cluster, 'NotTriggerScaleUp').map((e) => [e.t, e.message])).toEqual([
      [20_000, "pod didn't trigger scale-up: 1 max node group size reached"]
    ]);
  });
});

describe('cluster autoscaler: events of a loop that scaled up', () => {
  // upstream: cluster-autoscaler/processors/status/eventing_scale_up_processor.go
  it('gives no pod NotTriggerScaleUp in the loop that scaled up; a later loop without one does', () => {
    const ssd = `---
apiVersion: v1
kind: Pod
metadata: { name: wants-ssd }
spec:
  nodeSelector: { disktype: ssd }
  containers:
    - { name: app, image: 'nginx:1.27', resources: { requests: { cpu: 100m } } }
`;
    const { cluster } = createCluster(scaleUpScenario + ssd);
    cluster.runUntil(20_000);
    const triggered = caEvents(cluster, 'TriggeredScaleUp').map((e) => e.t);
    expect(triggered.length).toBeGreaterThan(0);
    const loop = triggered[0];
    const notTriggered = caEvents(cluster, 'NotTriggerScaleUp').map((e) => [e.t, e.object]);
    expect(notTriggered.filter(([t]) => t === loop)).toEqual([]);
    expect(notTriggered).toEqual([[loop + 10_000, 'Pod/default/wants-ssd']]);
  });
});

describe('cluster autoscaler: scale-down', () => {
  it('removes scaled-up nodes after 10 minutes unneeded, not before, through the Eviction API', () => {
    const { cluster } = createCluster(scaleUpScenario);
    cluster.runUntil(120_000);
    cluster.api.patch('Deployment', 'default', 'web', { spec: { replicas: 1 } }, { component: 'kubectl' });
    cluster.runUntil(140_000);
    const since = { ...ca(cluster).state.unneededSince };
    const idle = Object.keys(since).sort();
    expect(idle.length).toBe(2);
    const first = Math.min(...Object.values(since));
    // Nothing is tainted or removed before 10 minutes of being unneeded.
    cluster.runUntil(first + 10 * 60_000 - 1);
    expect(nodeNames(cluster)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    expect(caEvents(cluster, 'ScaleDown')).toEqual([]);
    cluster.runUntil(first + 10 * 60_000 + 60_000);
    const marked = caEvents(cluster, 'ScaleDown').filter((e) => e.object.startsWith('Node/'));
    expect(marked.map((e) => e.message)).toEqual([
      'marked the node as toBeDeleted/unschedulable',
      'marked the node as toBeDeleted/unschedulable'
    ]);
    expect(marked[0].t).toBe(first + 10 * 60_000);
    // Both were empty: removed in bulk; the pool keeps its min of 1.
    expect(nodeNames(cluster).length).toBe(1);
    expect(caEvents(cluster, 'ScaleDownEmpty').map((e) => e.message)).toEqual(
      idle.map((n) => `Scale-down: removing empty node "${n}"`)
    );
    expect(cluster.component(`kubelet/${idle[0]}`)).toBeUndefined();
  });

  it('a naked pod blocks scale-down of its node', () => {
    const naked = `apiVersion: v1
kind: Pod
metadata: { name: naked }
spec:
  nodeName: worker-2
  containers: [{ name: c, image: 'nginx:1.27', resources: { requests: { cpu: 100m } } }]
`;
    const { cluster } = createCluster(scaleDownScenario(naked));
    cluster.runUntil(15 * 60_000);
    expect(nodeNames(cluster)).toEqual(['worker-2']);
    expect(ca(cluster).state.unremovable['worker-2']).toBe('default/naked is not replicated');
  });

  it('a kube-system pod without a budget (CoreDNS as kubeadm deploys it) keeps its node', () => {
    // upstream: cluster-autoscaler/simulator/drainability/rules/system/rule.go
    const { cluster } = createCluster(scaleDownScenario(WEB, false));
    cluster.runUntil(15 * 60_000);
    const dns = cluster.api.list<KubeObject>('Pod', {
      namespace: 'kube-system',
      labelSelector: 'k8s-app=kube-dns'
    });
    const homes = [...new Set(dns.map((p) => p.spec!.nodeName as string))].sort();
    expect(nodeNames(cluster)).toEqual(homes);
    for (const h of homes)
      expect(ca(cluster).state.unremovable[h]).toMatch(
        /^non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: coredns-/
      );
  });

  it('a PodDisruptionBudget that allows no disruption blocks the drain of its pod node', () => {
    const pdb = `${WEB}---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: web }
spec:
  minAvailable: 1
  selector: { matchLabels: { app: web } }
`;
    const { cluster } = createCluster(scaleDownScenario(pdb));
    cluster.runUntil(15 * 60_000);
    const pod = cluster.api.list<KubeObject>('Pod', { labelSelector: 'app=web' })[0];
    const home = pod.spec!.nodeName as string;
    expect(nodeNames(cluster)).toEqual([home]);
    expect(ca(cluster).state.unremovable[home]).toBe(
      `not enough pod disruption budget to move default/${pod.metadata.name}`
    );
    expect(
      cluster.api.get<KubeObject>('PodDisruptionBudget', 'default', 'web').status.disruptionsAllowed
    ).toBe(0);
  });

  it('without a budget the pod is evicted, rescheduled elsewhere, and the node removed', () => {
    // "big" keeps its node above 50 % CPU; web's node is unneeded and its pod fits beside big.
    const big = WEB.replace('name: web', 'name: big')
      .replaceAll('app: web', 'app: big')
      .replace('cpu: 100m', 'cpu: 1100m');
    const { cluster } = createCluster(scaleDownScenario(`${big}---\n${WEB}`));
    cluster.runUntil(25 * 60_000);
    const pod = cluster.api.list<KubeObject>('Pod', { labelSelector: 'app=web' });
    expect(nodeNames(cluster).length).toBe(1);
    expect(pod.map((p) => p.spec?.nodeName)).toEqual(nodeNames(cluster));
    expect(caEvents(cluster, 'ScaleDown').some((e) => e.message === 'deleting pod for node scale down')).toBe(
      true
    );
  });

  it('a budget that stops allowing disruptions mid-drain aborts it after 2 minutes of refused evictions', () => {
    const big = WEB.replace('name: web', 'name: big')
      .replaceAll('app: web', 'app: big')
      .replace('cpu: 100m', 'cpu: 1100m');
    const pdb = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: web }
spec:
  maxUnavailable: 1
  selector: { matchLabels: { app: web } }
`;
    const { cluster } = createCluster(scaleDownScenario(`${big}---\n${WEB}---\n${pdb}`));
    const tainted = () =>
      cluster.api
        .list<KubeObject>('Node')
        .find((n) =>
          (n.spec?.taints ?? []).some((t: { key: string }) => t.key === 'ToBeDeletedByClusterAutoscaler')
        );
    const at = timeWhen(cluster, 20 * 60_000, () => !!tainted())!;
    const node = tainted()!.metadata.name;
    // Before the first eviction: the budget changes and now needs the one pod kept.
    cluster.api.patch(
      'PodDisruptionBudget',
      'default',
      'web',
      { spec: { maxUnavailable: 0 } },
      { component: 'kubectl' }
    );
    cluster.runUntil(at + 2 * 60_000 + 10_000);
    const failed = caEvents(cluster, 'ScaleDownFailed');
    expect(failed.map((e) => [e.t, e.object, e.message])).toEqual([
      [at + 2 * 60_000, `Node/${node}`, 'failed to drain the node, aborting ScaleDown']
    ]);
    expect(tainted()).toBeUndefined();
    expect(nodeNames(cluster)).toContain(node);
    expect(cluster.api.list<KubeObject>('Pod', { labelSelector: 'app=web' })[0].spec?.nodeName).toBe(node);
    // 13 for web (one every 10 s for 2 minutes), one each for the node's other pods: CoreDNS and
    // calico-kube-controllers (their budgets allow it) and, once, its kube-proxy and calico-node.
    expect(cluster.api.requestCounts()['create pods/eviction']).toBe(17);
  });

  it('a snapshot taken while a machine boots restores and continues identically', () => {
    const { cluster } = createCluster(scaleUpScenario);
    cluster.runUntil(30_000);
    const restored = ClusterClass.restore(cluster.snapshot());
    cluster.runUntil(15 * 60_000);
    restored.runUntil(15 * 60_000);
    expect(nodeNames(restored)).toEqual(nodeNames(cluster));
    expect(restored.eventLog).toEqual(cluster.eventLog);
    expect(ca(restored).state).toEqual(ca(cluster).state);
  });
});
