import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { ApiError } from './errors';
import type { KubeObject } from './types';
import { parseQuantity, formatBytes } from './quantity';

const pod = (name: string, nodeName?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web' } },
  spec: { nodeName, containers: [{ name: 'c', image: 'nginx:1.27' }] },
  status: { phase: 'Pending' }
});

describe('ApiServer', () => {
  it('assigns uid, resourceVersion and creationTimestamp; rejects stale updates with 409', () => {
    const c = new Cluster();
    const p = c.api.create(pod('a'));
    expect(p.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    const stale = structuredClone(p);
    const upd = structuredClone(p);
    upd.metadata.labels = { app: 'web2' };
    c.api.update(upd);
    stale.metadata.labels = { app: 'web3' };
    expect(() => c.api.update(stale)).toThrowError(
      'Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again'
    );
  });

  it('lists with label and field selectors, and indexes pods by node', () => {
    const c = new Cluster();
    c.api.create(pod('a', 'n1'));
    c.api.create(pod('b', 'n2'));
    expect(c.api.list('Pod', { fieldSelector: 'spec.nodeName=n1' }).map((p) => p.metadata.name)).toEqual([
      'a'
    ]);
    expect(c.api.list('Pod', { labelSelector: 'app in (web)' })).toHaveLength(2);
    expect(c.api.list('Pod', { fieldSelector: 'metadata.name!=a' }).map((p) => p.metadata.name)).toEqual([
      'b'
    ]);
  });

  it('deletes a bound pod gracefully and an unbound pod at once', () => {
    const c = new Cluster();
    c.api.create(pod('bound', 'n1'));
    c.api.create(pod('free'));
    c.api.delete('Pod', 'default', 'bound');
    c.api.delete('Pod', 'default', 'free');
    const b = c.api.get('Pod', 'default', 'bound');
    expect(b.metadata.deletionTimestamp).toBe('2026-01-01T00:00:30Z');
    expect(b.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(c.api.tryGet('Pod', 'default', 'free')).toBeUndefined();
  });

  it('refuses writes without etcd quorum and says why', () => {
    const c = new Cluster();
    c.etcd.stop('etcd-0');
    try {
      c.api.create(pod('x'));
      expect.unreachable();
    } catch (e) {
      expect((e as ApiError).kubectlMessage()).toBe('Error from server: etcdserver: request timed out');
    }
    expect(c.api.readsMayBeStale).toBe(true);
  });

  it('counts requests per verb and resource', () => {
    const c = new Cluster();
    c.api.create(pod('a'), { component: 'kubectl' });
    c.api.patch('Pod', 'default', 'a', { metadata: { labels: { x: 'y' } } }, { component: 'kubectl' });
    expect(c.api.requestCounts()['create pods']).toBe(1);
    expect(c.api.requestCounts()['patch pods']).toBe(1);
  });

  it('forbids writes from inside watch handlers', () => {
    const c = new Cluster();
    c.api.watch('Pod', () => c.api.create(pod('loop')));
    expect(() => c.api.create(pod('a'))).toThrow(/watch handler/);
  });
});

describe('quantity', () => {
  it('parses and formats', () => {
    expect(parseQuantity('500m')).toBe(500);
    expect(parseQuantity('2')).toBe(2000);
    expect(parseQuantity('1Gi')).toBe(2 ** 30 * 1000);
    expect(formatBytes(parseQuantity('28.5Gi'))).toBe('29184Mi');
    expect(() => parseQuantity('-x')).toThrow(/quantities must match/);
  });
});

describe('ApiServer deletes and snapshots', () => {
  it('re-deleting a terminating pod on the same terms writes nothing', () => {
    const c = new Cluster();
    c.api.create(pod('bound', 'n1'));
    c.api.delete('Pod', 'default', 'bound');
    const rv = c.api.resourceVersion;
    let notified = 0;
    c.api.watch('Pod', () => notified++);
    c.api.delete('Pod', 'default', 'bound');
    expect(c.api.resourceVersion).toBe(rv);
    expect(notified).toBe(0);
    c.api.delete('Pod', 'default', 'bound', { gracePeriodSeconds: 5 });
    expect(c.api.get('Pod', 'default', 'bound').metadata.deletionGracePeriodSeconds).toBe(5);
  });

  it('a restored cluster draws the same uids and names as the original', () => {
    const a = new Cluster();
    a.api.create(pod('x'));
    const snap = JSON.parse(JSON.stringify(a.snapshot()));
    const mk = (c: Cluster): KubeObject =>
      c.api.create<KubeObject>({ ...pod(''), metadata: { name: '', generateName: 'web-' } });
    const fromOriginal = mk(a);
    const fromRestored = mk(Cluster.restore(snap));
    expect(fromRestored.metadata.name).toBe(fromOriginal.metadata.name);
    expect(fromRestored.metadata.uid).toBe(fromOriginal.metadata.uid);
  });
});

describe('ApiServer owner index', () => {
  it('lists objects by their controller and keeps the index through updates and deletes', () => {
    const c = new Cluster();
    const owned = (name: string, uid: string): KubeObject => ({
      ...pod(name),
      metadata: {
        name,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }]
      }
    });
    c.api.create(owned('a', 'rs-1'));
    c.api.create(owned('b', 'rs-1'));
    c.api.create(pod('orphan'));
    expect(c.api.listByController('Pod', 'rs-1').map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(c.api.listByController('Pod', '').map((p) => p.metadata.name)).toEqual(['orphan']);
    c.api.patch('Pod', 'default', 'a', { metadata: { ownerReferences: null } });
    c.api.delete('Pod', 'default', 'b');
    expect(c.api.listByController('Pod', 'rs-1')).toEqual([]);
    expect(
      c.api
        .listByController('Pod', '')
        .map((p) => p.metadata.name)
        .sort()
    ).toEqual(['a', 'orphan']);
  });

  it('indexes objects without a controller only of the kinds controllers adopt', () => {
    const c = new Cluster();
    c.api.create(pod('orphan'));
    c.api.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'n1', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'n1' }
    });
    c.api.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'n2', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'n2' }
    });
    expect(c.api.listByController('Pod', '').map((p) => p.metadata.name)).toEqual(['orphan']);
    // No controller adopts a Lease: none is kept in the index, and a snapshot carries no order for them.
    expect(c.api.listByController('Lease', '')).toEqual([]);
    expect(c.api.snapshot().indexOrder?.owned.Lease).toBeUndefined();
    expect(c.api.list('Lease').map((l) => l.metadata.name)).toEqual(['n1', 'n2']);
  });
});

describe('ApiServer copy on write', () => {
  it('a status write keeps the stored spec and labels objects; what changed is new', () => {
    const c = new Cluster();
    const v1 = c.api.create(pod('a', 'n1'));
    const upd = structuredClone(v1) as KubeObject;
    upd.status = { phase: 'Running' };
    const v2 = c.api.update(upd, undefined, { subresource: 'status' });
    expect(v2.spec).toBe(v1.spec);
    expect(v2.metadata.labels).toBe(v1.metadata.labels);
    expect(v2.status).not.toBe(v1.status);
    expect(v2.status).toEqual({ phase: 'Running' });
    expect(v2.metadata).not.toBe(v1.metadata);
    expect(v2.metadata.resourceVersion).not.toBe(v1.metadata.resourceVersion);
    expect(Object.isFrozen(v2.status)).toBe(true);
  });

  it('shares only what has the same keys in the same order, so the stored JSON is what was written', () => {
    const c = new Cluster();
    const v1 = c.api.create({ ...pod('a'), metadata: { name: 'a', labels: { app: 'web', tier: 'fe' } } });
    const upd = structuredClone(v1) as KubeObject;
    upd.metadata.labels = { tier: 'fe', app: 'web' };
    const v2 = c.api.update(upd);
    expect(v2.metadata.labels).not.toBe(v1.metadata.labels);
    expect(Object.keys(v2.metadata.labels!)).toEqual(['tier', 'app']);
    // An array that grew is new; its unchanged elements are the stored ones.
    const taint = { key: 'a', effect: 'NoSchedule' };
    const n1 = c.api.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { taints: [taint] }
    });
    const n = structuredClone(n1) as KubeObject;
    n.spec.taints.push({ key: 'b', effect: 'NoExecute' });
    const n2 = c.api.update(n);
    expect(n2.spec.taints).not.toBe(n1.spec.taints);
    expect(n2.spec.taints[0]).toBe(n1.spec.taints[0]);
  });

  it('lists a controller’s objects in the store’s order when asked, whatever order updates left in the index', () => {
    const c = new Cluster();
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true };
    for (const name of ['x', 'y', 'z'])
      c.api.create({ ...pod(name), metadata: { name, ownerReferences: [owner] } });
    const x = structuredClone(c.api.get<KubeObject>('Pod', 'default', 'x'));
    x.status = { phase: 'Running' };
    c.api.update(x, undefined, { subresource: 'status' });
    const names = (order: 'index' | 'list') =>
      c.api.listByController('Pod', 'u1', 'default', { order }).map((p) => p.metadata.name);
    expect(names('index')).toEqual(['y', 'z', 'x']);
    expect(names('list')).toEqual(['x', 'y', 'z']);
    expect(c.api.list('Pod').map((p) => p.metadata.name)).toEqual(['x', 'y', 'z']);
  });
});
