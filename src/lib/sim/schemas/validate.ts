/**
 * Checks a value against the schemas built in this folder and reports every problem with its
 * field path (`spec.containers[0].foo`) and the raw path segments (to find the YAML line).
 *
 * A small interpreter of the keywords the builders use, rather than a compiled validator: the app
 * runs under a Content-Security-Policy without 'unsafe-eval', which rules out generated code.
 */
import { tryParseQuantity } from '../api/quantity';
import { parseDuration } from '../engine/duration';
import type { JsonSchema } from './builders';

export type PathSegment = string | number;

export interface SchemaIssue {
  path: PathSegment[];
  /** Field path as Kubernetes prints it: `spec.containers[0].resources.limits[cpu]`. */
  field: string;
  /** `unknown` for a field the schema does not list. */
  kind: 'unknown' | 'type' | 'enum' | 'required' | 'range' | 'pattern' | 'format';
  message: string;
}

export function formatPath(path: PathSegment[], mapKeys: Set<number> = new Set()): string {
  let out = '';
  path.forEach((seg, i) => {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (mapKeys.has(i)) out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  });
  return out;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
}

function show(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
}

export function checkSchema(value: unknown, schema: JsonSchema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  walk(value, schema, [], new Set(), issues);
  return issues;
}

function walk(
  v: unknown,
  s: JsonSchema,
  path: PathSegment[],
  mapKeys: Set<number>,
  out: SchemaIssue[]
): void {
  const field = () => formatPath(path, mapKeys);
  const push = (kind: SchemaIssue['kind'], message: string, p = path, keys = mapKeys) =>
    out.push({ path: p, field: formatPath(p, keys), kind, message });
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => typeMatches(v, t))) {
      push('type', `${field() || 'document'}: expected ${types.join(' or ')}, got ${typeOf(v)} ${show(v)}`);
      return;
    }
  }
  if (s.enum && !s.enum.includes(v as never)) {
    push(
      'enum',
      `${field()}: Unsupported value: ${show(v)}: supported values: ${s.enum.map((e) => show(e)).join(', ')}`
    );
  }
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum)
      push('range', `${field()}: Invalid value: ${v}: must be greater than or equal to ${s.minimum}`);
    if (s.maximum !== undefined && v > s.maximum)
      push('range', `${field()}: Invalid value: ${v}: must be less than or equal to ${s.maximum}`);
  }
  if (typeof v === 'string' && s.pattern && !new RegExp(s.pattern).test(v)) {
    push(
      'pattern',
      `${field()}: Invalid value: ${show(v)}: must match the regular expression '${s.pattern}'`
    );
  }
  if (s.format === 'quantity' && (typeof v === 'string' || typeof v === 'number')) {
    if (tryParseQuantity(v) === undefined) {
      push(
        'format',
        `${field()}: Invalid value: ${show(v)}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`
      );
    }
  }
  if (s.format === 'duration' && (typeof v === 'string' || typeof v === 'number')) {
    try {
      parseDuration(v);
    } catch {
      push('format', `${field()}: Invalid value: ${show(v)}: a duration with a unit, like 90s, 5m or 1h30m`);
    }
  }
  if (Array.isArray(v) && s.items) {
    v.forEach((item, i) => walk(item, s.items!, [...path, i], mapKeys, out));
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    for (const r of s.required ?? []) {
      if (o[r] === undefined || o[r] === null)
        push('required', `${formatPath([...path, r], mapKeys)}: Required value`, [...path, r]);
    }
    for (const [k, child] of Object.entries(o)) {
      const p = [...path, k];
      const prop = s.properties?.[k];
      if (prop) {
        if (child !== null) walk(child, prop, p, mapKeys, out);
      } else if (s.additionalProperties === false) {
        const f = formatPath(p, mapKeys);
        out.push({
          path: p,
          field: f,
          kind: 'unknown',
          message: `unknown field "${f}" (not simulated by Nodeplane)`
        });
      } else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        const keys = new Set(mapKeys);
        keys.add(p.length - 1);
        walk(child, s.additionalProperties, p, keys, out);
      }
    }
  }
}
