import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario';
import type { KubeObject } from '$lib/sim/api/types';
import { nodeSequence, podSequence } from './sequence';
import { enableTraffic } from './traffic';

const three = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

function probe(cluster: ReturnType<typeof createCluster>['cluster']) {
  cluster.api.create<KubeObject>(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probe', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] }
    },
    { component: 'kubectl' }
  );
}

describe('follow this pod', () => {
  it('tells a pod’s life as kubectl → apiserver → etcd → scheduler → bind → kubelet → runtime → status', () => {
    const { cluster } = createCluster(three);
    cluster.runUntil(60_000);
    enableTraffic(cluster);
    probe(cluster);
    cluster.runUntil(90_000);
    const seq = podSequence(cluster, 'default', 'probe')!;
    expect(seq.partial).toBe(false);
    const arrows = seq.steps.map((s) => `${s.from}>${s.to} ${s.label}`);
    const at = (re: RegExp) => {
      const i = arrows.findIndex((a) => re.test(a));
      expect(i, `${re} in\n${arrows.join('\n')}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = [
      at(/^kubectl>kube-apiserver create pods$/),
      at(/^kube-apiserver>etcd \/registry\/pods\/default\/probe$/),
      at(/^kube-apiserver>kube-scheduler watch pods$/),
      at(/^kube-scheduler>kube-apiserver create pods\/binding$/),
      at(/^kube-apiserver>kubelet watch pods$/),
      at(/^kubelet>runtime Pulled$/),
      at(/^kubelet>runtime Started$/),
      at(/^kubelet>kube-apiserver (patch|update) pods\/status$/)
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The scheduler reports the bind once it has written it.
    expect(at(/^kube-scheduler>kube-scheduler Scheduled$/)).toBeGreaterThan(order[3]);
    const node = cluster.api.get<KubeObject>('Pod', 'default', 'probe').spec!.nodeName;
    const started = seq.steps.find((s) => s.label === 'Started')!;
    expect(started).toMatchObject({ kind: 'event', detail: node, message: 'Started container c' });
    expect(seq.steps.find((s) => s.label === 'create pods/binding')?.detail).toBeUndefined();
    expect(seq.steps.find((s) => s.from === 'kubelet' && s.to === 'kube-apiserver')?.detail).toBe(node);
  });

  it('says when the log began after the pod was created, and is null while the log is off', () => {
    const { cluster } = createCluster(three);
    cluster.runUntil(60_000);
    probe(cluster);
    expect(podSequence(cluster, 'default', 'probe')).toBeNull();
    enableTraffic(cluster);
    cluster.runUntil(70_000);
    const seq = podSequence(cluster, 'default', 'probe')!;
    expect(seq.partial).toBe(true);
    // Only what happened since: the bind (the scheduler works after the create), not the create.
    expect(seq.steps.some((s) => s.label === 'create pods')).toBe(false);
    expect(seq.steps.some((s) => s.label === 'create pods/binding')).toBe(true);
  });
});

// upstream: pkg/kubelet/kubelet_node_status.go (registerWithAPIServer), pkg/kubelet/nodelease
// (renewInterval 10s), pkg/controller/nodelifecycle/node_lifecycle_controller.go (grace period 50s,
// NodeNotReady, the unreachable NoExecute taint) and pkg/controller/tainteviction (tolerationSeconds 300)
describe('follow this node', () => {
  it('tells a node’s life: registration, folded Lease renewals, the lifecycle controller’s writes, the evictions', () => {
    const { cluster } = createCluster(three);
    enableTraffic(cluster);
    cluster.runUntil(60_000);
    const onNode = cluster.api
      .list<KubeObject>('Pod')
      // DaemonSet pods (kube-proxy, the CNI agent) tolerate unreachable:NoExecute for ever; the
      // rest, kube-system's Deployments included, are evicted.
      .filter(
        (p) =>
          p.spec?.nodeName === 'worker-2' &&
          !(p.metadata.ownerReferences as { kind: string }[] | undefined)?.some((o) => o.kind === 'DaemonSet')
      )
      .map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
    expect(onNode.length).toBeGreaterThan(0);
    cluster.applyFault('StopKubelet', { target: 'worker-2' });
    cluster.runUntil(480_000);
    const seq = nodeSequence(cluster, 'worker-2')!;
    expect(seq).toMatchObject({ kind: 'Node', name: 'worker-2', partial: false, folded: 0 });
    const arrows = seq.steps.map(
      (s) => `${s.t} ${s.from}>${s.to} ${s.label}${s.count ? ` x${s.count}` : ''}`
    );
    const at = (re: RegExp) => {
      const i = arrows.findIndex((a) => re.test(a));
      expect(i, `${re} in\n${arrows.join('\n')}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = [
      at(/^100 kubelet>kube-apiserver create nodes$/),
      at(/^100 kube-apiserver>etcd \/registry\/minions\/worker-2$/),
      at(/^100 kubelet>kube-apiserver create leases$/),
      // Renewals every 10 s until the kubelet stops at 60 s: 20.1 s … 50.1 s folded into one step.
      at(/^20100 kubelet>kube-apiserver update leases x4$/),
      // 50 s after the last renewal the node lifecycle controller writes Ready=Unknown, then taints.
      at(/^110000 kube-controller-manager>kube-apiserver update nodes\/status$/),
      at(/^110000 kube-controller-manager>kube-controller-manager NodeNotReady$/),
      at(/^110000 kube-controller-manager>kube-apiserver update nodes$/)
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(seq.steps[order[3]].until).toBe(50_100);
    // tolerationSeconds 300 after the taint: the taint-eviction controller deletes each pod.
    const deletes = seq.steps.filter((s) => s.label === 'delete pods');
    expect(deletes.map((s) => s.message).sort()).toEqual([...onNode].sort());
    expect(deletes.every((s) => s.from === 'kube-controller-manager' && s.t >= 410_000)).toBe(true);
  });
});
