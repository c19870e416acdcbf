/** Grading a prediction question. Kept apart from the loader so the browser never loads the validators. */
import type { QuestionSpec } from './format';

/** A decision answer: the option chosen and the reasons given for it. */
export interface DecisionAnswer {
  option: string;
  reasons: string[];
}

/** `managed:no-etcd-ops,upgrades` → { option: 'managed', reasons: ['no-etcd-ops', 'upgrades'] }. */
export function parseDecision(value: string | number): DecisionAnswer {
  const text = String(value);
  const i = text.indexOf(':');
  const option = (i < 0 ? text : text.slice(0, i)).trim();
  const reasons =
    i < 0
      ? []
      : text
          .slice(i + 1)
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean);
  return { option, reasons: [...new Set(reasons)] };
}

export function formatDecision(a: DecisionAnswer): string {
  return `${a.option}:${a.reasons.join(',')}`;
}

/** How a picked reason weighs for the chosen option: it supports it, another one, or none. */
export function reasonVerdict(
  q: Pick<QuestionSpec, 'reasons'>,
  option: string,
  reason: string
): 'supports' | 'other' | 'false' {
  const supports = q.reasons?.[reason];
  if (!supports || !supports.length) return 'false';
  return supports.includes(option) ? 'supports' : 'other';
}

/** Default number of supporting reasons a decision needs. */
export const DEFAULT_MIN_REASONS = 2;

/** Is `value` a correct answer to the question? Numbers count within the question's tolerance. */
export function isCorrectAnswer(
  q: Pick<QuestionSpec, 'type' | 'answer' | 'tolerance' | 'options' | 'reasons' | 'minReasons'>,
  value: string | number
): boolean {
  if (q.type === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    return Number.isFinite(n) && Math.abs(n - Number(q.answer)) <= (q.tolerance ?? 0);
  }
  if (q.type === 'decision') {
    // Scored on reasons, not on the option: any option is right with enough sound reasons for it.
    const a = parseDecision(value);
    if (!(q.options ?? []).includes(a.option)) return false;
    if (a.reasons.length < (q.minReasons ?? DEFAULT_MIN_REASONS)) return false;
    return a.reasons.every((r) => reasonVerdict(q, a.option, r) === 'supports');
  }
  return String(value) === String(q.answer);
}
