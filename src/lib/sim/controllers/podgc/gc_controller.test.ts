// upstream: pkg/controller/podgc/gc_controller.go (gc: gcTerminated, gcTerminating, gcOrphaned,
// gcUnscheduledTerminating; quarantineTime 40 s, gcCheckPeriod 20 s)
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import type { KubeObject, PodCondition } from '../../api/types';
import { testCluster, testPod, timeWhen } from '../testing/harness';

const KUBECTL = { component: 'kubectl' };

describe('pod garbage collector', () => {
  it('force-deletes pods of a deleted node after the 40 s quarantine, marking them Failed first', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create(testPod('orphan', 'w2'));
    cluster.runUntil(25_000);
    harness.kill('w2');
    api.delete('Node', undefined, 'w2', {}, { component: 'kubectl' });
    const deletedAt = cluster.now;
    let lastSeen: KubeObject | undefined;
    api.watch('Pod', (type, p) => {
      if (type === 'MODIFIED' && p.metadata.name === 'orphan') lastSeen = p;
    });
    const t = timeWhen(cluster, 200_000, () => !api.tryGet<KubeObject>('Pod', 'default', 'orphan'))!;
    // gc passes run at 0, 20, 40 ... s: first seen at 40 s, gone at the 80 s pass.
    expect(t).toBe(80_000);
    expect(t - deletedAt).toBeGreaterThanOrEqual(40_000);
    expect(t - deletedAt).toBeLessThanOrEqual(60_000);
    expect(lastSeen?.status.phase).toBe('Failed');
    expect(
      (lastSeen?.status.conditions as PodCondition[]).find((c) => c.type === 'DisruptionTarget')
    ).toMatchObject({
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists'
    });
  });

  it('marks terminating pods that were never scheduled Failed and force-deletes them', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    api.create({
      ...testPod('stuck'),
      metadata: { name: 'stuck', namespace: 'default', finalizers: ['example.com/hold'] }
    });
    api.delete('Pod', 'default', 'stuck', {}, { component: 'kubectl' });
    cluster.runUntil(20_000);
    const p = api.get<KubeObject>('Pod', 'default', 'stuck');
    expect(p.status.phase).toBe('Failed');
  });

  it('keeps terminated pods up to --terminated-pod-gc-threshold, deleting the oldest beyond it', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    cluster.config.controllerManager.terminatedPodGCThreshold = 2;
    const api = cluster.api;
    for (const name of ['a', 'b', 'c', 'd']) {
      api.create({ ...testPod(name, 'w1'), status: { phase: 'Succeeded' } });
      cluster.advance(1_000);
    }
    cluster.runUntil(20_000);
    expect(api.list<KubeObject>('Pod').map((p) => p.metadata.name)).toEqual(['c', 'd']);
  });

  it('collects pods bound to a node that never existed after the quarantine, and not before', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    cluster.runUntil(10_000);
    api.create(testPod('ghost', 'no-such-node'));
    // Seen at the 20 s pass, quarantined until 60 s: still there at the 40 s pass, gone at 60 s.
    cluster.runUntil(59_999);
    expect(api.tryGet('Pod', 'default', 'ghost')).toBeDefined();
    expect(timeWhen(cluster, 200_000, () => !api.tryGet('Pod', 'default', 'ghost'))).toBe(60_000);
  });

  it('does not collect the pods of a node that came back within the quarantine', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'], schedule: false });
    const api = cluster.api;
    api.create(testPod('stays', 'w2'));
    cluster.runUntil(25_000);
    const node = api.get<KubeObject>('Node', undefined, 'w2');
    api.delete('Node', undefined, 'w2', {}, KUBECTL);
    cluster.runUntil(45_000);
    api.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'w2', labels: node.metadata.labels } });
    cluster.runUntil(200_000);
    expect(api.tryGet('Pod', 'default', 'stays')).toBeDefined();
  });

  it('force-deletes terminating pods on a not-Ready node tainted out-of-service', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2'], schedule: false });
    const api = cluster.api;
    api.create({
      ...testPod('held', 'w2'),
      metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/hold'] }
    });
    cluster.runUntil(5_000);
    harness.kill('w2');
    api.delete('Pod', 'default', 'held', {}, KUBECTL);
    const tUnknown = timeWhen(cluster, 200_000, () =>
      (
        api.get<KubeObject>('Node', undefined, 'w2').status.conditions as { type: string; status: string }[]
      ).some((c) => c.type === 'Ready' && c.status === 'Unknown')
    )!;
    // Terminating on an unreachable node, but not out of service yet: the passes leave it.
    cluster.runUntil(tUnknown + 20_000);
    expect(api.get<KubeObject>('Pod', 'default', 'held').status.phase).not.toBe('Failed');
    api.patch(
      'Node',
      undefined,
      'w2',
      {
        spec: {
          taints: [
            ...((api.get<KubeObject>('Node', undefined, 'w2').spec.taints ?? []) as object[]),
            { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }
          ]
        }
      },
      KUBECTL
    );
    const patchedAt = cluster.now;
    const t = timeWhen(
      cluster,
      patchedAt + 60_000,
      () => api.get<KubeObject>('Pod', 'default', 'held').status.phase === 'Failed'
    )!;
    // The next 20 s pass marks it Failed (its finalizer keeps the object).
    expect(t % 20_000).toBe(0);
    expect(t - patchedAt).toBeLessThanOrEqual(20_000);
  });

  it('a cluster restored in the middle of a quarantine collects at the same pass', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'], schedule: false });
    const api = cluster.api;
    api.create(testPod('orphan', 'w2'));
    cluster.runUntil(25_000);
    api.delete('Node', undefined, 'w2', {}, KUBECTL);
    cluster.runUntil(50_000);
    const restored = Cluster.restore(cluster.snapshot());
    const gone = (c: Cluster) => timeWhen(c, 200_000, () => !c.api.tryGet('Pod', 'default', 'orphan'));
    expect(gone(cluster)).toBe(80_000);
    expect(gone(restored)).toBe(80_000);
    expect(restored.eventLog).toEqual(cluster.eventLog);
  });
});
