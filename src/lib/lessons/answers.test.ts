import { describe, expect, it } from 'vitest';
import { formatDecision, isCorrectAnswer, parseDecision, reasonVerdict } from './answers';

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

  it('grades a decision on its reasons: any option with enough reasons that support it', () => {
    const q = {
      type: 'decision' as const,
      answer: '',
      options: ['managed', 'self-managed'],
      reasons: {
        'no-etcd-ops': ['managed'],
        'small-team': ['managed'],
        'custom-flags': ['self-managed'],
        'air-gapped': ['self-managed'],
        'no-node-work': []
      },
      minReasons: 2
    };
    expect(isCorrectAnswer(q, 'managed:no-etcd-ops,small-team')).toBe(true);
    expect(isCorrectAnswer(q, 'self-managed:custom-flags, air-gapped')).toBe(true);
    // Too few reasons, a reason for the other option, a false belief, an unknown option.
    expect(isCorrectAnswer(q, 'managed:no-etcd-ops')).toBe(false);
    expect(isCorrectAnswer(q, 'managed:no-etcd-ops,custom-flags')).toBe(false);
    expect(isCorrectAnswer(q, 'managed:no-etcd-ops,small-team,no-node-work')).toBe(false);
    expect(isCorrectAnswer(q, 'hybrid:no-etcd-ops,small-team')).toBe(false);
    // A reason given twice counts once.
    expect(isCorrectAnswer(q, 'managed:no-etcd-ops,no-etcd-ops')).toBe(false);
    expect(reasonVerdict(q, 'managed', 'custom-flags')).toBe('other');
    expect(reasonVerdict(q, 'managed', 'no-node-work')).toBe('false');
    expect(parseDecision('self-managed:a, b')).toEqual({ option: 'self-managed', reasons: ['a', 'b'] });
    expect(formatDecision({ option: 'managed', reasons: ['a', 'b'] })).toBe('managed:a,b');
  });
});
