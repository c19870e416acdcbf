/**
 * Multi-document YAML with source positions: every document becomes a plain JS value plus a
 * `locate(path)` that finds the line and column of a field, so later checks (schema, admission)
 * can point at the exact place in the file.
 */
import {
  LineCounter,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Document,
  type Node
} from 'yaml';
import type { PathSegment } from '../schemas/validate';
import { findExcessiveNesting, MAX_YAML_DEPTH, tooLarge } from './depth';
import type { ManifestIssue } from './errors';

export interface Position {
  line: number;
  column: number;
}

export interface YamlDoc {
  /** 0-based index of the document in the file (empty documents count). */
  index: number;
  value: unknown;
  /** Position of the document's first content. */
  start: Position;
  /**
   * Where a field is: its key for `key: true` (unknown fields) or when its value is a mapping or a
   * list, else its value. Falls back to the nearest parent that exists.
   */
  locate(path: PathSegment[] | string, opts?: { key?: boolean }): Position;
}

/** `spec.containers[0].resources.requests[cpu]` → ['spec','containers',0,'resources','requests','cpu']. */
export function splitFieldPath(field: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) out.push(m[1]);
    else out.push(/^\d+$/.test(m[2]) ? parseInt(m[2], 10) : m[2]);
  }
  return out;
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  // Whatever the scan missed and the parser's recursion hit: the same words as the scan.
  return /Maximum call stack size exceeded/.test(line) ? `exceeded max depth of ${MAX_YAML_DEPTH}` : line;
}

export function parseYamlDocuments(text: string, file: string): { docs: YamlDoc[]; issues: ManifestIssue[] } {
  const large = tooLarge(text);
  if (large) return { docs: [], issues: [{ file, line: 1, column: 1, path: '', message: large }] };
  const deep = findExcessiveNesting(text);
  if (deep) {
    return {
      docs: [],
      issues: [{ file, line: deep.line, column: deep.column, path: '', message: `YAML: ${deep.message}` }]
    };
  }
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const list: Document.Parsed[] = Array.isArray(parsed) ? parsed : [parsed as unknown as Document.Parsed];
  const issues: ManifestIssue[] = [];
  const docs: YamlDoc[] = [];
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  list.forEach((doc, index) => {
    for (const e of doc.errors) {
      const lp = e.linePos?.[0];
      const p = lp ? { line: lp.line, column: lp.col } : pos(e.pos[0]);
      issues.push({ file, ...p, path: '', message: `YAML: ${firstLine(e.message)}` });
    }
    if (doc.errors.length || doc.contents === null) return;
    if (isScalar(doc.contents) && (doc.contents.value === null || doc.contents.value === undefined)) return;
    const root = doc.contents as Node;
    const start = pos(root.range?.[0] ?? 0);
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      issues.push({ file, ...start, path: '', message: `YAML: ${firstLine((e as Error).message)}` });
      return;
    }
    docs.push({
      index,
      value,
      start,
      locate(path, opts = {}) {
        const segs = typeof path === 'string' ? splitFieldPath(path) : path;
        let node: unknown = root;
        let best = root.range?.[0] ?? 0;
        for (let i = 0; i < segs.length; i++) {
          const seg = segs[i];
          const last = i === segs.length - 1;
          if (isMap(node)) {
            const pair = node.items.find(
              (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg)
            );
            if (!pair) break;
            const keyNode = pair.key as Node;
            // A whole mapping or list is reported at its key, a scalar at its value.
            if (last && (opts.key || isMap(pair.value) || isSeq(pair.value))) {
              best = keyNode.range?.[0] ?? best;
              break;
            }
            node = pair.value;
            best = (pair.value as Node | null)?.range?.[0] ?? keyNode.range?.[0] ?? best;
          } else if (isSeq(node) && typeof seg === 'number') {
            const item = node.items[seg] as Node | undefined;
            if (!item) break;
            node = item;
            best = item.range?.[0] ?? best;
          } else break;
        }
        return pos(best);
      }
    });
  });
  return { docs, issues };
}
