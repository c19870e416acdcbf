// The text exposition format as client_golang's expfmt writes it.
// upstream: prometheus/common expfmt/text_create.go (HELP/TYPE lines, label escaping, histograms)
// upstream: prometheus/prometheus promql/quantile.go (histogram_quantile's interpolation)
import { describe, expect, it } from 'vitest';
import { exponentialBuckets, goFloat, histogramQuantile, render } from './exposition';

describe('text exposition format 0.0.4', () => {
  it('writes families by name, labels sorted and escaped, help escaped', () => {
    const text = render([
      {
        name: 'zz_total',
        help: 'Last family.',
        type: 'counter',
        samples: [
          { labels: { b: 'x', a: 'q"uo\\te\nnl' }, value: 3 },
          { labels: { b: 'a', a: 'a' }, value: 1e6 }
        ]
      },
      {
        name: 'aa_gauge',
        help: 'Back\\slash\nnew line.',
        type: 'gauge',
        samples: [{ labels: {}, value: 0.5 }]
      },
      { name: 'empty_total', help: 'No samples: left out.', type: 'counter', samples: [] }
    ]);
    expect(text).toBe(
      '# HELP aa_gauge Back\\\\slash\\nnew line.\n' +
        '# TYPE aa_gauge gauge\n' +
        'aa_gauge 0.5\n' +
        '# HELP zz_total Last family.\n' +
        '# TYPE zz_total counter\n' +
        'zz_total{a="a",b="a"} 1e+06\n' +
        'zz_total{a="q\\"uo\\\\te\\nnl",b="x"} 3\n'
    );
  });

  it('writes a histogram as cumulative buckets ending in +Inf, then _sum and _count', () => {
    const text = render([
      {
        name: 'req_seconds',
        help: 'Latency.',
        type: 'histogram',
        samples: [{ labels: { verb: 'GET' }, buckets: [0.1, 1], counts: [2, 5], sum: 1.75, count: 6 }]
      }
    ]);
    expect(text).toBe(
      '# HELP req_seconds Latency.\n' +
        '# TYPE req_seconds histogram\n' +
        'req_seconds_bucket{verb="GET",le="0.1"} 2\n' +
        'req_seconds_bucket{verb="GET",le="1"} 5\n' +
        'req_seconds_bucket{verb="GET",le="+Inf"} 6\n' +
        'req_seconds_sum{verb="GET"} 1.75\n' +
        'req_seconds_count{verb="GET"} 6\n'
    );
  });

  it("formats values as Go's strconv 'g' shortest", () => {
    expect([1, 0.005, 123456, 1234567, 0.0001, 0.00001, Infinity].map(goFloat)).toEqual([
      '1',
      '0.005',
      '123456',
      '1.234567e+06',
      '0.0001',
      '1e-05',
      '+Inf'
    ]);
  });

  it('has ExponentialBuckets and histogram_quantile as Prometheus computes them', () => {
    expect(exponentialBuckets(0.001, 2, 14)).toEqual([
      0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192
    ]);
    // 100 observations, 90 at most 0.1, all at most 1: the 99th is 90% into (0.1, 1].
    expect(histogramQuantile(0.99, [0.1, 1], [90, 100], 100)).toBeCloseTo(0.91, 10);
    expect(histogramQuantile(0.5, [0.1, 1], [90, 100], 100)).toBeCloseTo(0.0555555, 5);
    expect(histogramQuantile(0.99, [0.1, 1], [0, 0], 0)).toBeNaN();
  });
});
