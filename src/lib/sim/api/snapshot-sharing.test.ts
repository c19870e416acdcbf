import { describe, expect, it } from 'vitest';
import { copySharingFrozen, deepFreeze, freezeForSnapshot, isSnapshotCopy } from './types';

describe('freezeForSnapshot', () => {
  const stored = deepFreeze({ kind: 'Pod', metadata: { name: 'web-a' } });

  it('copies mutable state into frozen copies and shares frozen data as it is', () => {
    const live = { pods: { 'default/web-a': { restarts: 0, containers: [{ name: 'nginx' }] } }, stored };
    const snap = freezeForSnapshot(live, undefined);
    expect(snap).toEqual(live);
    expect(snap).not.toBe(live);
    expect(Object.isFrozen(snap.pods['default/web-a'].containers[0])).toBe(true);
    expect(isSnapshotCopy(snap.pods)).toBe(true);
    expect(snap.stored).toBe(stored);
    expect(isSnapshotCopy(snap.stored)).toBe(false);
    // The live state stays mutable.
    live.pods['default/web-a'].restarts = 1;
    expect(snap.pods['default/web-a'].restarts).toBe(0);
  });

  it('reuses the previous snapshot’s copies where the state is the same, copies only what changed', () => {
    const live = {
      pods: { a: { restarts: 0 }, b: { restarts: 0 } },
      journal: [1, 2, 3],
      order: ['a', 'b']
    };
    const first = freezeForSnapshot(live, undefined);
    live.pods.b.restarts = 2;
    live.journal.push(4);
    const second = freezeForSnapshot(live, first);
    expect(second).toEqual(live);
    expect(second.pods.a).toBe(first.pods.a);
    expect(second.order).toBe(first.order);
    expect(second.pods.b).not.toBe(first.pods.b);
    expect(second.journal).toEqual([1, 2, 3, 4]);
    expect(first.journal).toEqual([1, 2, 3]);
    // Nothing changed: the previous snapshot itself.
    expect(freezeForSnapshot(live, second)).toBe(second);
  });

  it('sees added, removed and reordered keys as changes', () => {
    const first = freezeForSnapshot({ a: 1, b: 2 } as Record<string, number>, undefined);
    expect(freezeForSnapshot({ b: 2, a: 1 }, first)).not.toBe(first);
    expect(freezeForSnapshot({ a: 1 }, first)).toEqual({ a: 1 });
    expect(freezeForSnapshot({ a: 1, b: 2, c: 3 }, first)).toEqual({ a: 1, b: 2, c: 3 });
  });

  it('does not take frozen data at the same place for a copy of mutable state', () => {
    const prev = { state: stored };
    const live = { state: { kind: 'Pod', metadata: { name: 'web-a' } } };
    const snap = freezeForSnapshot(live, prev);
    expect(snap.state).not.toBe(stored);
    expect(isSnapshotCopy(snap.state)).toBe(true);
  });

  it('a restore (copySharingFrozen) gives mutable state back and keeps sharing frozen data', () => {
    const snap = freezeForSnapshot({ pods: { a: { restarts: 0 } }, stored }, undefined);
    const restored = copySharingFrozen(snap);
    expect(restored).toEqual(snap);
    expect(Object.isFrozen(restored.pods.a)).toBe(false);
    restored.pods.a.restarts = 5;
    expect(snap.pods.a.restarts).toBe(0);
    expect(restored.stored).toBe(stored);
  });
});
