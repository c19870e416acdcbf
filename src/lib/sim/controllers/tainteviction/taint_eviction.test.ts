import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster, testPod, timeWhen } from '../testing/harness';
import { minTolerationTime } from './taint_eviction';

describe('taint eviction controller', () => {
  it.each([
    { tols: [], ms: 0 },
    { tols: [{ tolerationSeconds: 300 }, { tolerationSeconds: 30 }], ms: 30_000 },
    { tols: [{}], ms: -1 },
    { tols: [{}, { tolerationSeconds: 60 }], ms: 60_000 },
    { tols: [{ tolerationSeconds: 0 }, { tolerationSeconds: 60 }], ms: 0 },
    { tols: [{ tolerationSeconds: -5 }], ms: 0 }
  ])('getMinTolerationTime($tols) = $ms ms', ({ tols, ms }) => {
    expect(minTolerationTime(tols)).toBe(ms);
  });

  it('cancels a pending deletion when the taint goes away, with the upstream event', () => {
    const { cluster } = testCluster({ nodes: ['w1'] });
    const api = cluster.api;
    api.create(testPod('p', 'w1'));
    cluster.advance(2_000);
    const taint = { key: 'example.com/maintenance', effect: 'NoExecute' };
    const ctx = { component: 'kubectl' };
    const tolerating = structuredClone(api.get<KubeObject>('Pod', 'default', 'p'));
    tolerating.spec.tolerations.push({ ...taint, operator: 'Exists', tolerationSeconds: 60 });
    api.update(tolerating, ctx);
    api.patch('Node', undefined, 'w1', { spec: { taints: [taint] } }, ctx);
    cluster.advance(30_000);
    api.patch('Node', undefined, 'w1', { spec: { taints: null } }, ctx);
    cluster.advance(60_000);
    expect(api.get<KubeObject>('Pod', 'default', 'p').metadata.deletionTimestamp).toBeUndefined();
    expect(cluster.eventLog.filter((e) => e.reason === 'TaintManagerEviction')).toEqual([
      expect.objectContaining({ type: 'Normal', message: 'Cancelling deletion of Pod default/p', t: 32_000 })
    ]);
    // Tainted again: the full 60 s start over.
    api.patch('Node', undefined, 'w1', { spec: { taints: [taint] } }, ctx);
    const tainted = cluster.now;
    const t = timeWhen(
      cluster,
      500_000,
      () => !!api.get<KubeObject>('Pod', 'default', 'p').metadata.deletionTimestamp
    );
    expect(t! - tainted).toBe(60_000);
  });
});
