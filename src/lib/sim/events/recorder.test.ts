import { describe, expect, it } from 'vitest';
import { Random } from '../engine/random';
import { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { MAX_LRU_CACHE_ENTRIES, eventName } from './recorder';

const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1', uid: 'worker-1' } };
const src = { component: 'kubelet', host: 'worker-1' };

function events(c: Cluster): { name: string; reason: string; count: number; first: string; last: string }[] {
  return c.api
    .list<KubeObject>('Event', { namespace: 'default' })
    .map((e) => ({
      name: e.metadata.name,
      reason: e.reason as string,
      count: e.count as number,
      first: e.firstTimestamp as string,
      last: e.lastTimestamp as string
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

describe('event names', () => {
  it('are <object name>.<event time in UnixNano, hex>, as client-go names them', () => {
    // 2026-01-01T00:00:00Z is 1767225600000000000 ns = 0x18867251edfa0000.
    expect(eventName('worker-1', Date.UTC(2026, 0, 1))).toBe('worker-1.18867251edfa0000');
    expect(eventName('web', Date.UTC(2026, 0, 1) + 90_500, 2)).toBe('web.1886726700326902');
  });

  it('events at the same instant are a nanosecond apart; a repeat bumps count on the same Event', () => {
    const c = new Cluster();
    c.recorder.event(node, 'Normal', 'Starting', 'Starting kubelet.', src);
    c.recorder.event(
      node,
      'Normal',
      'NodeAllocatableEnforced',
      'Updated Node Allocatable limit across pods',
      src
    );
    c.engine.runUntil(90_500);
    c.recorder.event(node, 'Normal', 'NodeNotReady', 'Node worker-1 status is now: NodeNotReady', src);
    c.recorder.event(node, 'Normal', 'Starting', 'Starting kubelet.', src);
    expect(events(c)).toEqual([
      {
        name: 'worker-1.18867251edfa0000',
        reason: 'Starting',
        count: 2,
        first: '2026-01-01T00:00:00Z',
        last: '2026-01-01T00:01:30Z'
      },
      {
        name: 'worker-1.18867251edfa0001',
        reason: 'NodeAllocatableEnforced',
        count: 1,
        first: '2026-01-01T00:00:00Z',
        last: '2026-01-01T00:00:00Z'
      },
      {
        name: 'worker-1.1886726700326900',
        reason: 'NodeNotReady',
        count: 1,
        first: '2026-01-01T00:01:30Z',
        last: '2026-01-01T00:01:30Z'
      }
    ]);
    expect(c.eventLog.map((e) => [e.t, e.reason, e.count])).toEqual([
      [0, 'Starting', 1],
      [0, 'NodeAllocatableEnforced', 1],
      [90_500, 'NodeNotReady', 1],
      [90_500, 'Starting', 2]
    ]);
  });

  it('a restored cluster continues the same clock (no name is reused)', () => {
    const c = new Cluster();
    c.recorder.event(node, 'Normal', 'Starting', 'Starting kubelet.', src);
    const r = Cluster.restore(c.snapshot());
    expect(r.recorder.event(node, 'Normal', 'NodeReady', 'Node worker-1 status is now: NodeReady', src)).toBe(
      true
    );
    expect(events(r).map((e) => e.name)).toEqual(['worker-1.18867251edfa0000', 'worker-1.18867251edfa0001']);
  });
});

describe('the correlator cache', () => {
  // upstream: client-go tools/record/events_cache.go (eventLogger: lru.New(maxLruCacheEntries),
  // maxLruCacheEntries = 4096; eventObserve reads the key, then Adds it as the most recent).
  const pod = (i: number) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${i}`, namespace: 'default', uid: `uid-${i}` }
  });
  const pulled = (c: Cluster, i: number) =>
    c.recorder.event(
      pod(i),
      'Normal',
      'Pulled',
      'Container image "nginx:1.27" already present on machine',
      src
    );
  const counts = (c: Cluster, name: string) =>
    c.api
      .list<KubeObject>('Event', { namespace: 'default' })
      .filter((e) => (e.involvedObject as { name: string }).name === name)
      .map((e) => e.count);

  it('keeps the last 4,096 keys: a repeat of a key pushed out starts a new Event with count 1', () => {
    expect(MAX_LRU_CACHE_ENTRIES).toBe(4096);
    const c = new Cluster();
    pulled(c, 0);
    pulled(c, 1);
    for (let i = 2; i < MAX_LRU_CACHE_ENTRIES + 1; i++) {
      if (i === 100) pulled(c, 1); // observed again: the most recent, so p1 stays
      pulled(c, i);
    }
    // 4,097 keys seen; p0 (least recent) is out, p1 (refreshed) is in.
    pulled(c, 0);
    pulled(c, 1);
    expect(counts(c, 'p0')).toEqual([1, 1]);
    expect(counts(c, 'p1')).toEqual([3]);
    expect(c.eventLog.filter((e) => e.object === 'Pod/default/p0').map((e) => e.count)).toEqual([1, 1]);
  });

  it('evicts the least recent key through many evictions and refreshes, as an LRU list does', () => {
    const c = new Cluster();
    // The reference: an array in recency order (least recent first) and each key's count.
    const order: number[] = [];
    const count = new Map<number, number>();
    const random = new Random(7);
    for (let n = 0; n < 3 * MAX_LRU_CACHE_ENTRIES; n++) {
      const i = random.int(6000);
      const at = order.indexOf(i);
      if (at >= 0) order.splice(at, 1);
      count.set(i, at >= 0 ? count.get(i)! + 1 : 1);
      order.push(i);
      if (order.length > MAX_LRU_CACHE_ENTRIES) count.delete(order.shift()!);
      pulled(c, i);
      expect(c.eventLog[c.eventLog.length - 1].count).toBe(count.get(i));
    }
  });

  it('a restored cluster keeps the cache in its order', () => {
    const c = new Cluster();
    for (let i = 0; i < MAX_LRU_CACHE_ENTRIES; i++) pulled(c, i);
    pulled(c, 0); // p0 is now the most recent, p1 the least
    const r = Cluster.restore(c.snapshot());
    pulled(r, MAX_LRU_CACHE_ENTRIES); // pushes p1 out
    pulled(r, 0);
    pulled(r, 1);
    expect(counts(r, 'p0')).toEqual([3]);
    expect(counts(r, 'p1')).toEqual([1, 1]);
  });
});
