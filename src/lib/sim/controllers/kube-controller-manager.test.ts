import { describe, expect, it } from 'vitest';
import { FaultError } from '../cluster';
import type { KubeObject } from '../api/types';
import type { KubeControllerManager } from './kube-controller-manager';
import type { ControllerHost } from './controller';
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

describe('kube-controller-manager delaying queue', () => {
  // client-go util/workqueue delaying_queue.go: waitingForQueue keeps one entry per item; AddAfter
  // of an item already waiting keeps the earlier ready time.
  function setup() {
    const { cluster } = testCluster({ nodes: ['w1'] });
    const kcm = kcmOf(cluster);
    const host = (kcm as unknown as { host(name: string): ControllerHost }).host('replicaset-controller');
    const rsc = kcm.controller('replicaset-controller') as unknown as { sync(key: string): void };
    const synced: string[] = [];
    rsc.sync = (key) => synced.push(`${cluster.engine.now} ${key}`);
    const pending = () =>
      cluster.engine.snapshot().queue.filter((e) => e.type === 'replicaset-controller:requeue').length;
    return { cluster, host, synced, pending };
  }

  it('keeps one waiting entry per key, the earliest', () => {
    const { cluster, host, synced, pending } = setup();
    host.enqueueAfter('default/x', 1_000);
    host.enqueueAfter('default/x', 3_000);
    expect(pending()).toBe(1);
    host.enqueueAfter('default/x', 500);
    host.enqueueAfter('default/y', 2_000);
    expect(pending()).toBe(2);
    cluster.advance(5_000);
    expect(synced).toEqual(['500 default/x', '2000 default/y']);
    expect(pending()).toBe(0);
    // Once added to the queue the key waits no more: a new AddAfter schedules again.
    host.enqueueAfter('default/x', 3_000);
    cluster.advance(5_000);
    expect(synced).toEqual(['500 default/x', '2000 default/y', '8000 default/x']);
  });

  it('replays a requeue that came due while stopped, and the key can wait again after it', () => {
    const { cluster, host, synced } = setup();
    host.enqueueAfter('default/x', 1_000);
    cluster.applyFault('StopControllerManager');
    cluster.advance(2_000);
    expect(synced).toEqual([]);
    cluster.applyFault('StartControllerManager');
    cluster.advance(1);
    expect(synced).toEqual(['2000 default/x']);
    host.enqueueAfter('default/x', 1_000);
    cluster.advance(2_000);
    expect(synced).toEqual(['2000 default/x', '3001 default/x']);
  });

  it('lets requeues of one instant scheduled back to back share an event, adding their keys in order', () => {
    const { cluster, host, synced, pending } = setup();
    host.enqueueAfter('default/a', 1_000);
    host.enqueueAfter('default/b', 1_000);
    host.enqueueAfter('default/c', 1_000);
    expect(pending()).toBe(1);
    // Something else scheduled in between: the next requeue needs an event of its own.
    cluster.engine.schedule(1_000, 'nobody', 'tick');
    host.enqueueAfter('default/d', 1_000);
    expect(pending()).toBe(2);
    // b moves forward, out of the shared event; a and c still come at 1 s.
    host.enqueueAfter('default/b', 500);
    cluster.advance(2_000);
    expect(synced).toEqual(['500 default/b', '1000 default/a', '1000 default/c', '1000 default/d']);
    expect(pending()).toBe(0);
  });

  it('replays a shared requeue held while stopped as one requeue per key', () => {
    const { cluster, host, synced } = setup();
    host.enqueueAfter('default/a', 1_000);
    host.enqueueAfter('default/b', 1_000);
    cluster.applyFault('StopControllerManager');
    cluster.advance(2_000);
    cluster.applyFault('StartControllerManager');
    cluster.advance(1);
    expect(synced).toEqual(['2000 default/a', '2000 default/b']);
    host.enqueueAfter('default/b', 1_000);
    cluster.advance(2_000);
    expect(synced).toEqual(['2000 default/a', '2000 default/b', '3001 default/b']);
  });
});
