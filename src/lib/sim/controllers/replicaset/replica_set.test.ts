import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster } from '../testing/harness';
import { compareForDeletion } from './ranking';
import type { KubeControllerManager } from '../kube-controller-manager';
import type { ReplicaSetController } from './replica_set';

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

describe('replicaset controller', () => {
  it('creates pods from the template with a controller reference, events and status', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    const created = api.create(rs(3));
    cluster.advance(1);
    const pods = api.list<KubeObject>('Pod');
    expect(pods).toHaveLength(3);
    expect(pods[0].metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pods[0].metadata.labels).toEqual({ app: 'web' });
    expect(pods[0].metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web',
        uid: created.metadata.uid,
        controller: true,
        blockOwnerDeletion: true
      }
    ]);
    expect(cluster.eventLog.filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message)).toEqual(
      pods.map((p) => `Created pod: ${p.metadata.name}`)
    );
    cluster.advance(5_000);
    expect(api.get<KubeObject>('ReplicaSet', 'default', 'web').status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1
    });
  });

  it('replaces a deleted pod at once and does not count terminating pods', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create(rs(2));
    cluster.advance(5_000);
    const victim = api.list<KubeObject>('Pod')[0];
    harness.kill(victim.spec.nodeName);
    api.delete('Pod', 'default', victim.metadata.name, {}, { component: 'kubectl' });
    cluster.advance(1);
    const pods = api.list<KubeObject>('Pod');
    expect(pods).toHaveLength(3);
    expect(pods.filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(2);
  });

  it('scales down the pods that cost least first: unscheduled, then pending, then not ready', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    api.create(rs(3));
    cluster.advance(1);
    const [a, b] = api.list<KubeObject>('Pod');
    const ctx = { component: 'test' };
    const bound = structuredClone(a);
    bound.spec.nodeName = 'w1';
    api.update(bound, ctx);
    const bound2 = structuredClone(b);
    bound2.spec.nodeName = 'w1';
    api.update(bound2, ctx);
    const running = structuredClone(api.get<KubeObject>('Pod', 'default', b.metadata.name));
    running.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    api.update(running, ctx, { subresource: 'status' });
    api.patch('ReplicaSet', 'default', 'web', { spec: { replicas: 1 } }, ctx);
    cluster.advance(1);
    const left = api.list<KubeObject>('Pod').filter((p) => !p.metadata.deletionTimestamp);
    expect(left.map((p) => p.metadata.name)).toEqual([b.metadata.name]);
    expect(cluster.eventLog.filter((e) => e.reason === 'SuccessfulDelete')).toHaveLength(2);
  });

  it('ranks doubled-up pods and younger pods first', () => {
    const pod = (name: string, created: number, ready?: number): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, uid: name, creationTimestamp: String(created) },
      spec: { nodeName: 'n' },
      status: {
        phase: 'Running',
        conditions:
          ready === undefined ? [] : [{ type: 'Ready', status: 'True', lastTransitionTime: String(ready) }]
      }
    });
    const timeOf = (t: string) => Number(t);
    const now = 10_000_000;
    const cmp = (x: KubeObject, rx: number, y: KubeObject, ry: number) =>
      compareForDeletion({ pod: x, rank: rx }, { pod: y, rank: ry }, now, timeOf);
    expect(cmp(pod('a', 0, 0), 2, pod('b', 0, 0), 1)).toBeLessThan(0);
    expect(cmp(pod('young', 0, now - 5_000), 1, pod('old', 0, now - 5_000_000), 1)).toBeLessThan(0);
    expect(cmp(pod('notready', 0), 1, pod('ready', 0, 0), 1)).toBeLessThan(0);
  });
});

describe('replicaset controller: ownership', () => {
  it('adopts a matching orphan instead of creating a pod, and releases a pod relabelled out', () => {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'orphan', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
    });
    const owner = api.create<KubeObject>(rs(2));
    cluster.advance(1);
    expect(api.get<KubeObject>('Pod', 'default', 'orphan').metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web',
        uid: owner.metadata.uid,
        controller: true,
        blockOwnerDeletion: true
      }
    ]);
    expect(api.list('Pod')).toHaveLength(2);
    api.patch(
      'Pod',
      'default',
      'orphan',
      { metadata: { labels: { app: 'debug' } } },
      { component: 'kubectl' }
    );
    cluster.advance(1);
    expect(api.get<KubeObject>('Pod', 'default', 'orphan').metadata.ownerReferences).toBeUndefined();
    expect(api.list<KubeObject>('Pod', { labelSelector: 'app=web' })).toHaveLength(2);
    expect(api.list('Pod')).toHaveLength(3);
  });
});

describe('replicaset controller pod counts', () => {
  // upstream: pkg/controller/replicaset/replica_set.go (syncReplicaSet reads the pods from the
  // informer's cache; calculateStatus counts replicas, fullyLabeledReplicas, readyReplicas and
  // availableReplicas over the active pods)
  it('keeps the counts it syncs from equal to a count of the pods through releases, adoptions and deletes', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    const kcm = cluster.component<KubeControllerManager>('kube-controller-manager')!;
    const rsc = kcm.controller<ReplicaSetController>('replicaset-controller');
    const user = { component: 'kubectl' };
    api.create(rs(3));
    cluster.advance(5_000);
    expect(rsc.countsDrift()).toEqual([]);
    const [a, b] = api.list<KubeObject>('Pod').map((p) => p.metadata.name);
    // Relabel one pod out of the selector: it is released and a replacement is created.
    api.patch('Pod', 'default', a, { metadata: { labels: { app: 'other' } } }, user);
    cluster.advance(1);
    expect(rsc.countsDrift()).toEqual([]);
    expect(api.get<KubeObject>('Pod', 'default', a).metadata.ownerReferences).toBeUndefined();
    // Relabel it back: the orphan is adopted, and one pod too many is deleted.
    api.patch('Pod', 'default', a, { metadata: { labels: { app: 'web' } } }, user);
    cluster.advance(1);
    expect(rsc.countsDrift()).toEqual([]);
    expect(api.get<KubeObject>('Pod', 'default', a).metadata.ownerReferences?.[0].name).toBe('web');
    harness.kill(api.get<KubeObject>('Pod', 'default', b).spec.nodeName);
    api.delete('Pod', 'default', b, {}, user);
    cluster.advance(60_000);
    expect(rsc.countsDrift()).toEqual([]);
    const active = api.list<KubeObject>('Pod').filter((p) => !p.metadata.deletionTimestamp);
    expect(active).toHaveLength(3);
    expect(api.get<KubeObject>('ReplicaSet', 'default', 'web').status.replicas).toBe(3);
  });
});

describe('replicaset controller waiting for client tokens', () => {
  // The controller's client allows 30 requests at once and 20 a second after (client-go's token
  // bucket with kube-controller-manager's --kube-api-burst 30 / --kube-api-qps 20).
  function run(shortcut: boolean, scaleAt?: number) {
    const { cluster } = testCluster({ nodes: ['w1'], schedule: false });
    const api = cluster.api;
    const rsc = cluster
      .component<KubeControllerManager>('kube-controller-manager')!
      .controller<ReplicaSetController>('replicaset-controller');
    const skipped = { n: 0 };
    const own = (rsc as unknown as { stillWaiting: (k: string, w: unknown) => boolean }).stillWaiting.bind(
      rsc
    );
    (rsc as unknown as { stillWaiting: (k: string, w: unknown) => boolean }).stillWaiting = (k, w) => {
      if (!shortcut) return false;
      const yes = own(k, w);
      if (yes) skipped.n++;
      return yes;
    };
    // Every ReplicaSet version written, with its time.
    const written: string[] = [];
    api.watch('ReplicaSet', (_type, o) =>
      written.push(`${cluster.now} ${o.metadata.name} ${o.metadata.generation} ${JSON.stringify(o.status)}`)
    );
    for (const name of ['a', 'b']) {
      const o = rs(40);
      o.metadata.name = name;
      o.spec.selector = { matchLabels: { app: name } };
      o.spec.template.metadata.labels = { app: name };
      api.create(o);
    }
    if (scaleAt !== undefined) {
      // 'b' changes while it waits for a token: the next sync must read it again.
      cluster.advance(scaleAt);
      api.patch('ReplicaSet', 'default', 'b', { spec: { replicas: 35 } }, { component: 'kubectl' });
    }
    cluster.advance(5_000);
    const created = cluster.eventLog
      .filter((e) => e.reason === 'SuccessfulCreate')
      .map((e) => `${e.t} ${e.object.split('/').pop()}`);
    const statuses = ['a', 'b'].map((n) => api.get<KubeObject>('ReplicaSet', 'default', n).status);
    return {
      created,
      statuses,
      written,
      skipped: skipped.n,
      log: cluster.eventLog.map((e) => `${e.t} ${e.message}`)
    };
  }

  it('creates the first 30 pods at once and one every 50 ms after, the same with and without the shortcut', () => {
    const fast = run(true);
    const slow = run(false);
    // Each 50 ms, 'b' (throttled, nothing changed) is synced only to wait for the next token.
    expect(fast.skipped).toBeGreaterThan(0);
    expect(fast.log).toEqual(slow.log);
    expect(fast.written).toEqual(slow.written);
    expect(fast.statuses).toEqual(slow.statuses);
    expect(fast.created).toHaveLength(80);
    const at = (i: number) => Number(fast.created[i].split(' ')[0]);
    expect(at(29)).toBe(at(0));
    // The bucket is empty after the burst: the 31st pod waits 50 ms, the 80th 50 × 50 ms.
    expect(at(30) - at(0)).toBe(50);
    expect(at(79) - at(0)).toBe(2_500);
    expect(fast.statuses.map((s) => s.replicas)).toEqual([40, 40]);
  });

  it('reads a ReplicaSet again when it changed while it waited for a token', () => {
    const fast = run(true, 230);
    const slow = run(false, 230);
    expect(fast.skipped).toBeGreaterThan(0);
    expect(fast.written).toEqual(slow.written);
    expect(fast.log).toEqual(slow.log);
    expect(fast.statuses).toEqual(slow.statuses);
    expect(fast.statuses.map((s) => s.replicas)).toEqual([40, 35]);
  });
});
