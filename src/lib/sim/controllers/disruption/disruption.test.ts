import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster, testPod } from '../testing/harness';
import { scaledValue } from './disruption';

function pdb(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec }
  };
}

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 5,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
    }
  }
};

describe('disruption controller', () => {
  it('rounds percentages up, as GetScaledValueFromIntOrPercent(roundUp=true)', () => {
    expect(scaledValue('30%', 4)).toBe(2);
    expect(scaledValue('50%', 5)).toBe(3);
    expect(scaledValue(2, 10)).toBe(2);
  });

  it('counts a Deployment once through its ReplicaSet for maxUnavailable budgets', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    cluster.api.create(deployment);
    cluster.api.create(pdb({ maxUnavailable: '20%' }));
    cluster.advance(3_000);
    expect(cluster.api.get<KubeObject>('PodDisruptionBudget', 'default', 'web').status).toMatchObject({
      expectedPods: 5,
      desiredHealthy: 4,
      currentHealthy: 5,
      disruptionsAllowed: 1
    });
  });

  it('a budget without pods records NoPods; a percentage over a naked pod fails safe', () => {
    const { cluster } = testCluster({ nodes: ['w1'] });
    cluster.api.create(pdb({ minAvailable: 1 }));
    cluster.advance(1);
    // Recorded on every sync; the controller's own status write brings one more sync, as the
    // informer's update handler does upstream.
    expect(cluster.eventLog.filter((e) => e.reason === 'NoPods').map((e) => [e.object, e.message])).toEqual([
      ['PodDisruptionBudget/default/web', 'No matching pods found'],
      ['PodDisruptionBudget/default/web', 'No matching pods found']
    ]);
    expect(cluster.api.get<KubeObject>('PodDisruptionBudget', 'default', 'web').status).toMatchObject({
      expectedPods: 0,
      desiredHealthy: 1,
      currentHealthy: 0,
      disruptionsAllowed: 0
    });
    cluster.api.create({
      ...testPod('naked'),
      metadata: { name: 'naked', namespace: 'default', labels: { app: 'web' } }
    });
    cluster.api.patch(
      'PodDisruptionBudget',
      'default',
      'web',
      { spec: { minAvailable: '50%' } },
      { component: 'kubectl' }
    );
    cluster.advance(1);
    const st = cluster.api.get<KubeObject>('PodDisruptionBudget', 'default', 'web').status;
    expect(st.disruptionsAllowed).toBe(0);
    expect(st.observedGeneration).toBe(2);
    expect(st.conditions.find((c: { type: string }) => c.type === 'DisruptionAllowed')).toMatchObject({
      status: 'False',
      reason: 'SyncFailed'
    });
    expect(
      cluster.eventLog.filter((e) => e.reason === 'CalculateExpectedPodCountFailed').map((e) => e.message)
    ).toEqual(
      Array(2).fill(
        'Failed to calculate the number of expected pods: found no controller ref for pod "naked"'
      )
    );
  });
});
