import { describe, expect, it } from 'vitest';
import { Cluster, FaultError } from '../cluster';
import type { KubeObject } from '../api/types';
import { createCluster } from '../scenario';
import './index';
import { estimateLoad, maxNodesWithinSlo, MUTATING_P99_SLO_MS, REQUEST_TIMEOUT_MS } from './load';
import { apiServerLoad, LOAD_CONFIGMAP, quorumTable } from './sizing';

const scenario = (controlPlane: string, replicas = 2) => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: sizing }
spec:
  seed: 3
  controlPlane:
${controlPlane}
  nodePools:
    - name: worker
      count: 3
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: nginx, image: nginx:1.27 }]
`;

const HA = `    apiServers: 3
    etcd: { members: 3, topology: stacked }
    machine: { cores: 2 }
    plan: { nodes: 1000, podChurnPerSecond: 20 }`;

const model = (cluster: Cluster) =>
  cluster.api.get<KubeObject>('ConfigMap', 'kube-system', LOAD_CONFIGMAP).data as Record<string, string>;

describe('etcd quorum tables', () => {
  it('1, 3 and 5 members need 1, 2 and 3 and tolerate 0, 1 and 2 failures', () => {
    expect([1, 3, 5].map(quorumTable)).toEqual([
      { members: 1, quorum: 1, tolerated: 0 },
      { members: 3, quorum: 2, tolerated: 1 },
      { members: 5, quorum: 3, tolerated: 2 }
    ]);
    // An even count adds no tolerance.
    expect(quorumTable(4)).toEqual({ members: 4, quorum: 3, tolerated: 1 });
  });

  it('a cluster keeps quorum with members − tolerated running and loses it with one fewer', () => {
    for (const members of [3, 5]) {
      const { cluster } = createCluster(
        scenario(`    apiServers: 3\n    etcd: { members: ${members}, topology: stacked }`)
      );
      const { tolerated } = quorumTable(members);
      for (let i = 0; i < tolerated; i++) cluster.applyFault('StopEtcdMember', { target: `etcd-${i}` });
      expect(cluster.etcd.hasQuorum()).toBe(true);
      cluster.applyFault('StopEtcdMember', { target: `etcd-${tolerated}` });
      expect(cluster.etcd.hasQuorum()).toBe(false);
      expect(cluster.etcd.leader).toBeNull();
    }
  });
});

describe('where the model crosses the SLO', () => {
  it('finds the largest node count within the SLO, as the closed form says', () => {
    // weighted(n) = 1.1 × (n/10 + n/300 + 1 + 16 × churn) + 0.04 × churn × n, and
    // p99 ≤ 1 s ⇔ weighted / servers ≤ 200 × cores − 1000 × ln(100) / 985.
    const cases: [number, number, number][] = [
      [1, 4, 484],
      [1, 2, 46],
      [3, 2, 911],
      [3, 4, 2224],
      [4, 2, 1344]
    ];
    for (const [apiServers, cores, nodes] of cases) {
      const input = { podChurnPerSecond: 20, apiServers, cores };
      expect(maxNodesWithinSlo(input)).toBe(nodes);
      expect(estimateLoad({ ...input, nodes }).p99MutatingMs).toBeLessThanOrEqual(MUTATING_P99_SLO_MS);
      expect(estimateLoad({ ...input, nodes: nodes + 1 }).p99MutatingMs).toBeGreaterThan(MUTATING_P99_SLO_MS);
    }
    expect(maxNodesWithinSlo({ podChurnPerSecond: 20, apiServers: 3, cores: 32 })).toBe(5000);
    expect(maxNodesWithinSlo({ podChurnPerSecond: 20, apiServers: 1, cores: 1 })).toBe(0);
  });

  it('the crossing point moves only outward as the control plane grows', () => {
    let prev = -1;
    for (const cores of [1, 2, 4, 8, 16, 32, 64]) {
      const n = maxNodesWithinSlo({ podChurnPerSecond: 10, apiServers: 2, cores });
      expect(n).toBeGreaterThanOrEqual(prev);
      prev = n;
    }
    expect(prev).toBe(5000);
  });
});

describe('the load model on the running cluster', () => {
  it('uses the scenario machine shape, the running API servers and the real node count', () => {
    const { cluster } = createCluster(scenario(HA));
    cluster.runUntil(60_000);
    const load = apiServerLoad(cluster)!.load();
    // Three workers and the three control-plane hosts' Nodes (kubeadm registers them too).
    expect(load).toMatchObject({ cores: 2, apiServers: 3, nodes: 6 });
    expect(load.live).toMatchObject({ nodes: 6, apiServers: 3, cores: 2 });
    // The plan: 1000 nodes at 20 pods/s on 3 × 2 cores is past the SLO (the line is at 911).
    expect(load.planEstimate!.sloMet).toBe(false);
    expect(load.planEstimate!.p99MutatingMs).toBe(REQUEST_TIMEOUT_MS);
    expect(model(cluster)).toMatchObject({
      cores: '2',
      apiServers: '3',
      nodes: '6',
      planNodes: '1000',
      planPodChurnPerSecond: '20',
      planP99MutatingMs: '60000',
      planUtilisation: '1.06',
      planSloMet: 'false',
      sloMet: 'true'
    });
  });

  it('measures request rates from the counters over the last 60 s of virtual time', () => {
    const { cluster } = createCluster(scenario(HA));
    cluster.runUntil(120_000);
    const m = apiServerLoad(cluster)!.load().measured;
    expect(m.windowMs).toBeGreaterThanOrEqual(60_000);
    expect(m.windowMs).toBeLessThan(70_000);
    const rate = (r: string) => m.byRequest.find((x) => x.request === r)?.perSecond ?? 0;
    // 6 kubelets (3 workers, 3 control-plane hosts) renew their node Lease every 10 s, two leaders
    // renew every 2 s: 0.6 + 1 per second.
    expect(rate('update leases')).toBeCloseTo(1.6, 1);
    // Nothing is created after the rollout: no churn.
    expect(m.podStartsPerSecond).toBe(0);

    // Scale web from 2 to 32: 30 pod creates inside the window.
    const d = cluster.api.get<KubeObject>('Deployment', 'default', 'web');
    cluster.api.update({ ...d, spec: { ...d.spec, replicas: 32 } }, { component: 'kubectl' });
    cluster.runUntil(150_000);
    const after = apiServerLoad(cluster)!.load();
    expect(after.measured.podStartsPerSecond * (after.measured.windowMs / 1000)).toBeCloseTo(30, 6);
    expect(after.live.podChurnPerSecond).toBe(after.measured.podStartsPerSecond);
    expect(after.liveEstimate.writes.podChurn).toBeCloseTo(after.measured.podStartsPerSecond * 16, 9);
    // A minute and more later the burst has left the window.
    cluster.runUntil(240_000);
    expect(apiServerLoad(cluster)!.load().measured.podStartsPerSecond).toBe(0);
  });

  it('ResizeControlPlane changes the cores, and the planned p99 falls below the SLO', () => {
    const { cluster } = createCluster(scenario(HA));
    cluster.runUntil(20_000);
    cluster.applyFault('ResizeControlPlane', { target: '4' });
    const load = apiServerLoad(cluster)!.load();
    expect(load.cores).toBe(4);
    // 1000 nodes, 20 pods/s: 1266.8 weighted req/s over 3 servers of 800 each.
    expect(load.planEstimate!.utilisation).toBeCloseTo(0.5278, 4);
    expect(load.planEstimate!.p99MutatingMs).toBeCloseTo(27.19, 2);
    expect(model(cluster)).toMatchObject({ cores: '4', planP99MutatingMs: '27', planSloMet: 'true' });
    expect(() => cluster.applyFault('ResizeControlPlane', { target: '3' })).toThrow(
      'cannot resize the control plane to "3" cores (sizes: 1, 2, 4, 8, 16, 32, 64)'
    );
    expect(() => cluster.applyFault('ResizeControlPlane', {})).toThrow(FaultError);
  });

  it('AddApiServer and RemoveApiServer change the servers behind the load balancer', () => {
    const { cluster } = createCluster(scenario(HA));
    cluster.runUntil(20_000);
    cluster.applyFault('AddApiServer');
    expect(cluster.apiServers.map((a) => a.name)).toEqual([
      'kube-apiserver-control-plane-1',
      'kube-apiserver-control-plane-2',
      'kube-apiserver-control-plane-3',
      'kube-apiserver-control-plane-4'
    ]);
    // 1266.8 / 4 = 316.7 per server on 2 cores (400/s): p99 = 15 ms + ln(100) / 83.3 s.
    expect(apiServerLoad(cluster)!.load().planEstimate!.p99MutatingMs).toBeCloseTo(70.28, 2);
    expect(model(cluster)).toMatchObject({ apiServers: '4', planSloMet: 'true' });
    cluster.applyFault('RemoveApiServer');
    expect(cluster.apiServers).toHaveLength(3);
    expect(model(cluster).planSloMet).toBe('false');
    cluster.applyFault('RemoveApiServer', { target: 'kube-apiserver-control-plane-2' });
    cluster.applyFault('RemoveApiServer');
    expect(cluster.apiServers.map((a) => a.name)).toEqual(['kube-apiserver-control-plane-1']);
    expect(() => cluster.applyFault('RemoveApiServer')).toThrow('cannot remove the only kube-apiserver');
    expect(() => cluster.applyFault('RemoveApiServer', { target: 'nope' })).toThrow(
      'no kube-apiserver "nope" (instances: kube-apiserver-control-plane-1)'
    );
    // A stopped API server counts as no capacity.
    cluster.applyFault('AddApiServer');
    cluster.applyFault('StopControlPlaneNode', { target: 'control-plane-1' });
    expect(apiServerLoad(cluster)!.load().apiServers).toBe(1);
  });

  it('a single control plane gets its second API server as control-plane-2', () => {
    const { cluster } = createCluster(scenario('    machine: { cores: 8 }'));
    expect(apiServerLoad(cluster)!.cores).toBe(8);
    cluster.applyFault('AddApiServer');
    expect(cluster.apiServers.map((a) => a.name)).toEqual([
      'kube-apiserver',
      'kube-apiserver-control-plane-2'
    ]);
    // Without a plan nothing is published.
    cluster.runUntil(30_000);
    expect(cluster.api.tryGet('ConfigMap', 'kube-system', LOAD_CONFIGMAP)).toBeUndefined();
  });

  it('the figures wait while etcd has no quorum, and are written when it returns', () => {
    const { cluster } = createCluster(scenario(HA));
    cluster.runUntil(20_000);
    cluster.applyFault('StopEtcdMember', { target: 'etcd-1' });
    cluster.applyFault('StopEtcdMember', { target: 'etcd-2' });
    cluster.applyFault('ResizeControlPlane', { target: '8' });
    expect(model(cluster).cores).toBe('2');
    cluster.applyFault('StartEtcdMember', { target: 'etcd-2' });
    cluster.runUntil(30_000);
    expect(model(cluster).cores).toBe('8');
  });

  it('is deterministic and survives a snapshot', () => {
    const run = () => {
      const { cluster } = createCluster(scenario(HA, 6));
      cluster.runUntil(30_000);
      cluster.applyFault('ResizeControlPlane', { target: '4' });
      cluster.applyFault('AddApiServer');
      return cluster;
    };
    const a = run();
    const b = run();
    const restored = Cluster.restore(a.snapshot());
    for (const c of [a, b, restored]) c.runUntil(200_000);
    const la = apiServerLoad(a)!.load();
    expect(apiServerLoad(b)!.load()).toEqual(la);
    expect(apiServerLoad(restored)!.load()).toEqual(la);
    expect(la).toMatchObject({ cores: 4, apiServers: 4 });
    expect(model(restored)).toEqual(model(a));
  });
});
