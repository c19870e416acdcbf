/** Grading a prediction question. Kept apart from the loader so the browser never loads the validators. */
import type { QuestionSpec } from './format';

/** Is `value` a correct answer to the question? Numbers count within the question's tolerance. */
export function isCorrectAnswer(
  q: Pick<QuestionSpec, 'type' | 'answer' | 'tolerance'>,
  value: string | number
): boolean {
  if (q.type === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    return Number.isFinite(n) && Math.abs(n - Number(q.answer)) <= (q.tolerance ?? 0);
  }
  return String(value) === String(q.answer);
}
