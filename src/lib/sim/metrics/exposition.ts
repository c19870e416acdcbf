/**
 * The Prometheus text exposition format 0.0.4, as client_golang's expfmt writes it: families in
 * name order, `# HELP` and `# TYPE` lines, label pairs sorted by name with `\`, `"` and newlines
 * escaped, sample values as Go's strconv.FormatFloat(v, 'g', -1, 64), histograms as cumulative
 * `_bucket{le=…}` lines ending in `+Inf`, then `_sum` and `_count`.
 */

export type Labels = Record<string, string>;

export interface Sample {
  labels: Labels;
  value: number;
}

export interface HistogramSample {
  labels: Labels;
  /** Upper bounds, ascending, without +Inf. */
  buckets: readonly number[];
  /** Cumulative counts per bound (same length as `buckets`). */
  counts: readonly number[];
  sum: number;
  count: number;
}

export type Family =
  | { name: string; help: string; type: 'counter' | 'gauge'; samples: Sample[] }
  | { name: string; help: string; type: 'histogram'; samples: HistogramSample[] };

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as the Prometheus client writes sample values. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return '0';
  const [m, x] = v.toExponential().split('e');
  const n = Number(x);
  // Shortest formatting switches to %e below 1e-4 and from 1e6 (eprec = 6).
  if (n < -4 || n >= 6) return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  return String(v);
}

export function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabelValue(labels[k])}"`);
  if (extra) pairs.push(`${extra[0]}="${extra[1]}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

/** Sort key of a sample: its label values in label-name order (client_golang sorts metrics so). */
function sampleKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}\u0000${labels[k]}`)
    .join('\u0001');
}

function bySampleKey<T extends { labels: Labels }>(samples: readonly T[]): T[] {
  return [...samples].sort((a, b) => {
    const x = sampleKey(a.labels);
    const y = sampleKey(b.labels);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** One page of /metrics. Families without samples are left out, as client_golang does. */
export function render(families: readonly Family[]): string {
  let out = '';
  for (const f of [...families].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!f.samples.length) continue;
    out += `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
    if (f.type === 'histogram') {
      for (const h of bySampleKey(f.samples)) {
        h.buckets.forEach((le, i) => {
          out += `${f.name}_bucket${labelText(h.labels, ['le', goFloat(le)])} ${goFloat(h.counts[i])}\n`;
        });
        out += `${f.name}_bucket${labelText(h.labels, ['le', '+Inf'])} ${goFloat(h.count)}\n`;
        out += `${f.name}_sum${labelText(h.labels)} ${goFloat(h.sum)}\n`;
        out += `${f.name}_count${labelText(h.labels)} ${goFloat(h.count)}\n`;
      }
    } else {
      for (const s of bySampleKey(f.samples)) out += `${f.name}${labelText(s.labels)} ${goFloat(s.value)}\n`;
    }
  }
  return out;
}

/** client_golang's prometheus.ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let v = start;
  for (let i = 0; i < count; i++) {
    out.push(Number(v.toPrecision(15)));
    v *= factor;
  }
  return out;
}

/**
 * Prometheus' histogram_quantile over cumulative bucket counts (linear interpolation inside the
 * bucket, the lowest bucket starting at 0, NaN without observations, the highest finite bound
 * when the rank falls in +Inf).
 */
export function histogramQuantile(
  q: number,
  buckets: readonly number[],
  counts: readonly number[],
  total: number
): number {
  if (!(total > 0)) return NaN;
  const rank = q * total;
  let prevBound = 0;
  let prevCount = 0;
  for (let i = 0; i < buckets.length; i++) {
    if (counts[i] >= rank) {
      const inBucket = counts[i] - prevCount;
      if (inBucket <= 0) return buckets[i];
      return prevBound + ((buckets[i] - prevBound) * (rank - prevCount)) / inBucket;
    }
    prevBound = buckets[i];
    prevCount = counts[i];
  }
  return buckets[buckets.length - 1];
}
