// upstream: staging/src/k8s.io/api/core/v1/toleration_test.go (TestTolerationToleratesTaint)
// upstream: pkg/apis/core/v1/helper/helpers_test.go (GetMatchingTolerations)
import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../types';
import { getMatchingTolerations, toleratesTaint, untoleratedTaints } from './taints';

const cases: { name: string; tol: Toleration; taint: Taint; want: boolean }[] = [
  {
    name: 'same key and effect, Exists, taint without value',
    tol: { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    taint: { key: 'foo', effect: 'NoSchedule' },
    want: true
  },
  {
    name: 'same key and effect, Exists, taint with a value',
    tol: { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    want: true
  },
  {
    name: 'same effect, empty key with Exists matches every key',
    tol: { operator: 'Exists', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    want: true
  },
  {
    name: 'same key, effect and value, Equal',
    tol: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    want: true
  },
  {
    name: 'same key and effect, different values, Equal',
    tol: { key: 'foo', operator: 'Equal', value: 'value1', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'value2', effect: 'NoSchedule' },
    want: false
  },
  {
    name: 'same key and value, different effects',
    tol: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoExecute' },
    want: false
  },
  {
    name: 'empty operator is Equal',
    tol: { key: 'foo', value: 'bar' },
    taint: { key: 'foo', value: 'bar', effect: 'PreferNoSchedule' },
    want: true
  },
  {
    name: 'empty key with Equal and an empty value matches a taint without value of any key',
    tol: { operator: 'Equal' },
    taint: { key: 'foo', effect: 'NoSchedule' },
    want: true
  },
  {
    name: 'an unknown operator tolerates nothing',
    tol: { key: 'foo', operator: 'Matches', effect: 'NoSchedule' },
    taint: { key: 'foo', effect: 'NoSchedule' },
    want: false
  }
];

describe('toleratesTaint', () => {
  for (const c of cases) it(c.name, () => expect(toleratesTaint(c.tol, c.taint)).toBe(c.want));
});

describe('getMatchingTolerations', () => {
  const taints: Taint[] = [
    { key: 'a', effect: 'NoExecute' },
    { key: 'b', effect: 'NoExecute' }
  ];
  it('returns the first tolerating toleration of each taint', () => {
    const tols: Toleration[] = [
      { key: 'b', operator: 'Exists', tolerationSeconds: 5 },
      { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 9 }
    ];
    expect(getMatchingTolerations(taints, tols)).toEqual({ allTolerated: true, used: [tols[1], tols[0]] });
  });
  it('is false with nothing used when one taint is not tolerated', () => {
    expect(getMatchingTolerations(taints, [{ key: 'a', operator: 'Exists' }])).toEqual({
      allTolerated: false,
      used: []
    });
  });
  it('untoleratedTaints keeps only the asked effects', () => {
    const t: Taint[] = [
      { key: 'x', effect: 'PreferNoSchedule' },
      { key: 'y', effect: 'NoSchedule' }
    ];
    expect(untoleratedTaints(t, [], ['NoSchedule', 'NoExecute'])).toEqual([t[1]]);
  });
});
