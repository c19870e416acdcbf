/**
 * A compact unified diff of two texts, line by line (longest common subsequence), for the
 * editor's "changes against the live object" before Apply or Save.
 */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

export interface Diff {
  added: number;
  removed: number;
  /** Changed lines with up to `context` unchanged lines around them; `null` marks a skipped run. */
  lines: (DiffLine | null)[];
}

export function lineDiff(before: string, after: string, context = 2): Diff {
  const a = before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  // Trim the common head and tail first: edits are usually a few lines in a long object.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const n = am.length;
  const m = bm.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = am[i] === bm[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const all: DiffLine[] = a.slice(0, head).map((text) => ({ op: ' ', text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && am[i] === bm[j]) {
      all.push({ op: ' ', text: am[i++] });
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) all.push({ op: '-', text: am[i++] });
    else all.push({ op: '+', text: bm[j++] });
  }
  for (const text of a.slice(a.length - tail)) all.push({ op: ' ', text });
  const keep = all.map(() => false);
  all.forEach((l, k) => {
    if (l.op === ' ') return;
    for (let c = Math.max(0, k - context); c <= Math.min(all.length - 1, k + context); c++) keep[c] = true;
  });
  const lines: (DiffLine | null)[] = [];
  all.forEach((l, k) => {
    if (keep[k]) lines.push(l);
    else if (lines[lines.length - 1] !== null) lines.push(null);
  });
  if (lines[lines.length - 1] === null) lines.pop();
  return {
    added: all.filter((l) => l.op === '+').length,
    removed: all.filter((l) => l.op === '-').length,
    lines
  };
}
