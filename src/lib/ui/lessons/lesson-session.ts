/**
 * `LessonSession` (src/lib/lessons/session.ts) for the browser. That module imports
 * `isCorrectAnswer` from the loader, and importing the loader compiles its Ajv validators, which the
 * app's Content-Security-Policy (no 'unsafe-eval') refuses, so the page would fail to load. This
 * is the same model without that import; `lesson-session.test.ts` holds it to the original's
 * behaviour step by step. Once `isCorrectAnswer` lives outside loader.ts, the player can use
 * `LessonSession` directly and this file goes.
 */
import type { Cluster } from '$lib/sim/cluster';
import { evaluate } from '$lib/lessons/checks';
import type { Language, Lesson, QuestionSpec } from '$lib/lessons/format';
import type { TaskState } from '$lib/lessons/session';

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

export class BrowserLessonSession {
  answers: Record<string, { value: string | number; correct: boolean }> = {};
  tasks: TaskState[];
  hintsUsed: Record<string, number> = {};
  solutionViewed = false;

  constructor(
    readonly lesson: Lesson,
    public cluster: Cluster,
    public lang: Language = 'en'
  ) {
    this.tasks = this.freshTasks();
  }

  private freshTasks(): TaskState[] {
    return this.lesson.spec.spec.tasks.map((t) => ({ id: t.id, done: false, detail: '' }));
  }

  /** Follow a new cluster (the lab's reset); answers and ticks are kept unless `full`. */
  reset(cluster: Cluster, full = false): void {
    this.cluster = cluster;
    if (full) {
      this.answers = {};
      this.tasks = this.freshTasks();
    }
  }

  answer(questionId: string, value: string | number): boolean {
    const q = (this.lesson.spec.spec.questions ?? []).find((x) => x.id === questionId);
    if (!q) throw new Error(`unknown question "${questionId}"`);
    const correct = isCorrectAnswer(q, value);
    if (!this.answers[questionId]?.correct) this.answers[questionId] = { value, correct };
    this.evaluateTasks();
    return correct;
  }

  evaluateTasks(): TaskState[] {
    const answers = Object.fromEntries(Object.entries(this.answers).map(([k, v]) => [k, v.correct]));
    const newly: TaskState[] = [];
    for (const [i, t] of this.lesson.spec.spec.tasks.entries()) {
      const st = this.tasks[i];
      if (st.done) continue;
      const r = evaluate(t.check, { cluster: this.cluster, answers, lang: this.lang });
      st.detail = r.detail;
      if (r.ok) {
        st.done = true;
        st.doneAt = this.cluster.now;
        newly.push(st);
      }
    }
    return newly;
  }

  get complete(): boolean {
    return this.tasks.every((t) => t.done);
  }

  disabledReason(argv: string[]): string | undefined {
    const line = argv.join(' ');
    for (const d of this.lesson.spec.spec.disabled ?? []) {
      if (d.command && (line === d.command || line.startsWith(d.command + ' '))) {
        return this.lesson.text[this.lang].disabled?.[d.command] ?? `${d.command} is disabled in this lesson`;
      }
    }
    return undefined;
  }

  faultDisabled(action: string): string | undefined {
    const d = (this.lesson.spec.spec.disabled ?? []).find((x) => x.fault === action);
    return d
      ? (this.lesson.text[this.lang].disabled?.[action] ?? `${action} is disabled in this lesson`)
      : undefined;
  }

  useHint(taskId: string): string | undefined {
    const hints = this.lesson.text[this.lang].tasks[taskId]?.hints ?? [];
    const n = Math.min((this.hintsUsed[taskId] ?? 0) + 1, hints.length);
    this.hintsUsed[taskId] = n;
    return hints[n - 1];
  }
}
