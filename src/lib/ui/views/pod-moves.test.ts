import { describe, expect, it } from 'vitest';
import type { LabView, NodeView, PodView } from '$lib/sim/observe';
import { PodMoveTracker } from './pod-moves';

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
