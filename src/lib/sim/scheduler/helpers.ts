/**
 * Matching helpers shared by plugins: tolerations (v1helper.TolerationsTolerateTaint), node
 * selector terms (component-helpers nodeaffinity) and DefaultNormalizeScore.
 */
import type { LabelSelector, NodeSelectorTerm, Taint, Toleration } from '../api/types';
import { matchLabelSelector } from '../api/selectors';
import { MAX_NODE_SCORE } from './types';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  if (!t.operator || t.operator === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}

export function tolerationsTolerateTaint(tols: readonly Toleration[] | undefined, taint: Taint): boolean {
  if (!tols) return false;
  for (const t of tols) if (toleratesTaint(t, taint)) return true;
  return false;
}

type Requirement = { key: string; operator: string; values?: readonly string[] };

function matchRequirement(r: Requirement, value: string | undefined): boolean {
  const has = value !== undefined;
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(value!);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || !/^-?\d+$/.test(value!) || (r.values ?? []).length !== 1) return false;
      const a = parseInt(value!, 10);
      const b = parseInt(r.values![0], 10);
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A term matches when all its expressions and fields match; an empty term matches nothing. */
export function matchNodeSelectorTerm(
  term: NodeSelectorTerm,
  labels: Record<string, string>,
  name: string
): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (!exprs.length && !fields.length) return false;
  for (const e of exprs) if (!matchRequirement(e, labels[e.key])) return false;
  for (const f of fields) {
    if (f.key !== 'metadata.name' || !matchRequirement(f, name)) return false;
  }
  return true;
}

/** NodeSelector: the terms are ORed. */
export function matchNodeSelectorTerms(
  terms: readonly NodeSelectorTerm[],
  labels: Record<string, string>,
  name: string
): boolean {
  for (const t of terms) if (matchNodeSelectorTerm(t, labels, name)) return true;
  return false;
}

export function matchSelector(
  sel: LabelSelector | undefined | null,
  labels: Record<string, string> | undefined
): boolean {
  // A nil selector matches nothing; an empty one matches everything (metav1.LabelSelectorAsSelector).
  if (!sel) return false;
  return matchLabelSelector(sel, labels);
}

/** helper.DefaultNormalizeScore: scale to [0, maxPriority] by the maximum, optionally reversed. */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: number[]): void {
  let max = 0;
  for (const s of scores) if (s > max) max = s;
  if (max === 0) {
    if (reverse) scores.fill(maxPriority);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const s = Math.trunc((maxPriority * scores[i]) / max);
    scores[i] = reverse ? maxPriority - s : s;
  }
}

export const normalizeByMax = (scores: number[], reverse: boolean): void =>
  defaultNormalizeScore(MAX_NODE_SCORE, reverse, scores);
