import { describe, expect, it } from 'vitest';
import { isCorrectAnswer } from './answers';

describe('isCorrectAnswer', () => {
  it('accepts numbers within the tolerance, given as numbers or text', () => {
    const q = { type: 'number' as const, answer: 350, tolerance: 15 };
    expect([335, 350, 365, '350', ' 340 '].map((v) => isCorrectAnswer(q, v))).toEqual([
      true,
      true,
      true,
      true,
      true
    ]);
    expect([334, 366, 'abc', ''].map((v) => isCorrectAnswer(q, v))).toEqual([false, false, false, false]);
  });
  it('matches choice answers exactly', () => {
    const q = { type: 'choice' as const, answer: 'kubelet' };
    expect(isCorrectAnswer(q, 'kubelet')).toBe(true);
    expect(isCorrectAnswer(q, 'Kubelet')).toBe(false);
  });
});
