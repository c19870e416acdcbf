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
  | 'map'
  | 'timeline'
  | 'scheduling'
  | 'network'
  | 'controlplane'
  | 'health'
  | 'events'
  | 'console'
  | 'editor'
  | 'faults';

export interface DisabledAction {
  /** A console command prefix, e.g. "kubectl delete" or "kubectl drain". */
  command?: string;
  /** A fault action name, e.g. "DeleteNode". */
  fault?: string;
}

export interface QuestionSpec {
  id: string;
  /**
   * choice: one right option; number: a value within a tolerance; decision: an option and the
   * reasons for it, graded on the reasons (every option can be right).
   */
  type: 'choice' | 'number' | 'decision';
  /** choice, decision: option ids; the text of each option is in the Markdown frontmatter. */
  options?: string[];
  /**
   * choice: the correct option id; number: the expected value. Absent for a decision and for a
   * challenge's question, whose answer each variant gives.
   */
  answer: string | number;
  /**
   * decision: reason id → the options it supports; a reason supporting none is a belief that
   * is not true. The answer is correct when it picks at least `minReasons` reasons, each of them
   * supporting the chosen option. The learner answers `<option>:<reason>,<reason>`.
   */
  reasons?: Record<string, string[]>;
  /** decision: how many supporting reasons a good answer gives (default 2). */
  minReasons?: number;
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
  /** The exit code `run` must end with (default 0). */
  exitCode?: number;
  apply?: string;
  fault?: { action: string; target?: string; [k: string]: unknown };
  answer?: { question: string; value: string | number };
}

/**
 * One way the challenge breaks the cluster. The variant of an attempt is drawn from a seed
 * (`chooseVariant`); `resolveVariant` turns the lesson into the lesson of that variant.
 */
export interface ChallengeVariant {
  id: string;
  /** The correct option of the challenge question ("which component is at fault?"). */
  answer: string;
  /** Steps that break the cluster, played at their virtual times like solution steps. */
  setup: SolutionStep[];
  /**
   * Task id → the check that proves the fault is fixed, replacing the task's own check. Such a
   * task ticks only after its check has failed once since the setup finished (the fault showed).
   */
  checks: Record<string, Check>;
  /** The reference solution of this variant (after the lesson's own solution steps, if any). */
  solution: SolutionStep[];
}

export interface ChallengeSpec {
  /** The id of the choice question the learner answers with the faulty component. */
  question: string;
  variants: ChallengeVariant[];
}

export interface LessonSpec {
  apiVersion: 'nodeplane.dev/v1alpha1';
  kind: 'Lesson';
  metadata: { name: string };
  spec: {
    /** Virtual time within which the reference solution must satisfy every task. */
    timeBudget: string;
    /**
     * How the lab opens: `running` (default) plays the scenario's start quietly until its nodes
     * are Ready and its workloads Running; `boot` opens at t=0 for a lesson about the start itself.
     */
    start?: 'running' | 'boot';
    views: LabView[];
    disabled?: DisabledAction[];
    questions?: QuestionSpec[];
    tasks: TaskSpec[];
    /** Required unless the lesson is a challenge (then each variant brings its own). */
    solution: SolutionStep[];
    /** Files `kubectl apply -f <name>` can read in this lesson (name → YAML). */
    files?: Record<string, string>;
    /** A troubleshooting challenge: one of several faults, drawn from a seed. */
    challenge?: ChallengeSpec;
  };
}

/** Text of one challenge variant in a language. */
export interface LessonTextVariant {
  /** Task id → hints replacing that task's hints in this variant. */
  hints?: Record<string, string[]>;
  /** Shown after the challenge is solved: what was wrong and how it showed. */
  explanation: string;
}

export interface LessonTextTask {
  title: string;
  hints: string[];
}

export interface LessonTextQuestion {
  prompt: string;
  /** choice, decision: option id → text. */
  options?: Record<string, string>;
  /** decision: reason id → its text and why it does (or does not) weigh for an option. */
  reasons?: Record<string, { text: string; why: string }>;
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
  /** Challenge lessons: variant id → its hints and explanation. */
  variants?: Record<string, LessonTextVariant>;
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
  /** A challenge lesson resolved to one variant (resolveVariant): what is set up and checked. */
  variant?: ResolvedVariant;
  /** Paths used in error messages. */
  paths: { dir: string; spec: string; scenario: string; text: Record<Language, string> };
}

export interface ResolvedVariant {
  id: string;
  /** The seed the variant was drawn from (undefined when chosen by id). */
  seed?: number;
  setup: SolutionStep[];
  /** Tasks whose check the variant replaced: they tick only after the fault showed. */
  gated: string[];
}

export interface LessonIssue {
  file: string;
  line?: number;
  field?: string;
  /** In English, as the CLI prints it. */
  message: string;
  /** The message's code in lessons/issue-text.ts, so a page can word it in the reader's language. */
  code?: string;
  args?: Record<string, string | number>;
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
