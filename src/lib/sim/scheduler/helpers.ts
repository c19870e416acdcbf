/**
 * Helpers shared by plugins: label selectors and DefaultNormalizeScore. Tolerations and node
 * affinity are matched by api/corev1 (one home for every component).
 */
import type { LabelSelector } from '../api/types';
import { matchLabelSelector } from '../api/selectors';
import { MAX_NODE_SCORE } from './types';

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
