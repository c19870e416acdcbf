/**
 * Events expire an hour after their last write (kube-apiserver --event-ttl=1h,
 * cmd/kube-apiserver/app/options/options.go), through etcd leases that kube-apiserver's lease
 * manager reuses for a minute (staging/src/k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go:
 * newDefaultLeaseManager(client, 60, 0.05)), revoked by etcd's lessor (server/lease/lessor.go).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { Etcd } from '../etcd/etcd';
import { EVENT_TTL_MS, EventLeases } from './event-ttl';
import type { KubeObject } from './types';

const node = { kind: 'Node', metadata: { name: 'worker-1', uid: 'uid-worker-1' } };
const source = { component: 'kubelet', host: 'worker-1' };

function events(c: Cluster): KubeObject[] {
  return c.api.list<KubeObject>('Event');
}

describe("the lease manager's reuse of a lease", () => {
  it('gives the writes of one minute one lease, expiring 1h1m after the first of them', () => {
    const l = new EventLeases();
    expect(l.attach('default/a', 0)).toBe(3_660_000);
    expect(l.attach('default/b', 30_000)).toBeUndefined();
    expect(l.attach('default/c', 59_999)).toBeUndefined();
    // At 60 s the lease would no longer outlive the write by the TTL: a new one.
    expect(l.attach('default/d', 60_000)).toBe(3_720_000);
    expect(l.revokeExpired(3_659_999)).toEqual([]);
    expect(l.revokeExpired(3_660_000)).toEqual(['default/a', 'default/b', 'default/c']);
    expect(l.revokeExpired(3_720_000)).toEqual(['default/d']);
  });

  it('moves a rewritten key to the new lease, and a deleted key off its lease', () => {
    const l = new EventLeases();
    l.attach('default/a', 0);
    l.attach('default/b', 0);
    l.attach('default/a', 120_000);
    l.detach('default/b');
    expect(l.revokeExpired(3_660_000)).toEqual([]);
    expect(l.revokeExpired(3_780_000)).toEqual(['default/a']);
  });

  it('the lessor looks on its 500 ms ticks', () => {
    expect(EventLeases.checkAt(3_660_000)).toBe(3_660_000);
    expect(EventLeases.checkAt(3_660_001)).toBe(3_660_500);
  });
});

describe('Events in the API server', () => {
  it('are deleted an hour (and up to a minute) after their last write; watchers see DELETED', () => {
    const c = new Cluster();
    c.runUntil(10_000);
    c.recorder.event(node, 'Normal', 'NodeReady', 'Node worker-1 status is now: NodeReady', source);
    const [ev] = events(c);
    const seen: string[] = [];
    c.api.watch('Event', (type, o) => seen.push(`${type} ${o.metadata.name} ${c.now}`));
    c.runUntil(10_000 + EVENT_TTL_MS);
    expect(events(c)).toHaveLength(1);
    // Granted at 10 s with the minute of reuse on top: 1h1m10s.
    c.runUntil(10_000 + EVENT_TTL_MS + 60_000);
    expect(events(c)).toEqual([]);
    expect(seen).toEqual([`DELETED ${ev.metadata.name} ${10_000 + EVENT_TTL_MS + 60_000}`]);
  });

  it('a repeat starts the hour again, and a repeat after expiry creates the Event again under its name with the next count', () => {
    const c = new Cluster();
    const say = () =>
      c.recorder.event(node, 'Warning', 'BackOff', 'Back-off restarting failed container', source);
    c.runUntil(1_000);
    say();
    const [first] = events(c);
    c.runUntil(1_800_000);
    say();
    c.runUntil(3_700_000);
    // The second write's lease (granted at 30 min) has an hour to go.
    expect(events(c).map((e) => [e.metadata.name, e.count])).toEqual([[first.metadata.name, 2]]);
    c.runUntil(1_800_000 + EVENT_TTL_MS + 60_000);
    expect(events(c)).toEqual([]);
    c.runUntil(6_000_000);
    say();
    const [again] = events(c);
    expect(again.metadata.name).toBe(first.metadata.name);
    expect(again.count).toBe(3);
    expect(again.firstTimestamp).toBe(first.firstTimestamp);
    expect(again.lastTimestamp).toBe('2026-01-01T01:40:00Z');
    expect(c.eventLog.map((e) => e.count)).toEqual([1, 2, 3]);
  });

  it('do not expire while etcd has no quorum: the lessor revokes them once it is back', () => {
    const c = new Cluster({ ...new Cluster().config }, Etcd.withMembers(3));
    c.recorder.event(node, 'Normal', 'NodeReady', 'Node worker-1 status is now: NodeReady', source);
    c.runUntil(120_000);
    c.recorder.event(node, 'Normal', 'Rebooted', 'Node worker-1 has been rebooted, boot id: 1', source);
    c.runUntil(3_000_000);
    c.etcd.stop('etcd-1');
    c.etcd.stop('etcd-2');
    c.runUntil(4_000_000);
    expect(events(c)).toHaveLength(2);
    // Both leases came due without quorum: one tick of the lessor is queued, not one per lease.
    expect(c.engine.snapshot().queue.filter((e) => e.target === 'etcd-lessor')).toHaveLength(1);
    c.etcd.start('etcd-1');
    c.runUntil(4_000_500);
    expect(events(c)).toEqual([]);
  });

  it('a restored snapshot expires the same Events at the same time', () => {
    const c = new Cluster();
    c.recorder.event(node, 'Normal', 'NodeReady', 'Node worker-1 status is now: NodeReady', source);
    c.runUntil(120_000);
    c.recorder.event(node, 'Normal', 'Rebooted', 'Node worker-1 has been rebooted, boot id: 1', source);
    const r = Cluster.restore(JSON.parse(JSON.stringify(c.snapshot())));
    for (const x of [c, r]) x.runUntil(3_660_000);
    expect(events(r).map((e) => e.reason)).toEqual(['Rebooted']);
    expect(events(c).map((e) => e.reason)).toEqual(['Rebooted']);
    // A snapshot taken after the first lease was revoked keeps the second.
    c.runUntil(3_700_000);
    c.recorder.event(node, 'Normal', 'NodeNotReady', 'Node worker-1 status is now: NodeNotReady', source);
    const r2 = Cluster.restore(JSON.parse(JSON.stringify(c.snapshot())));
    for (const x of [c, r, r2]) x.runUntil(3_780_000);
    expect(events(r)).toEqual([]);
    expect(events(c).map((e) => e.reason)).toEqual(['NodeNotReady']);
    expect(events(r2).map((e) => e.reason)).toEqual(['NodeNotReady']);
    for (const x of [c, r2]) x.runUntil(3_700_000 + EVENT_TTL_MS + 60_000);
    expect(events(c)).toEqual([]);
    expect(events(r2)).toEqual([]);
  });
});
