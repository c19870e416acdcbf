import { describe, expect, it } from 'vitest';
import { deepFreeze, type KubeObject } from '../api/types';
import { SchedulerCache } from './cache';
import { makeNode, makePod } from './testing';

/** The Node after a kubelet heartbeat: a new object that keeps its stored labels and image list. */
function heartbeat(n: KubeObject, at: string): KubeObject {
  return deepFreeze({
    ...n,
    status: { ...n.status, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: at }] }
  });
}

describe('SchedulerCache.upsertNode', () => {
  const images = [{ names: ['nginx:1.27'], sizeBytes: 70_000_000 }];
  const build = () => {
    const cache = new SchedulerCache({ minor: 35 });
    const nodes = ['a', 'b', 'c'].map((name) =>
      deepFreeze(makeNode(name, { labels: { 'topology.kubernetes.io/zone': `z-${name}` }, images }))
    );
    for (const n of nodes) cache.upsertNode(n);
    cache.addPod(makePod('p', { cpu: '1' }), 'b');
    return { cache, nodes };
  };

  it('keeps the handle through a heartbeat, with the new Node and the same pods and images', () => {
    const { cache, nodes } = build();
    const h = cache.handle;
    const b2 = heartbeat(nodes[1], '2026-01-01T00:00:10Z');
    cache.upsertNode(b2);
    expect(cache.handle).toBe(h);
    const ni = cache.nodeInfo('b')!;
    expect(h.nodeByName.get('b')).toBe(ni);
    expect(h.nodes.indexOf(ni)).toBeGreaterThanOrEqual(0);
    expect(ni.node).toBe(b2);
    expect(ni.pods.map((p) => p.key)).toEqual(['default/p']);
    expect(ni.requested.cpu).toBe(1000);
    expect([...ni.images.keys()]).toEqual(['nginx:1.27']);
  });

  it('keeps it for an equal image list in a new array, and builds it again when the zone moves', () => {
    const { cache, nodes } = build();
    const h = cache.handle;
    cache.upsertNode(deepFreeze({ ...nodes[0], status: { ...nodes[0].status, images: [...images] } }));
    expect(cache.handle).toBe(h);
    cache.upsertNode(
      deepFreeze({
        ...nodes[2],
        metadata: { ...nodes[2].metadata, labels: { 'topology.kubernetes.io/zone': 'z-a' } }
      })
    );
    const rebuilt = cache.handle;
    expect(rebuilt).not.toBe(h);
    expect(rebuilt.nodes.map((n) => n.name).sort()).toEqual(['a', 'b', 'c']);
  });
});
