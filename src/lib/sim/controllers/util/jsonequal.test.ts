import { describe, expect, it } from 'vitest';
import { jsonEqual } from './jsonequal';

describe('jsonEqual', () => {
  // Each pair: jsonEqual must agree with comparing the two JSON.stringify strings.
  const cases: [unknown, unknown][] = [
    [
      { a: 1, b: [1, 2] },
      { a: 1, b: [1, 2] }
    ],
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 }
    ],
    [{ a: 1, b: undefined }, { a: 1 }],
    [[undefined], [null]],
    [
      [1, 2],
      [1, 2, 3]
    ],
    [{ a: NaN }, { a: null }],
    [{ a: Infinity }, { a: -Infinity }],
    [{ t: new Date(0) }, { t: '1970-01-01T00:00:00.000Z' }],
    [{ t: new Date(0) }, { t: new Date(0) }],
    [{ a: 'x' }, { a: 'y' }],
    [{ a: true }, { a: 1 }],
    [{ a: {} }, { a: [] }],
    [{}, {}],
    [null, null],
    [
      [{ addresses: [{ ip: '10.0.0.1', targetRef: { kind: 'Pod', name: 'a' } }], ports: [{ port: 80 }] }],
      [{ addresses: [{ ip: '10.0.0.1', targetRef: { kind: 'Pod', name: 'a' } }], ports: [{ port: 80 }] }]
    ],
    [
      [{ addresses: [{ ip: '10.0.0.1', nodeName: 'w1' }] }],
      [{ addresses: [{ nodeName: 'w1', ip: '10.0.0.1' }] }]
    ]
  ];
  it.each(cases)('agrees with JSON.stringify for %j and %j', (a, b) => {
    expect(jsonEqual(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});
