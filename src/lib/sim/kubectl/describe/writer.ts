/** describe.go's PrefixWriter over a padding-2 tabwriter, and the sections every describer shares. */
import type { KubeObject } from '../../api/types';
import { DESCRIBE, TabWriter } from '../tabwriter';
import { humanDuration, since } from '../timefmt';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export class PrefixWriter {
  private tw = new TabWriter(DESCRIBE);

  /** Write at nesting level `level` (2 spaces each). */
  write(level: number, text: string): void {
    this.tw.write('  '.repeat(level) + text);
  }

  flush(): void {
    this.tw.flush();
  }

  toString(): string {
    return this.tw.take();
  }
}

/** printLabelsMultiline: sorted `k=v`, continuation lines start with a tab (same column). */
export function labelsMultiline(
  w: PrefixWriter,
  title: string,
  labels: Record<string, string> | undefined
): void {
  const keys = Object.keys(labels ?? {}).sort();
  if (!keys.length) return w.write(0, `${title}:\t<none>\n`);
  keys.forEach((k, i) => w.write(0, `${i === 0 ? `${title}:` : ''}\t${k}=${labels![k]}\n`));
}

/** describe.go maxAnnotationLen: longer values (or values with newlines) go on their own lines. */
const MAX_ANNOTATION_LEN = 140;
/** describe skips the last-applied configuration kubectl apply writes. */
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

/** printAnnotationsMultiline: sorted `k: v`; long or multi-line values below the key, cut with `...`. */
export function annotationsMultiline(
  w: PrefixWriter,
  title: string,
  annotations: Record<string, string> | undefined
): void {
  const keys = Object.keys(annotations ?? {})
    .filter((k) => !SKIP_ANNOTATIONS.has(k))
    .sort();
  if (!keys.length) return w.write(0, `${title}:\t<none>\n`);
  const shorten = (s: string) =>
    s.length > MAX_ANNOTATION_LEN - 2 ? s.slice(0, MAX_ANNOTATION_LEN - 2) + '...' : s;
  keys.forEach((k, i) => {
    const lead = i === 0 ? `${title}:\t` : '\t';
    const v = annotations![k].replace(/\n$/, '');
    if (v.length + k.length + 2 > MAX_ANNOTATION_LEN || v.includes('\n')) {
      w.write(0, `${lead}${k}:\n`);
      for (const line of v.split('\n')) w.write(0, `\t  ${shorten(line)}\n`);
    } else {
      w.write(0, `${lead}${k}: ${v}\n`);
    }
  });
}

/** Taint.ToString: `key=value:Effect` or `key:Effect`. */
export function taintString(t: Any): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}${t.effect ? `:${t.effect}` : ''}`;
}

export function taintsMultiline(w: PrefixWriter, title: string, taints: Any[] | undefined): void {
  if (!taints?.length) return w.write(0, `${title}:\t<none>\n`);
  const key = (t: Any) => `${t.effect},${t.key}`;
  const sorted = [...taints].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  sorted.forEach((t, i) => w.write(0, `${i === 0 ? `${title}:` : ''}\t${taintString(t)}\n`));
}

/** D8: `key[=value][:Effect][ op=Exists][ for Ns]`, sorted by key. */
export function tolerationsMultiline(
  w: PrefixWriter,
  title: string,
  tolerations: Any[] | undefined,
  level = 0
): void {
  if (!tolerations?.length) return w.write(level, `${title}:\t<none>\n`);
  const sorted = [...tolerations].sort((a, b) =>
    (a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0
  );
  sorted.forEach((t, i) => {
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null)
      s += ` for ${t.tolerationSeconds}s`;
    w.write(i === 0 ? level : 0, `${i === 0 ? `${title}:` : ''}\t${s}\n`);
  });
}

/** DescribeEvents (D6). kubectl ≥ 1.35 prefixes the message with the field path. */
export function describeEvents(w: PrefixWriter, events: KubeObject[], now: number): void {
  if (!events.length) return w.write(0, 'Events:\t<none>\n');
  w.flush();
  w.write(0, 'Events:\n');
  w.write(1, 'Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of events) {
    const first = since((e.eventTime as string) || (e.firstTimestamp as string), now);
    const count = (e.count as number) ?? 1;
    const interval = count > 1 ? `${since(e.lastTimestamp as string, now)} (x${count} over ${first})` : first;
    const src: Any = e.source ?? {};
    const from = src.component || (e.reportingController as string) || (e.reportingComponent as string) || '';
    let msg = String(e.message ?? '').trim();
    const fieldPath = (e.involvedObject as Any)?.fieldPath;
    if (fieldPath) msg = `${fieldPath}: ${msg}`;
    w.write(1, `${e.type}\t${e.reason}\t${interval}\t${from}\t${msg}\n`);
  }
}

/** Controlled By: `Kind/name` of the controller owner reference. */
export function controlledBy(obj: KubeObject): string | undefined {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : undefined;
}

export { humanDuration };
