/**
 * Label and field selectors in the string syntax kubectl and the API accept:
 *   labels: `app=web,tier!=db,env in (prod,staging),!canary,gpu`
 *   fields: `spec.nodeName=worker-1,metadata.name!=x,status.phase=Running`
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';

type Op = '=' | '!=' | 'in' | 'notin' | 'exists' | '!exists';
export interface Requirement {
  key: string;
  op: Op;
  values: string[];
}

export class SelectorError extends Error {}

export function parseLabelSelector(s: string | undefined): Requirement[] {
  if (!s || !s.trim()) return [];
  const reqs: Requirement[] = [];
  // Split on commas that are not inside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts) {
    const p = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(p))) {
      reqs.push({
        key: m[1],
        op: m[2] as Op,
        values: m[3]
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean)
      });
    } else if ((m = /^([\w./-]+)\s*(!=|==|=)\s*([\w./-]*)$/.exec(p))) {
      reqs.push({ key: m[1], op: m[2] === '!=' ? '!=' : '=', values: [m[3]] });
    } else if ((m = /^!([\w./-]+)$/.exec(p))) {
      reqs.push({ key: m[1], op: '!exists', values: [] });
    } else if ((m = /^([\w./-]+)$/.exec(p))) {
      reqs.push({ key: m[1], op: 'exists', values: [] });
    } else {
      throw new SelectorError(`unable to parse requirement: ${JSON.stringify(p)}`);
    }
  }
  return reqs;
}

export function matchRequirements(reqs: Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  for (const r of reqs) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=':
        if (!has || v !== r.values[0]) return false;
        break;
      case '!=':
        if (has && v === r.values[0]) return false;
        break;
      case 'in':
        if (!has || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (has && r.values.includes(v)) return false;
        break;
      case 'exists':
        if (!has) return false;
        break;
      case '!exists':
        if (has) return false;
        break;
    }
  }
  return true;
}

/** Requirements of frozen selectors (stored objects' selectors never change), compiled once. */
const compiled = new WeakMap<LabelSelector, Requirement[]>();

/** metav1.LabelSelector (matchLabels + matchExpressions). An empty selector matches everything. */
export function matchLabelSelector(
  sel: LabelSelector | undefined,
  labels: Record<string, string> | undefined
): boolean {
  if (!sel) return true;
  const frozen = Object.isFrozen(sel);
  let reqs = frozen ? compiled.get(sel) : undefined;
  if (!reqs) {
    reqs = selectorRequirements(sel);
    if (frozen) compiled.set(sel, reqs);
  }
  return matchRequirements(reqs, labels);
}

function selectorRequirements(sel: LabelSelector): Requirement[] {
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key: k, op: '=', values: [v] });
  for (const e of sel.matchExpressions ?? []) {
    const op: Op =
      e.operator === 'In'
        ? 'in'
        : e.operator === 'NotIn'
          ? 'notin'
          : e.operator === 'Exists'
            ? 'exists'
            : '!exists';
    reqs.push({ key: e.key, op, values: e.values ?? [] });
  }
  return reqs;
}

export interface FieldRequirement {
  path: string;
  op: '=' | '!=';
  value: string;
}

export function parseFieldSelector(s: string | undefined): FieldRequirement[] {
  if (!s || !s.trim()) return [];
  return s.split(',').map((raw) => {
    const m = /^\s*([\w.]+)\s*(!=|==|=)\s*(.*?)\s*$/.exec(raw);
    if (!m) throw new SelectorError(`invalid selector: '${s}'; can't understand '${raw}'`);
    return { path: m[1], op: m[2] === '!=' ? '!=' : '=', value: m[3] };
  });
}

export function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

export function matchFields(reqs: FieldRequirement[], obj: unknown): boolean {
  for (const r of reqs) {
    const v = fieldValue(obj, r.path);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}
