/**
 * The lesson format. A lesson is a folder `lessons/NN-slug/` with:
 *   lesson.yaml      structure: views, disabled actions, questions (answers), tasks (checks), solution
 *   lesson.en.md     English text: frontmatter (title, summary, minutes, objectives, task titles and
 *   lesson.ru.md     hints, question prompts and feedback) and Markdown steps
 *   scenario.yaml    the starting cluster (docs/scenario-format.md)
 * See docs/lesson-format.md.
 */
import type { Check } from './checks';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

export type LabView =
  'map' | 'timeline' | 'scheduling' | 'network' | 'controlplane' | 'events' | 'console' | 'editor' | 'faults';

export interface DisabledAction {
  /** A console command prefix, e.g. "kubectl delete" or "kubectl drain". */
  command?: string;
  /** A fault action name, e.g. "DeleteNode". */
  fault?: string;
}

export interface QuestionSpec {
  id: string;
  type: 'choice' | 'number';
  /** choice: option ids; the text of each option is in the Markdown frontmatter. */
  options?: string[];
  /** choice: the correct option id; number: the expected value. */
  answer: string | number;
  /** number: accepted absolute difference. */
  tolerance?: number;
  unit?: string;
}

export interface TaskSpec {
  id: string;
  check: Check;
}

/** One step of the reference solution, at a virtual time from the lesson start. */
export interface SolutionStep {
  at: string;
  run?: string;
  apply?: string;
  fault?: { action: string; target?: string; [k: string]: unknown };
  answer?: { question: string; value: string | number };
}

export interface LessonSpec {
  apiVersion: 'nodeplane.dev/v1alpha1';
  kind: 'Lesson';
  metadata: { name: string };
  spec: {
    /** Virtual time within which the reference solution must satisfy every task. */
    timeBudget: string;
    views: LabView[];
    disabled?: DisabledAction[];
    questions?: QuestionSpec[];
    tasks: TaskSpec[];
    solution: SolutionStep[];
    /** Files `kubectl apply -f <name>` can read in this lesson (name → YAML). */
    files?: Record<string, string>;
  };
}

export interface LessonTextTask {
  title: string;
  hints: string[];
}

export interface LessonTextQuestion {
  prompt: string;
  /** choice: option id → text. */
  options?: Record<string, string>;
  correct: string;
  incorrect: string;
}

export interface LessonText {
  title: string;
  summary: string;
  minutes: number;
  objectives: string[];
  tasks: Record<string, LessonTextTask>;
  questions?: Record<string, LessonTextQuestion>;
  /** Why an action is disabled, keyed like the disabled entry ("kubectl delete", "DeleteNode"). */
  disabled?: Record<string, string>;
  /** Facts learned, shown in the end-of-lesson summary. */
  learned: string[];
  /** Markdown body (steps separated by `## ` headings). */
  body: string;
  /** 1-based line where the body starts in the .md file (for error messages). */
  bodyLine: number;
}

export interface Lesson {
  /** Folder name, e.g. 06-heartbeats. */
  slug: string;
  order: number;
  spec: LessonSpec;
  text: Record<Language, LessonText>;
  scenario: string;
  /** Paths used in error messages. */
  paths: { dir: string; spec: string; scenario: string; text: Record<Language, string> };
}

export interface LessonIssue {
  file: string;
  line?: number;
  field?: string;
  message: string;
}

export class LessonError extends Error {
  constructor(readonly issues: LessonIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'LessonError';
  }
}

export function formatIssue(i: LessonIssue): string {
  return `${i.file}${i.line ? `:${i.line}` : ''}: ${i.field ? `${i.field}: ` : ''}${i.message}`;
}
