// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
// (TestNodeSelectorMatch, TestPreferredSchedulingTermsScore, TestRequiredNodeAffinity)
// upstream: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (NewRequirement's checks)
import { describe, expect, it } from 'vitest';
import {
  matchNodeSelectorTerms,
  podMatchesNodeSelectorAndAffinity,
  preferredTermsScore,
  type NodeLabelsAndName
} from './nodeaffinity';

const node: NodeLabelsAndName = { name: 'foo', labels: { foo: 'bar', zone: 'a', cpus: '8' } };

type Term = Parameters<typeof matchNodeSelectorTerms>[0];
const cases: { name: string; terms: Term; want: boolean }[] = [
  { name: 'no terms', terms: [], want: false },
  { name: 'an empty term matches nothing', terms: [{}], want: false },
  {
    name: 'matches a label',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }],
    want: true
  },
  {
    name: 'does not match a label',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['baz'] }] }],
    want: false
  },
  {
    name: 'matches the metadata.name field',
    terms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['foo'] }] }],
    want: true
  },
  {
    name: 'field selector with two values does not parse',
    terms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['foo', 'bar'] }] }],
    want: false
  },
  {
    name: 'matches the field but not the label of the same term',
    terms: [
      {
        matchExpressions: [{ key: 'foo', operator: 'In', values: ['baz'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['foo'] }]
      }
    ],
    want: false
  },
  {
    name: 'one of two terms matches',
    terms: [
      { matchExpressions: [{ key: 'foo', operator: 'In', values: ['baz'] }] },
      { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }
    ],
    want: true
  },
  {
    name: 'an invalid key makes its term fail; the valid term still matches',
    terms: [
      { matchExpressions: [{ key: 'invalid key', operator: 'DoesNotExist' }] },
      { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }
    ],
    want: true
  },
  {
    name: 'NotIn with an invalid label value does not parse, so it does not match',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['not a value!'] }] }],
    want: false
  },
  {
    name: 'In with an invalid label value does not parse',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', '-bad-'] }] }],
    want: false
  },
  {
    name: 'In without values does not parse',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: [] }] }],
    want: false
  },
  {
    name: 'Exists with values does not parse',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'Exists', values: ['bar'] }] }],
    want: false
  },
  {
    name: 'Gt compares integers',
    terms: [{ matchExpressions: [{ key: 'cpus', operator: 'Gt', values: ['4'] }] }],
    want: true
  },
  {
    name: 'Gt with a non-integer value does not parse',
    terms: [{ matchExpressions: [{ key: 'cpus', operator: 'Gt', values: ['4.5'] }] }],
    want: false
  },
  {
    name: 'Lt on a label that is not an integer does not match',
    terms: [{ matchExpressions: [{ key: 'foo', operator: 'Lt', values: ['4'] }] }],
    want: false
  },
  {
    name: 'NotIn matches a node without the label',
    terms: [{ matchExpressions: [{ key: 'gpu', operator: 'NotIn', values: ['true'] }] }],
    want: true
  }
];

describe('matchNodeSelectorTerms', () => {
  for (const c of cases) it(c.name, () => expect(matchNodeSelectorTerms(c.terms, node)).toBe(c.want));
});

describe('podMatchesNodeSelectorAndAffinity', () => {
  it('needs both the nodeSelector and the required terms', () => {
    const pod = (nodeSelector: Record<string, string>, values: string[]) => ({
      spec: {
        nodeSelector,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values }] }]
            }
          }
        }
      }
    });
    expect(podMatchesNodeSelectorAndAffinity(pod({ foo: 'bar' }, ['a']), node)).toBe(true);
    expect(podMatchesNodeSelectorAndAffinity(pod({ foo: 'baz' }, ['a']), node)).toBe(false);
    expect(podMatchesNodeSelectorAndAffinity(pod({ foo: 'bar' }, ['b']), node)).toBe(false);
    expect(podMatchesNodeSelectorAndAffinity({ spec: {} }, node)).toBe(true);
  });
});

describe('preferredTermsScore', () => {
  it('sums the weights of the matching terms', () => {
    expect(
      preferredTermsScore(
        [
          { weight: 5, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } },
          { weight: 3, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] } },
          {
            weight: 2,
            preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['foo'] }] }
          }
        ],
        node
      )
    ).toBe(7);
  });
});
