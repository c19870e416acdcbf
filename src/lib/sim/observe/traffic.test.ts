import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario';
import type { KubeObject } from '$lib/sim/api/types';
import { enableTraffic, processOf, trafficModel } from './traffic';

const three = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

describe('API traffic read model (kube-apiserver request log)', () => {
  it('is off until a view asks for it, and starts empty', () => {
    const { cluster } = createCluster(three);
    cluster.runUntil(5_000);
    expect(trafficModel(cluster, 0)).toBeNull();
    enableTraffic(cluster);
    const m = trafficModel(cluster, 0)!;
    expect(m.dots).toEqual([]);
    expect(m.lastSeq).toBe(0);
  });

  it('draws each kubelet renewing its Lease every 10 s (pkg/kubelet/kubelet.go nodeLeaseController, renewInterval 10s)', () => {
    const { cluster } = createCluster(three);
    cluster.runUntil(60_000);
    enableTraffic(cluster);
    cluster.runUntil(120_000);
    const m = trafficModel(cluster, 0)!;
    const kubelet = m.edges.find((e) => e.id === 'kubelet@worker-1')!;
    expect(kubelet).toMatchObject({ process: 'kubelet', node: 'worker-1' });
    const leases = m.dots.filter((d) => d.edge === 'kubelet@worker-1' && d.resource === 'leases');
    // The last MAX_DOTS records only; each renewal is one `update leases` from that node.
    expect(leases.length).toBeGreaterThan(0);
    for (const d of leases)
      expect(d).toMatchObject({ dir: 'in', verb: 'update', verbClass: 'update', write: true });
    const times = leases.map((d) => d.t);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(10_000);
    // One renewal and one Node get in the 10 s window: 0.1 per virtual second each.
    expect(kubelet.in).toMatchObject({ update: 0.1, read: 0.1, create: 0, delete: 0 });
    expect(m.edges.map((e) => e.id)).toEqual(
      expect.arrayContaining(['kube-controller-manager', 'kubelet@worker-2', 'kubelet@worker-3'])
    );
  });

  it('shows a bind as create pods/binding and fans the watch events out to the watchers', () => {
    const { cluster } = createCluster(three);
    cluster.runUntil(60_000);
    enableTraffic(cluster);
    cluster.api.create<KubeObject>(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'probe', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] }
      },
      { component: 'kubectl' }
    );
    cluster.runUntil(61_000);
    const m = trafficModel(cluster, 0)!;
    const mine = m.dots.filter((d) => d.name === 'probe');
    expect(mine[0]).toMatchObject({
      edge: 'kubectl',
      dir: 'in',
      verb: 'create',
      resource: 'pods',
      write: true
    });
    const bind = mine.find((d) => d.verbClass === 'bind')!;
    expect(bind).toMatchObject({ edge: 'kube-scheduler', verb: 'create', resource: 'pods/binding' });
    const node = cluster.api.get<KubeObject>('Pod', 'default', 'probe').spec!.nodeName as string;
    // The ADDED event reached the scheduler and kube-controller-manager; the bound pod its kubelet.
    const watchedBy = new Set(mine.filter((d) => d.dir === 'out').map((d) => d.edge));
    expect([...watchedBy]).toEqual(
      expect.arrayContaining(['kube-scheduler', 'kube-controller-manager', `kubelet@${node}`])
    );
    expect(mine.some((d) => d.edge === `kubelet@${node}` && d.resource === 'pods/status')).toBe(true);
  });

  it('stops the Lease renewals of a stopped kubelet', () => {
    const { cluster } = createCluster(three);
    cluster.runUntil(60_000);
    enableTraffic(cluster);
    cluster.applyFault('StopKubelet', { target: 'worker-2' });
    const seq = trafficModel(cluster, 0)!.lastSeq;
    cluster.runUntil(90_000);
    const m = trafficModel(cluster, seq)!;
    expect(m.dots.some((d) => d.edge === 'kubelet@worker-2' && d.dir === 'in')).toBe(false);
    expect(m.dots.some((d) => d.edge === 'kubelet@worker-1' && d.resource === 'leases')).toBe(true);
    expect(m.edges.find((e) => e.id === 'kubelet@worker-2')?.in.update ?? 0).toBe(0);
  });

  it('folds components into the processes an operator sees', () => {
    expect(processOf('node-controller')).toEqual({
      process: 'kube-controller-manager',
      part: 'node-lifecycle-controller'
    });
    expect(processOf('replicaset-controller')).toEqual({
      process: 'kube-controller-manager',
      part: 'replicaset-controller'
    });
    expect(processOf('service-controller')?.process).toBe('cloud-controller-manager');
    expect(processOf('kubelet')).toEqual({ process: 'kubelet' });
    expect(processOf('scenario')).toBeUndefined();
  });

  it('folds the node agents of a large cluster into one edge per node pool', () => {
    const { cluster } = createCluster(`apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: pools }
spec:
  nodePools:
    - { name: general, count: 30, capacity: { cpu: '4', memory: 16Gi }, zone: zone-a }
    - { name: batch, count: 15, capacity: { cpu: '4', memory: 16Gi }, zone: zone-b }
`);
    enableTraffic(cluster);
    cluster.runUntil(30_000);
    const m = trafficModel(cluster, 0)!;
    expect(m.aggregated).toBe(true);
    const kubelets = m.edges.filter((e) => e.process === 'kubelet');
    expect(kubelets.map((e) => [e.id, e.nodes])).toEqual([
      ['kubelet@pool:batch', 15],
      // kubeadm's control-plane-1 folds into a group of its own
      ['kubelet@control-plane', 1],
      ['kubelet@pool:general', 30]
    ]);
    // 45 Leases renewed every 10 s: 4.5 updates per virtual second in all.
    expect(kubelets.reduce((n, e) => n + e.in.update, 0)).toBeGreaterThanOrEqual(4.5);
  });
});
