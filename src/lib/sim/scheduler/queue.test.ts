import { describe, expect, it } from 'vitest';
import { KeyedHeap } from './heap';
import { MAX_IN_UNSCHEDULABLE_MS, SchedulingQueue, backoffDuration, type QueueState } from './queue';

const failure = (plugins: string[], unschedulable = true) => ({
  unschedulable,
  plugins,
  initialMs: 1000,
  maxMs: 10_000,
  moveRequested: false
});

function drain(q: SchedulingQueue): string[] {
  const out: string[] = [];
  for (let p = q.peekActive(); p; p = q.peekActive()) {
    out.push(p.key);
    q.remove(p.key);
  }
  return out;
}

describe('KeyedHeap', () => {
  it('pops in order, removes and re-sorts entries by key', () => {
    const h = new KeyedHeap<{ k: string; v: number }>((a, b) => a.v < b.v || (a.v === b.v && a.k < b.k));
    for (const [k, v] of [
      ['a', 5],
      ['b', 1],
      ['c', 3],
      ['d', 3],
      ['e', 9]
    ] as const)
      h.upsert(k, { k, v });
    h.delete('c');
    h.upsert('e', { k: 'e', v: 0 });
    const out: string[] = [];
    for (let x = h.pop(); x; x = h.pop()) out.push(x.k);
    expect(out).toEqual(['e', 'b', 'd', 'a']);
    expect(h.size).toBe(0);
  });
});

describe('SchedulingQueue', () => {
  it('orders activeQ by priority, then queue time, then key', () => {
    const q = new SchedulingQueue({ pods: {} });
    q.enqueue('default/late', 0, 20);
    q.enqueue('default/b', 0, 10);
    q.enqueue('default/a', 0, 10);
    q.enqueue('default/high', 1000, 30);
    expect(drain(q)).toEqual(['default/high', 'default/a', 'default/b', 'default/late']);
  });

  it('re-sorts a queued pod whose priority changes', () => {
    const q = new SchedulingQueue({ pods: {} });
    q.enqueue('default/a', 0, 0);
    q.enqueue('default/b', 0, 5);
    q.enqueue('default/b', 100, 5);
    expect(q.peekActive()?.key).toBe('default/b');
  });

  it('backs off 1s, 2s, 4s... up to 10s and flushes backoffQ when it expires', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDuration(n, 1000, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000
    ]);
    const q = new SchedulingQueue({ pods: {} });
    q.enqueue('default/a', 0, 0);
    q.requeueAfterFailure('default/a', 0, failure([], false));
    expect(q.get('default/a')?.where).toBe('backoff');
    expect(q.flush(500)).toBe(1000);
    expect(q.hasActive()).toBe(false);
    q.flush(1000);
    expect(q.peekActive()?.key).toBe('default/a');
  });

  it('moves unschedulable pods only on events for the plugins that rejected them', () => {
    const q = new SchedulingQueue({ pods: {} });
    for (const k of ['default/fit', 'default/taint', 'default/none']) q.enqueue(k, 0, 0);
    q.requeueAfterFailure('default/fit', 0, failure(['NodeResourcesFit']));
    q.requeueAfterFailure('default/taint', 0, failure(['TaintToleration']));
    q.requeueAfterFailure('default/none', 0, failure([]));
    // Only the pod with no rejecting plugin is a candidate for an event InterPodAffinity registered.
    const asked: string[] = [];
    expect(
      q.moveOnEvent(5000, 'NodeAdd', ['InterPodAffinity'], (p) => {
        asked.push(p.key);
        return false;
      })
    ).toBe(0);
    expect(asked).toEqual(['default/none']);
    expect(q.get('default/none')?.where).toBe('unschedulable');
    expect(q.moveOnEvent(5000, 'AssignedPodDelete', ['NodeResourcesFit'])).toBe(2);
    expect(drain(q)).toEqual(['default/fit', 'default/none']);
    // Still inside its backoff: the event sends it to backoffQ, not activeQ.
    expect(q.moveOnEvent(500, 'NodeAdd', ['TaintToleration'])).toBe(1);
    expect(q.get('default/taint')?.where).toBe('backoff');
  });

  it('leaves a pod whose hint says QueueSkip in unschedulable pods', () => {
    const q = new SchedulingQueue({ pods: {} });
    for (const k of ['default/a', 'default/b']) q.enqueue(k, 0, 0);
    q.requeueAfterFailure('default/a', 0, failure(['NodeAffinity']));
    q.requeueAfterFailure('default/b', 0, failure(['NodeAffinity']));
    expect(q.moveOnEvent(5000, 'NodeUpdateNodeLabel', ['NodeAffinity'], (p) => p.key === 'default/b')).toBe(
      1
    );
    expect(q.get('default/a')?.where).toBe('unschedulable');
    expect(q.get('default/b')?.where).toBe('active');
  });

  it('flushes pods unschedulable for 5 minutes at the next 30s tick', () => {
    const q = new SchedulingQueue({ pods: {} });
    q.enqueue('default/a', 0, 0);
    q.requeueAfterFailure('default/a', 12_000, failure(['NodeResourcesFit']));
    expect(q.flush(13_000)).toBe(330_000);
    expect(q.flush(12_000 + MAX_IN_UNSCHEDULABLE_MS)).toBe(330_000);
    expect(q.get('default/a')?.where).toBe('unschedulable');
    q.flush(330_000);
    expect(q.get('default/a')?.where).toBe('active');
  });

  it('rebuilds its indexes from the JSON state (a restored snapshot)', () => {
    const state: QueueState = { pods: {} };
    const q = new SchedulingQueue(state);
    q.enqueue('default/a', 0, 0);
    q.enqueue('default/b', 0, 1);
    q.requeueAfterFailure('default/a', 0, failure(['NodeResourcesFit']));
    const restored = new SchedulingQueue(structuredClone(state));
    expect(restored.peekActive()?.key).toBe('default/b');
    expect(restored.moveOnEvent(2000, 'NodeAdd', ['NodeResourcesFit'])).toBe(1);
    expect(restored.size).toBe(2);
  });

  it('keeps the last moves of a pod with the event that made each (upstream queue metric labels)', () => {
    // upstream: pkg/scheduler/framework/events.go (BackoffComplete, UnschedulableTimeout, ScheduleAttemptFailure)
    const q = new SchedulingQueue({ pods: {} });
    q.enqueue('default/a', 0, 0);
    q.requeueAfterFailure('default/a', 1000, failure(['NodeResourcesFit']));
    q.moveOnEvent(1500, 'NodeAdd', ['NodeResourcesFit']);
    q.flush(2000);
    expect(q.get('default/a')?.moves).toEqual([
      { t: 0, event: 'UnschedulablePodAdd', from: null, to: 'active' },
      { t: 1000, event: 'ScheduleAttemptFailure', from: 'active', to: 'unschedulable' },
      { t: 1500, event: 'NodeAdd', from: 'unschedulable', to: 'backoff' },
      { t: 2000, event: 'BackoffComplete', from: 'backoff', to: 'active' }
    ]);
    q.requeueAfterFailure('default/a', 2001, failure(['NodeResourcesFit']));
    q.flush(300_000 + 2001);
    q.flush(330_000);
    expect(q.get('default/a')?.moves?.map((m) => m.event)).toEqual([
      'NodeAdd',
      'BackoffComplete',
      'ScheduleAttemptFailure',
      'UnschedulableTimeout'
    ]);
  });
});
