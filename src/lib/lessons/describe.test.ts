import { describe, expect, it } from 'vitest';
import { explainCheck, ruPlural } from './describe';
import type { Check } from './checks';

// Lesson 6's "silence" task: the taint the node lifecycle controller sets and the eviction of
// the taint manager (upstream: pkg/controller/tainteviction/taint_eviction.go, reason
// TaintManagerEviction).
const silence: Check = {
  all: [
    { node: { name: 'worker-2', taint: { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' } } },
    { event: { reason: 'TaintManagerEviction', object: 'Pod/default/checkout-*' } },
    { pod: { selector: 'app=checkout', phase: 'Running', notNode: 'worker-2', min: 3 } }
  ]
};

describe('explainCheck', () => {
  it('words each part of a task check for the learner in English', () => {
    expect(explainCheck(silence, 'en').map((l) => l.text)).toEqual([
      'Node worker-2: has the taint node.kubernetes.io/unreachable:NoExecute',
      'An event with reason TaintManagerEviction: about Pod/default/checkout-*',
      'Pods labelled app=checkout (at least 3 of them): phase is Running, does not run on worker-2'
    ]);
  });

  it('words the same check in Russian, keeping Kubernetes values as they are', () => {
    expect(explainCheck(silence, 'ru').map((l) => l.text)).toEqual([
      'Узел worker-2: с taint node.kubernetes.io/unreachable:NoExecute',
      'Событие с причиной TaintManagerEviction: об объекте Pod/default/checkout-*',
      "Pod'ы с метками app=checkout (не меньше 3): фаза Running, не работает на узле worker-2"
    ]);
  });

  it('says a question check is about answering, not the question id', () => {
    expect(explainCheck({ question: { id: 'no-scheduler' } }, 'en')).toEqual([
      { depth: 0, text: 'You answer the question in the lesson text correctly' }
    ]);
    expect(explainCheck({ question: { id: 'no-scheduler' } }, 'ru')[0].text).not.toMatch(/no-scheduler/);
  });

  it('nests the parts of an any under a group line', () => {
    const c: Check = {
      any: [{ node: { name: 'w1', ready: 'True' } }, { node: { name: 'w2', exists: false } }]
    };
    expect(explainCheck(c, 'en')).toEqual([
      { depth: 0, text: 'Any one of these:' },
      { depth: 1, text: 'Node w1: Ready condition is True' },
      { depth: 1, text: 'Node w2 no longer exists' }
    ]);
  });

  it('picks the Russian plural form', () => {
    expect([1, 2, 5, 11, 21, 22, 25].map((n) => ruPlural(n, 'ядро', 'ядра', 'ядер'))).toEqual([
      'ядро',
      'ядра',
      'ядер',
      'ядер',
      'ядро',
      'ядра',
      'ядер'
    ]);
  });
});
