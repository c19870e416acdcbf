import { describe, expect, it } from 'vitest';
import { runLessonsCheck } from './lessons';

function run(path: string): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runLessonsCheck([path], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe('nodeplane lessons check', () => {
  it('replays the fixture lesson: the node goes Unknown 50s (+ up to one 5s monitor period) after its kubelet stops at 30s', () => {
    const r = run('tests/fixtures/lessons/01-fixture');
    expect(r.stderr).toBe('');
    const m = /solution done at t=1m(\d\d)s/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    const t = 60 + Number(m![1]);
    // Last Lease renewal is at most 10s before the stop; Unknown comes 50s after it, within a 5s monitor period.
    expect(t).toBeGreaterThan(30 + 50 - 10);
    // The controller notices a renewal at its next 5s pass; checks run every virtual second.
    expect(t).toBeLessThanOrEqual(30 + 5 + 50 + 5 + 1);
    expect(r.stdout).toContain('lessons: 1 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('fails a lesson whose solution does not reach the goal, naming the task and what is missing', () => {
    const r = run('tests/fixtures/bad-lessons/01-unsolvable');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL 01-unsolvable');
    expect(r.stderr).toContain(
      'tests/fixtures/bad-lessons/01-unsolvable/lesson.yaml: task "silent" is not done after replaying the solution for 2m: node worker-2 has Ready=True, not Unknown'
    );
  });

  it('fails a lesson whose task already holds in the starting state', () => {
    const r = run('tests/fixtures/bad-lessons/02-trivial');
    expect(r.stderr).toContain('task "ready" already holds in the starting state');
  });

  it('replays every variant of a challenge', () => {
    const r = run('tests/fixtures/lessons/02-challenge');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^ok {3}02-challenge: 2 tasks, 1 questions, en\+ru, 2 variants — solutions done by t=1m\d\ds \(budget 3m\)\n/
    );
    expect(r.code).toBe(0);
  });

  it("fails a challenge when one variant's solution does not fix it, naming the variant", () => {
    const r = run('tests/fixtures/bad-lessons/03-challenge');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL 03-challenge');
    expect(r.stderr).toBe(
      '  tests/fixtures/bad-lessons/03-challenge/lesson.yaml: variant "second": task "fix" is not done after replaying the solution for 3m: node worker-2 has Ready=Unknown, not True\n'
    );
  });

  it('reports a missing folder with exit 2', () => {
    expect(run('no/such/lessons').code).toBe(2);
  });
});
