import { describe, expect, it } from 'vitest';
import type { LabView, NodeView, PodView } from '$lib/sim/observe';
import { readFileSync } from 'node:fs';
import { createCluster } from '$lib/sim/scenario';
import { ViewBuilder } from '$lib/sim/observe/cluster-map';
import { PodMoveTracker, type PodMove } from './pod-moves';

const pod = (name: string, owner = 'ReplicaSet/web-7d4', terminating = false) =>
  ({ key: `default/${name}`, name, owner, terminating }) as PodView;
const view = (now: number, nodes: Record<string, PodView[]>) =>
  ({ now, nodes: Object.entries(nodes).map(([name, pods]) => ({ name, pods }) as NodeView) }) as LabView;

describe('PodMoveTracker', () => {
  it('pairs a pod that left a node with its owner’s next new pod on another node', () => {
    const m = new PodMoveTracker();
    expect(m.update(view(0, { 'worker-1': [pod('web-a'), pod('web-b')], 'worker-2': [] }))).toEqual([]);
    // web-a is evicted (Terminating): it has left worker-1.
    expect(
      m.update(view(1000, { 'worker-1': [pod('web-a', undefined, true), pod('web-b')], 'worker-2': [] }))
    ).toEqual([]);
    expect(m.update(view(2000, { 'worker-1': [pod('web-b')], 'worker-2': [pod('web-c')] }))).toEqual([
      { key: 'default/web-c', from: 'worker-1', to: 'worker-2' }
    ]);
  });

  it('reads a frame that changed no node (the same nodes array) as no moves, and still sees the next one', () => {
    const m = new PodMoveTracker();
    const first = view(0, { 'worker-1': [pod('web-a')], 'worker-2': [] });
    m.update(first);
    const gone = view(1000, { 'worker-1': [], 'worker-2': [] });
    expect(m.update(gone)).toEqual([]);
    expect(m.update({ ...gone, now: 1500 })).toEqual([]);
    expect(m.update(view(2000, { 'worker-1': [], 'worker-2': [pod('web-b')] }))).toEqual([
      { key: 'default/web-b', from: 'worker-1', to: 'worker-2' }
    ]);
  });

  it('ignores the first view, replacements on the same node, other owners and old departures', () => {
    const m = new PodMoveTracker();
    expect(m.update(view(0, { 'worker-1': [pod('web-a')], 'worker-2': [pod('web-b')] }))).toEqual([]);
    m.update(view(1000, { 'worker-1': [], 'worker-2': [pod('web-b')] }));
    expect(m.update(view(2000, { 'worker-1': [pod('web-c')], 'worker-2': [pod('web-b')] }))).toEqual([]);
    expect(
      m.update(
        view(3000, { 'worker-1': [pod('web-c')], 'worker-2': [pod('web-b'), pod('db-0', 'StatefulSet/db')] })
      )
    ).toEqual([]);
    m.update(view(4000, { 'worker-1': [], 'worker-2': [pod('web-b'), pod('db-0', 'StatefulSet/db')] }));
    expect(
      m.update(
        view(4000 + 5 * 60_000 + 1, {
          'worker-1': [],
          'worker-2': [pod('web-b'), pod('web-d'), pod('db-0', 'StatefulSet/db')]
        })
      )
    ).toEqual([]);
  });

  it('forgets the past after a jump back in time', () => {
    const m = new PodMoveTracker();
    m.update(view(10_000, { 'worker-1': [pod('web-a')], 'worker-2': [] }));
    m.update(view(11_000, { 'worker-1': [], 'worker-2': [] }));
    expect(m.update(view(5_000, { 'worker-1': [], 'worker-2': [pod('web-z')] }))).toEqual([]);
  });
});

// upstream: pkg/controller/tainteviction/taint_eviction.go (the pods are deleted 300 s after the
// unreachable taint), pkg/controller/replicaset/replica_set.go (their replacements)
describe('PodMoveTracker on a real eviction', () => {
  it("heartbeat loss: each evicted pod's replacement that is bound elsewhere moves from worker-2", () => {
    const text = readFileSync(new URL('../../../../scenarios/heartbeat-loss.yaml', import.meta.url), 'utf8');
    const { cluster } = createCluster(text);
    const m = new PodMoveTracker();
    const b = new ViewBuilder(cluster);
    const moves: PodMove[] = [];
    let before = new Set<string>();
    for (let t = 0; t <= 8 * 60_000; t += 5_000) {
      cluster.runUntil(t);
      const v = b.build();
      if (t === 60_000) before = new Set(v.nodes.flatMap((n) => n.pods.map((p) => p.key)));
      moves.push(...m.update(v));
    }
    // calico-kube-controllers, evicted from worker-2, is replaced on another node (with
    // control-plane-1 a Node, CoreDNS' replicas start on worker-1 and worker-3, not worker-2; the
    // web replacement does not fit: Pending).
    const end = b.build();
    const replaced = end.nodes
      .filter((n) => n.name !== 'worker-2')
      .flatMap((n) => n.pods.map((p) => ({ key: p.key, owner: p.owner, node: n.name })))
      .filter((p) => !before.has(p.key) && p.owner?.startsWith('ReplicaSet/'));
    expect(replaced.map((p) => p.owner)).toEqual(['ReplicaSet/calico-kube-controllers-7f4d6c8bbb']);
    expect(end.pendingPods.map((p) => p.owner)).toEqual(['ReplicaSet/web-85c8945bd9']);
    expect(moves).toEqual(replaced.map((p) => ({ key: p.key, from: 'worker-2', to: p.node })));
  });
});
