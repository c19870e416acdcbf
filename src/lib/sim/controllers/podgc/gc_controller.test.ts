import { describe, expect, it } from 'vitest';
import type { KubeObject, PodCondition } from '../../api/types';
import { testCluster, testPod, timeWhen } from '../testing/harness';

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
});
