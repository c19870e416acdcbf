import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster } from '../testing/harness';

describe('garbage collector', () => {
  it('deleting a Deployment removes its ReplicaSets and their pods (background cascade)', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
        }
      }
    });
    api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'standalone', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] }
    });
    cluster.runUntil(5_000);
    expect(api.list('ReplicaSet')).toHaveLength(1);
    expect(api.list('Pod')).toHaveLength(4);
    api.delete('Deployment', 'default', 'web', {}, { component: 'kubectl' });
    cluster.advance(1);
    expect(api.list('ReplicaSet')).toHaveLength(0);
    // Bound pods terminate gracefully: they carry a deletionTimestamp until their kubelet finishes.
    const web = api.list<KubeObject>('Pod', { labelSelector: 'app=web' });
    expect(web).toHaveLength(3);
    expect(web.every((p) => p.metadata.deletionTimestamp)).toBe(true);
    cluster.advance(2_000);
    expect(api.list<KubeObject>('Pod').map((p) => p.metadata.name)).toEqual(['standalone']);
  });

  it('drops a dangling owner reference when another owner still exists, and deletes orphans on sight', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    const cm = api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner', namespace: 'default' }
    });
    const ref = (name: string, uid: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid });
    api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'shared',
        namespace: 'default',
        ownerReferences: [ref('owner', cm.metadata.uid!), ref('gone', 'f00')]
      }
    });
    api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'orphan', namespace: 'default', ownerReferences: [ref('gone', 'f00')] }
    });
    cluster.advance(1);
    expect(api.tryGet('ConfigMap', 'default', 'orphan')).toBeUndefined();
    expect(api.get<KubeObject>('ConfigMap', 'default', 'shared').metadata.ownerReferences).toEqual([
      ref('owner', cm.metadata.uid!)
    ]);
  });
});
