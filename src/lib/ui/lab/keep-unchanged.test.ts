import { describe, expect, it } from 'vitest';
import { keepUnchanged } from './keep-unchanged';

const pod = (name: string, status = 'Running') => ({
  key: `default/${name}`,
  name,
  namespace: 'default',
  status,
  terminating: false
});

describe('keepUnchanged', () => {
  it('returns the previous object when the next one holds the same JSON', () => {
    const prev = { name: 'worker-1', pods: [pod('a'), pod('b')], taints: [] };
    const next = structuredClone(prev);
    expect(keepUnchanged(next, prev)).toBe(prev);
  });

  it('keeps unchanged parts of a changed object: a heartbeat leaves the pods and bars as they were', () => {
    const prev = {
      name: 'worker-1',
      leaseRenewedAt: 10_000,
      pods: [pod('a'), pod('b')],
      bars: [{ name: 'cpu', used: 1 }]
    };
    const next = { ...structuredClone(prev), leaseRenewedAt: 20_000 };
    const kept = keepUnchanged(next, prev);
    expect(kept).not.toBe(prev);
    expect(kept.leaseRenewedAt).toBe(20_000);
    expect(kept.pods).toBe(prev.pods);
    expect(kept.bars).toBe(prev.bars);
  });

  it('replaces only the pod that changed', () => {
    const prev = { pods: [pod('a'), pod('b'), pod('c')] };
    const next = { pods: [pod('a'), pod('b', 'Terminating'), pod('c')] };
    const kept = keepUnchanged(next, prev);
    expect(kept.pods).not.toBe(prev.pods);
    expect(kept.pods[0]).toBe(prev.pods[0]);
    expect(kept.pods[1]).toEqual(pod('b', 'Terminating'));
    expect(kept.pods[1]).not.toBe(prev.pods[1]);
    expect(kept.pods[2]).toBe(prev.pods[2]);
  });

  it('matches items by key or name, so an item added in front does not change the ones after it', () => {
    const prev = { pods: [pod('b'), pod('c')] };
    const next = { pods: [pod('a'), pod('b'), pod('c')] };
    const kept = keepUnchanged(next, prev);
    expect(kept.pods).toHaveLength(3);
    expect(kept.pods[0]).toEqual(pod('a'));
    expect(kept.pods[1]).toBe(prev.pods[0]);
    expect(kept.pods[2]).toBe(prev.pods[1]);
  });

  it('sees a removed item, a removed field and an added field as changes', () => {
    const prev = { pods: [pod('a'), pod('b')], evictionIn: 5 as number | undefined };
    const fewer = keepUnchanged({ pods: [pod('a')], evictionIn: 5 }, prev);
    expect(fewer.pods).toEqual([pod('a')]);
    expect(fewer.pods[0]).toBe(prev.pods[0]);
    const noField: { pods: ReturnType<typeof pod>[]; evictionIn?: number } = { pods: [pod('a'), pod('b')] };
    const kept = keepUnchanged(noField, prev);
    expect(kept).not.toBe(prev);
    expect('evictionIn' in kept).toBe(false);
    expect(kept.pods).toBe(prev.pods);
    const extra = keepUnchanged<Record<string, unknown>>({ ...structuredClone(prev), readySince: 1 }, prev);
    expect(extra).not.toBe(prev);
    expect(extra).toMatchObject({ readySince: 1 });
  });

  it('takes the next value where the previous is missing or of another shape', () => {
    const next = { a: [1, 2], b: { c: 1 } };
    expect(keepUnchanged(next, undefined)).toBe(next);
    expect(keepUnchanged({ a: [1] }, { a: { 0: 1 } } as unknown as { a: number[] }).a).toEqual([1]);
    expect(keepUnchanged([1, 2, 3], [1, 2])).toEqual([1, 2, 3]);
  });
});
