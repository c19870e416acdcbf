import { describe, expect, it } from 'vitest';
import { FaultError } from '../cluster';
import type { KubeObject } from '../api/types';
import type { KubeControllerManager } from './kube-controller-manager';
import { nodeTaints, readyOf, testCluster, timeWhen } from './testing/harness';

const kcmOf = (c: ReturnType<typeof testCluster>['cluster']) =>
  c.component<KubeControllerManager>('kube-controller-manager')!;

describe('kube-controller-manager under failure', () => {
  it('cannot mark, taint or evict while etcd has no quorum, and catches up once it returns', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3'], etcdMembers: 3 });
    cluster.runUntil(55_000);
    harness.kill('w3');
    cluster.runUntil(100_000);
    cluster.applyFault('StopEtcdMember', { target: 'etcd-1' });
    cluster.applyFault('StopEtcdMember', { target: 'etcd-2' });
    expect(cluster.etcd.hasQuorum()).toBe(false);
    cluster.runUntil(140_000);
    // Grace ran out at 105 s, but the status update never committed.
    expect(readyOf(cluster, 'w3')?.status).toBe('True');
    expect(nodeTaints(cluster, 'w3')).toEqual([]);
    const errors = kcmOf(cluster).errors.filter((e) => e.controller === 'node-lifecycle-controller');
    expect(errors[0]).toEqual({
      t: 105_000,
      controller: 'node-lifecycle-controller',
      message:
        "Update health of Node 'w3' from Controller error, Skipping - no pods will be evicted: etcdserver: request timed out"
    });
    cluster.applyFault('StartEtcdMember', { target: 'etcd-1' });
    const tUnknown = timeWhen(cluster, 300_000, () => readyOf(cluster, 'w3')?.status === 'Unknown')!;
    expect(tUnknown).toBe(145_000);
    const tTaint = timeWhen(cluster, 300_000, () =>
      nodeTaints(cluster, 'w3').some((t) => t.effect === 'NoExecute')
    )!;
    expect(tTaint).toBe(150_100);
    // The healthy nodes renewed their Leases in time and stayed Ready.
    expect(readyOf(cluster, 'w1')?.status).toBe('True');
  });

  it('StopEtcdMember names the members when the target is unknown', () => {
    const { cluster } = testCluster({ nodes: ['w1'], etcdMembers: 3, kcm: false });
    expect(() => cluster.applyFault('StopEtcdMember', { target: 'etcd-9' })).toThrowError(FaultError);
    expect(() => cluster.applyFault('StopEtcdMember', { target: 'etcd-9' })).toThrowError(
      'etcd member "etcd-9" does not exist (members: etcd-0, etcd-1, etcd-2)'
    );
    expect(() => cluster.applyFault('StartEtcdMember')).toThrowError(
      'StartEtcdMember needs a target etcd member (members: etcd-0, etcd-1, etcd-2)'
    );
    cluster.applyFault('StopEtcdMember', { target: 'etcd-0' });
    expect(cluster.etcd.hasQuorum()).toBe(true);
    expect(cluster.faultLog).toEqual([{ t: 0, action: 'StopEtcdMember', target: 'etcd-0' }]);
  });

  it('does nothing while stopped, keeps its queues, and resumes on StartControllerManager', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    cluster.runUntil(55_000);
    cluster.applyFault('StopControllerManager');
    expect(kcmOf(cluster).running).toBe(false);
    harness.kill('w3');
    cluster.api.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
        }
      }
    });
    cluster.runUntil(300_000);
    expect(readyOf(cluster, 'w3')?.status).toBe('True');
    expect(cluster.api.list('Pod')).toHaveLength(0);
    cluster.applyFault('StartControllerManager');
    cluster.advance(1);
    expect(cluster.api.list<KubeObject>('Pod').map((p) => p.metadata.generateName)).toEqual(['web-', 'web-']);
    // A restarted controller starts every node's grace period afresh.
    const t = timeWhen(cluster, 600_000, () => readyOf(cluster, 'w3')?.status === 'Unknown')!;
    expect(t).toBe(355_000);
    expect(() => cluster.applyFault('StartControllerManager')).not.toThrow();
  });

  it('StopControllerManager fails on a cluster without one', () => {
    const { cluster } = testCluster({ nodes: ['w1'], kcm: false });
    expect(() => cluster.applyFault('StopControllerManager')).toThrowError(
      'kube-controller-manager is not part of this cluster'
    );
  });
});
