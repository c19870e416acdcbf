import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster } from '../testing/harness';
import { podTemplateHash, resolveFenceposts } from './util';
import { rolloutHistory, rolloutRestart, rolloutUndo } from './rollout';

function deployment(replicas: number, image: string, strategy?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      ...(strategy ? { strategy } : {}),
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } }
    }
  };
}

function setImage(c: ReturnType<typeof testCluster>['cluster'], image: string) {
  const d = structuredClone(c.api.get<KubeObject>('Deployment', 'default', 'web'));
  d.spec.template.spec.containers[0].image = image;
  c.api.update(d, { component: 'kubectl' });
}

describe('deployment util', () => {
  it.each([
    { replicas: 10, strategy: {}, surge: 3, unavailable: 2 },
    { replicas: 4, strategy: {}, surge: 1, unavailable: 1 },
    { replicas: 1, strategy: {}, surge: 1, unavailable: 0 },
    { replicas: 3, strategy: { maxSurge: 0, maxUnavailable: 0 }, surge: 0, unavailable: 1 },
    { replicas: 5, strategy: { maxSurge: '50%', maxUnavailable: 2 }, surge: 3, unavailable: 2 }
  ])(
    'replicas $replicas, $strategy ⇒ surge $surge, unavailable $unavailable',
    ({ replicas, strategy, surge, unavailable }) => {
      const d = deployment(replicas, 'nginx:1.27', { type: 'RollingUpdate', rollingUpdate: strategy });
      expect(resolveFenceposts(d)).toEqual({ surge, unavailable });
    }
  );

  it('hashes a template to a stable name-safe string, ignoring the pod-template-hash label', () => {
    const t = deployment(1, 'nginx:1.27').spec.template;
    const h = podTemplateHash(t);
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    const withHash = structuredClone(t);
    withHash.metadata.labels['pod-template-hash'] = h;
    expect(podTemplateHash(withHash)).toBe(h);
    expect(podTemplateHash(deployment(1, 'nginx:1.28').spec.template)).not.toBe(h);
  });
});

describe('deployment controller', () => {
  it('rolls out a new template within maxSurge and maxUnavailable, with revisions, events and conditions', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    const api = cluster.api;
    api.create(deployment(4, 'nginx:1.27'));
    cluster.runUntil(10_000);
    const rs1 = api.list<KubeObject>('ReplicaSet')[0];
    const hash1 = podTemplateHash(api.get<KubeObject>('Deployment', 'default', 'web').spec.template);
    expect(rs1.metadata.name).toBe(`web-${hash1}`);
    expect(rs1.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash1 });
    expect(rs1.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash1 } });
    expect(rs1.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '4',
      'deployment.kubernetes.io/max-replicas': '5'
    });
    expect(rs1.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Deployment', name: 'web', controller: true, blockOwnerDeletion: true })
    ]);
    let d = api.get<KubeObject>('Deployment', 'default', 'web');
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({
      replicas: 4,
      updatedReplicas: 4,
      readyReplicas: 4,
      availableReplicas: 4
    });
    expect(d.status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason])).toEqual([
      ['Available', 'MinimumReplicasAvailable'],
      ['Progressing', 'NewReplicaSetAvailable']
    ]);
    expect(d.status.conditions[1].message).toBe(`ReplicaSet "web-${hash1}" has successfully progressed.`);
    expect(cluster.eventLog.filter((e) => e.reason === 'ScalingReplicaSet').map((e) => e.message)).toEqual([
      `Scaled up replica set web-${hash1} from 0 to 4`
    ]);

    setImage(cluster, 'nginx:1.28');
    let maxTotal = 0;
    let minAvailable = Infinity;
    const start = cluster.now;
    while (cluster.now < start + 60_000 && cluster.step()) {
      const total = api.list<KubeObject>('ReplicaSet').reduce((s, rs) => s + rs.spec.replicas, 0);
      const available = api
        .list<KubeObject>('Pod')
        .filter(
          (p) =>
            !p.metadata.deletionTimestamp &&
            p.status?.conditions?.some(
              (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
            )
        ).length;
      maxTotal = Math.max(maxTotal, total);
      minAvailable = Math.min(minAvailable, available);
    }
    expect(maxTotal).toBe(5);
    expect(minAvailable).toBe(3);
    d = api.get<KubeObject>('Deployment', 'default', 'web');
    const hash2 = podTemplateHash(d.spec.template);
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(api.get<KubeObject>('ReplicaSet', 'default', `web-${hash2}`).spec.replicas).toBe(4);
    expect(api.get<KubeObject>('ReplicaSet', 'default', `web-${hash1}`).spec.replicas).toBe(0);
    expect(d.status).toMatchObject({
      replicas: 4,
      updatedReplicas: 4,
      availableReplicas: 4,
      observedGeneration: 2
    });
    expect(d.status.conditions[1].message).toBe(`ReplicaSet "web-${hash2}" has successfully progressed.`);
    const scaling = cluster.eventLog.filter((e) => e.reason === 'ScalingReplicaSet').map((e) => e.message);
    expect(scaling.slice(1, 3)).toEqual([
      `Scaled up replica set web-${hash2} from 0 to 1`,
      `Scaled down replica set web-${hash1} from 4 to 3`
    ]);
    expect(scaling[scaling.length - 1]).toBe(`Scaled down replica set web-${hash1} from 1 to 0`);

    expect(rolloutHistory(cluster, 'default', 'web').map((h) => h.revision)).toEqual([1, 2]);
    expect(rolloutUndo(cluster, 'default', 'web')).toBe('deployment.apps/web rolled back');
    cluster.advance(60_000);
    d = api.get<KubeObject>('Deployment', 'default', 'web');
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    const old = api.get<KubeObject>('ReplicaSet', 'default', `web-${hash1}`);
    expect(old.spec.replicas).toBe(4);
    expect(old.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(old.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(() => rolloutUndo(cluster, 'default', 'web', 9)).toThrowError(
      'unable to find specified revision 9 in history'
    );

    expect(rolloutRestart(cluster, 'default', 'web')).toBe('deployment.apps/web restarted');
    cluster.advance(60_000);
    d = api.get<KubeObject>('Deployment', 'default', 'web');
    expect(d.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toBe(
      '2026-01-01T00:02:10Z'
    );
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('4');
    expect(api.list('ReplicaSet')).toHaveLength(3);
    expect(d.status).toMatchObject({ replicas: 4, updatedReplicas: 4, availableReplicas: 4 });
  });

  it('Recreate scales the old ReplicaSet to zero and waits for its pods before creating the new one', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create(deployment(2, 'nginx:1.27', { type: 'Recreate' }));
    cluster.runUntil(10_000);
    setImage(cluster, 'nginx:1.28');
    cluster.advance(1);
    const rss = () =>
      api
        .list<KubeObject>('ReplicaSet')
        .map((rs) => `${rs.spec.template.spec.containers[0].image}=${rs.spec.replicas}`);
    expect(rss()).toEqual(['nginx:1.27=0']);
    cluster.advance(5_000);
    expect(rss()).toEqual(['nginx:1.27=0', 'nginx:1.28=2']);
    const d = api.get<KubeObject>('Deployment', 'default', 'web');
    expect(
      cluster.eventLog
        .filter((e) => e.reason === 'ScalingReplicaSet')
        .map((e) => e.message.replace(/web-\w+/, 'web-x'))
    ).toEqual([
      'Scaled up replica set web-x from 0 to 2',
      'Scaled down replica set web-x from 2 to 0',
      'Scaled up replica set web-x from 0 to 2'
    ]);
    expect(d.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('scales the current ReplicaSet when spec.replicas changes', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create(deployment(2, 'nginx:1.27'));
    cluster.runUntil(5_000);
    api.patch('Deployment', 'default', 'web', { spec: { replicas: 5 } }, { component: 'kubectl' });
    cluster.advance(5_000);
    const rs = api.list<KubeObject>('ReplicaSet')[0];
    expect(rs.spec.replicas).toBe(5);
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('5');
    expect(api.list('Pod')).toHaveLength(5);
  });
});
