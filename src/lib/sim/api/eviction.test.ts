import { describe, expect, it } from 'vitest';
import type { KubeObject } from './types';
import { ApiError } from './errors';
import { evictPod } from './eviction';
import { testCluster, testPod } from '../controllers/testing/harness';

const ctx = { component: 'kubectl' };

function rs(replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
      }
    }
  };
}

function pdb(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec }
  };
}

function caught(f: () => void): ApiError {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('no error');
}

const running = (api: ReturnType<typeof testCluster>['cluster']['api']) =>
  api.list<KubeObject>('Pod').filter((p) => !p.metadata.deletionTimestamp);

describe('eviction API and disruption controller', () => {
  it('keeps PDB status and takes one disruption per eviction', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create(rs(3));
    api.create(pdb('web-pdb', { minAvailable: 2 }));
    cluster.advance(3_000);
    const st = api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status;
    expect(st).toMatchObject({
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
      expectedPods: 3,
      observedGeneration: 1
    });
    expect(st.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'True',
        reason: 'SufficientPods',
        message: '',
        observedGeneration: 1,
        lastTransitionTime: expect.any(String)
      }
    ]);
    const [a, b] = running(api).map((p) => p.metadata.name);
    evictPod(cluster, 'default', a, ctx);
    const after = api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status;
    expect(after.disruptionsAllowed).toBe(0);
    expect(Object.keys(after.disruptedPods)).toEqual([a]);
    cluster.advance(1);
    const err = caught(() => evictPod(cluster, 'default', b, ctx));
    expect(err.code).toBe(429);
    expect(err.kubectlMessage()).toBe(
      "Error from server (TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget."
    );
    // The controller has seen the terminating pod: 2 healthy of 2 needed.
    expect(err.causes).toEqual([
      {
        field: '',
        reason: 'DisruptionBudget',
        message: 'The disruption budget web-pdb needs 2 healthy pods and has 2 currently'
      }
    ]);
    expect(
      api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status.conditions[0]
    ).toMatchObject({
      status: 'False',
      reason: 'InsufficientPods'
    });
    // The ReplicaSet replaces the evicted pod; once it is Ready the budget allows one again.
    cluster.advance(3_000);
    expect(api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status).toMatchObject({
      currentHealthy: 3,
      disruptionsAllowed: 1
    });
    expect(() => evictPod(cluster, 'default', b, ctx)).not.toThrow();
  });

  it('refuses while the budget is unprocessed, with maxUnavailable percentages and two budgets', () => {
    const { cluster } = testCluster({ nodes: ['w1'], kcm: true });
    const api = cluster.api;
    api.create(rs(4));
    cluster.advance(3_000);
    api.create(pdb('web-pdb', { maxUnavailable: '30%' }));
    const name = running(api)[0].metadata.name;
    const err = caught(() => evictPod(cluster, 'default', name, ctx));
    expect(err.code).toBe(429);
    expect(err.causes[0].message).toBe(
      'The disruption budget web-pdb is still being processed by the server.'
    );
    cluster.advance(1);
    // ceil(30% of 4) = 2 may be unavailable: 2 desired healthy, 2 disruptions allowed.
    expect(api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status).toMatchObject({
      expectedPods: 4,
      desiredHealthy: 2,
      disruptionsAllowed: 2
    });
    api.create(pdb('second', { minAvailable: 1 }));
    cluster.advance(1);
    const two = caught(() => evictPod(cluster, 'default', name, ctx));
    expect(two.code).toBe(500);
    expect(two.kubectlMessage()).toBe(
      'Error from server: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'
    );
  });

  it('evicts Pending pods and unready pods without taking from the budget; 404 for a missing pod', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    api.create({ ...testPod('p1'), metadata: { name: 'p1', namespace: 'default', labels: { app: 'web' } } });
    api.create(pdb('web-pdb', { minAvailable: 1 }));
    cluster.advance(1);
    expect(api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status.disruptionsAllowed).toBe(
      0
    );
    evictPod(cluster, 'default', 'p1', ctx);
    expect(api.tryGet('Pod', 'default', 'p1')).toBeUndefined();
    expect(caught(() => evictPod(cluster, 'default', 'p1', ctx)).kubectlMessage()).toBe(
      'Error from server (NotFound): pods "p1" not found'
    );
  });

  it('forgets an eviction that was not followed by a deletion after 2 minutes', () => {
    const { cluster } = testCluster({ nodes: ['w1'] });
    const api = cluster.api;
    api.create(rs(2));
    api.create(pdb('web-pdb', { minAvailable: 1 }));
    cluster.advance(3_000);
    const name = running(api)[0].metadata.name;
    evictPod(cluster, 'default', name, ctx, { dryRun: true });
    expect(api.tryGet<KubeObject>('Pod', 'default', name)?.metadata.deletionTimestamp).toBeUndefined();
    // An eviction recorded by hand (as if the delete had failed) blocks the next one for 2 minutes.
    const cur = api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb');
    api.patch(
      'PodDisruptionBudget',
      'default',
      'web-pdb',
      { status: { disruptionsAllowed: 0, disruptedPods: { [name]: api.timestamp() } } },
      ctx,
      { subresource: 'status' }
    );
    expect(cur.status.disruptionsAllowed).toBe(1);
    cluster.advance(1);
    expect(api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status.currentHealthy).toBe(1);
    cluster.advance(2 * 60_000);
    expect(api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status).toMatchObject({
      currentHealthy: 2,
      disruptionsAllowed: 1
    });
    expect(
      api.get<KubeObject>('PodDisruptionBudget', 'default', 'web-pdb').status.disruptedPods
    ).toBeUndefined();
  });
});
