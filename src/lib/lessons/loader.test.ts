import { describe, expect, it } from 'vitest';
import { loadLesson, loadLessons } from './loader';
import { LessonError } from './format';

const spec = `apiVersion: nodeplane.dev/v1alpha1
kind: Lesson
metadata:
  name: heartbeats
spec:
  timeBudget: 10m
  views: [map, console]
  disabled:
    - command: kubectl delete
  questions:
    - id: evict-time
      type: number
      answer: 350
      tolerance: 10
  tasks:
    - id: predict
      check:
        question: { id: evict-time }
    - id: unknown
      check:
        node: { name: worker-2, ready: Unknown }
  solution:
    - at: 0s
      answer: { question: evict-time, value: 350 }
    - at: 10s
      fault: { action: StopKubelet, target: worker-2 }
`;
const md = (lang: string) => `---
title: When heartbeats stop ${lang}
summary: s
minutes: 15
objectives: [o]
tasks:
  predict: { title: Predict, hints: [h1] }
  unknown: { title: Watch, hints: [h1, h2] }
questions:
  evict-time: { prompt: When?, correct: Yes, incorrect: No }
disabled:
  kubectl delete: Deleting pods by hand would skip the point.
learned: [fact]
---
## Step 1

\`\`\`question evict-time
\`\`\`
`;
const files = () => ({
  'lesson.yaml': spec,
  'lesson.en.md': md('en'),
  'lesson.ru.md': md('ru'),
  'scenario.yaml': 'x'
});

function issues(f: Record<string, string>): string[] {
  try {
    loadLesson('lessons/06-heartbeats', f);
  } catch (e) {
    return (e as LessonError).issues.map((i) => `${i.file}:${i.line ?? ''} ${i.field ?? ''} ${i.message}`);
  }
  return [];
}

describe('lesson loader', () => {
  it('loads a valid lesson', () => {
    const l = loadLesson('lessons/06-heartbeats', files());
    expect(l.order).toBe(6);
    expect(l.text.ru.title).toBe('When heartbeats stop ru');
    expect(l.text.en.bodyLine).toBe(15);
  });

  it('names file, line and field for an unknown field and a bad duration', () => {
    const f = files();
    f['lesson.yaml'] = spec
      .replace('timeBudget: 10m', 'timeBudget: ten')
      .replace('  views:', '  colour: red\n  views:');
    expect(issues(f)).toEqual([
      'lessons/06-heartbeats/lesson.yaml:7 spec.colour unknown field',
      'lessons/06-heartbeats/lesson.yaml:6 spec.timeBudget must be a duration like 90s, 5m or 1h30m'
    ]);
  });

  it('accepts an expected exit code on a command step only', () => {
    const ok = files();
    ok['lesson.yaml'] = spec + '    - at: 20s\n      run: kubectl drain worker-2\n      exitCode: 1\n';
    expect(issues(ok)).toEqual([]);
    expect(loadLesson('lessons/06-heartbeats', ok).spec.spec.solution.at(-1)).toEqual({
      at: '20s',
      run: 'kubectl drain worker-2',
      exitCode: 1
    });
    const bad = files();
    bad['lesson.yaml'] = spec.replace(
      'fault: { action: StopKubelet, target: worker-2 }',
      'fault: { action: StopKubelet, target: worker-2 }\n      exitCode: 1'
    );
    expect(issues(bad).length).toBeGreaterThan(0);
    const two = files();
    two['lesson.yaml'] = spec + '    - at: 20s\n      run: kubectl get nodes\n      apply: x\n';
    expect(issues(two).length).toBeGreaterThan(0);
  });

  it('reports malformed YAML with its line', () => {
    const f = files();
    f['lesson.yaml'] = spec.replace('  views: [map, console]', '  views: [map, console');
    expect(issues(f)[0]).toMatch(/^lessons\/06-heartbeats\/lesson.yaml:\d+ {2}invalid YAML/);
  });

  it('requires both languages to describe the same tasks and questions', () => {
    const f = files();
    f['lesson.ru.md'] = md('ru').replace('  unknown: { title: Watch, hints: [h1, h2] }\n', '');
    expect(issues(f)).toEqual([
      'lessons/06-heartbeats/lesson.ru.md:7 tasks must describe exactly the tasks of lesson.yaml: predict, unknown'
    ]);
  });

  it('rejects an embedded question that does not exist and a missing disabled reason', () => {
    const f = files();
    f['lesson.en.md'] = md('en')
      .replace('```question evict-time', '```question nope')
      .replace(/disabled:\n.*\n/, '');
    expect(issues(f)).toEqual([
      'lessons/06-heartbeats/lesson.en.md:2 disabled.kubectl delete say why this action is disabled',
      'lessons/06-heartbeats/lesson.en.md:15  the body embeds question "nope", which lesson.yaml does not define'
    ]);
  });

  it('skips a broken lesson and loads the rest (a hostile pack cannot break the others)', () => {
    const all: Record<string, string> = {};
    for (const [k, v] of Object.entries(files())) all[`lessons/06-heartbeats/${k}`] = v;
    all['lessons/07-bad/lesson.yaml'] = '{{{';
    const r = loadLessons(all);
    expect(r.lessons.map((l) => l.slug)).toEqual(['06-heartbeats']);
    expect(r.errors).toHaveLength(1);
  });

  it('checks a decision question: no single answer, known options, every option defensible', () => {
    const f = files();
    f['lesson.yaml'] = spec.replace(
      '  tasks:',
      `    - id: decide
      type: decision
      answer: managed
      options: [managed, self-managed]
      reasons:
        no-ops: [managed]
        upgrades: [managed]
        flags: [self-managed]
        free-ha: []
        typo: [manged]
  tasks:`
    );
    const text = (lang: string) =>
      md(lang).replace(
        'questions:\n',
        `questions:
  decide:
    prompt: Which?
    options: { managed: M, self-managed: S }
    reasons: { no-ops: { text: a, why: b } }
    correct: Yes
    incorrect: No
`
      );
    f['lesson.en.md'] = text('en');
    f['lesson.ru.md'] = text('ru');
    expect(issues(f)).toEqual([
      'lessons/06-heartbeats/lesson.en.md:13 questions.decide.reasons must give text and why for the reasons no-ops, upgrades, flags, free-ha, typo',
      'lessons/06-heartbeats/lesson.ru.md:13 questions.decide.reasons must give text and why for the reasons no-ops, upgrades, flags, free-ha, typo',
      'lessons/06-heartbeats/lesson.yaml:17 spec.questions[1].answer leave it out: a decision is graded on its reasons, not on one right option',
      'lessons/06-heartbeats/lesson.yaml:24 spec.questions[1].reasons.typo manged: not an option (options: managed, self-managed)',
      'lessons/06-heartbeats/lesson.yaml:20 spec.questions[1].reasons option "self-managed" has 1 supporting reason, fewer than minReasons (2): every option of a decision must be defensible'
    ]);
  });
});
