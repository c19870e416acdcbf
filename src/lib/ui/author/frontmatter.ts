/**
 * Completion and hover for the YAML front matter of lesson.<lang>.md, whose schema is the lesson
 * text schema (`$lib/lessons/schema`): monaco-yaml serves only YAML models, so the Markdown tabs
 * get field names from the same schema here, and the ids of lesson.yaml's tasks and questions.
 * Validation of the front matter comes from the loader (the preview's problems, as markers).
 */
import { parse } from 'yaml';
import { lessonTextSchema } from '$lib/lessons/schema';

type Props = Record<string, { required?: string[]; properties?: Props; additionalProperties?: unknown }>;

export const TEXT_DOCS: Record<string, string> = {
  title: 'The lesson title on the roadmap and in the player.',
  summary: 'One sentence under the title.',
  minutes: 'About how long the lesson takes (1–60).',
  objectives: 'What the learner will be able to do (a list).',
  tasks: 'Each task of lesson.yaml by id: its title and 1–5 hints, revealed one at a time.',
  questions:
    'Each question of lesson.yaml by id: prompt, option texts (choice), correct and incorrect feedback.',
  disabled:
    'Why an action is disabled, keyed like the entry in lesson.yaml ("kubectl delete", "DeleteNode").',
  learned: 'Facts learned, shown in the end-of-lesson summary.',
  variants: 'Challenge lessons: variant id → its hints and the explanation shown once solved.',
  prompt: 'The question as the learner reads it.',
  options: 'Option id (from lesson.yaml) → its text.',
  correct: 'Feedback for a right answer.',
  incorrect: 'Feedback for a wrong answer: a hint, not the answer.',
  hints: 'Hints in layers: the first nudges, the last nearly gives the answer.',
  explanation: 'What was wrong and how it showed, after the challenge is solved.'
};

export interface FrontmatterPlace {
  /** The keys of the enclosing mappings, outermost first (`['tasks', 'run-hello']`). */
  path: string[];
  /** The key on this line, if the line starts with one. */
  key?: string;
}

/** Where line `line` (1-based) sits in the front matter, or undefined outside it. */
export function frontmatterPlace(text: string, line: number): FrontmatterPlace | undefined {
  const lines = text.split('\n');
  if (lines[0]?.trimEnd() !== '---') return undefined;
  const end = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---');
  if (line <= 1 || (end > 0 && line > end)) return undefined;
  const indentOf = (l: string) => l.length - l.trimStart().length;
  const current = lines[line - 1] ?? '';
  let indent = indentOf(current);
  const path: string[] = [];
  for (let i = line - 2; i >= 1 && indent > 0; i--) {
    const l = lines[i];
    if (!l.trim() || l.trimStart().startsWith('-') || l.trimStart().startsWith('#')) continue;
    const ind = indentOf(l);
    if (ind < indent) {
      const m = /^\s*("?)([^":]+)\1:/.exec(l);
      if (m) path.unshift(m[2].trim());
      indent = ind;
    }
  }
  const key = /^\s*("?)([^":]+)\1:/.exec(current)?.[2].trim();
  return { path, key };
}

/** The ids lesson.yaml defines: tasks, questions (and their options), disabled keys, variants. */
export function specIds(specText: string): {
  tasks: string[];
  questions: Record<string, string[]>;
  disabled: string[];
  variants: string[];
} {
  const out = {
    tasks: [] as string[],
    questions: {} as Record<string, string[]>,
    disabled: [] as string[],
    variants: [] as string[]
  };
  let spec: { spec?: Record<string, unknown> } | undefined;
  try {
    spec = parse(specText) as typeof spec;
  } catch {
    return out;
  }
  const s = spec?.spec ?? {};
  const list = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  out.tasks = list(s.tasks)
    .map((t) => String(t?.id ?? ''))
    .filter(Boolean);
  for (const q of list(s.questions))
    if (q?.id) out.questions[String(q.id)] = Array.isArray(q.options) ? q.options.map(String) : [];
  out.disabled = list(s.disabled)
    .map((d) => String(d?.command ?? d?.fault ?? ''))
    .filter(Boolean);
  const ch = s.challenge as { variants?: unknown } | undefined;
  out.variants = list(ch?.variants)
    .map((v) => String(v?.id ?? ''))
    .filter(Boolean);
  return out;
}

export interface Suggestion {
  label: string;
  documentation?: string;
}

/** What may be written as a key at `place`: schema fields, or lesson.yaml's ids. */
export function suggestions(place: FrontmatterPlace, specText: string): Suggestion[] {
  const top = lessonTextSchema.properties as unknown as Props;
  const ids = specIds(specText);
  const fields = (props: Props | undefined): Suggestion[] =>
    Object.keys(props ?? {}).map((k) => ({ label: k, documentation: TEXT_DOCS[k] }));
  const [a, b, c] = place.path;
  if (!a) return fields(top);
  const item = (k: string) => (top[k]?.additionalProperties ?? {}) as { properties?: Props };
  if (place.path.length === 1) {
    if (a === 'tasks') return ids.tasks.map((label) => ({ label }));
    if (a === 'questions') return Object.keys(ids.questions).map((label) => ({ label }));
    if (a === 'disabled') return ids.disabled.map((label) => ({ label }));
    if (a === 'variants') return ids.variants.map((label) => ({ label }));
    return [];
  }
  if (place.path.length === 2 && (a === 'tasks' || a === 'questions' || a === 'variants'))
    return fields(item(a).properties);
  if (place.path.length === 3 && a === 'questions' && c === 'options')
    return (ids.questions[b] ?? []).map((label) => ({ label }));
  if (place.path.length === 3 && a === 'variants' && c === 'hints')
    return ids.tasks.map((label) => ({ label }));
  return [];
}

/** The hover text of the key on line `line`, if it is a front-matter field. */
export function hoverDoc(text: string, line: number): string | undefined {
  const place = frontmatterPlace(text, line);
  if (!place?.key) return undefined;
  const depth = place.path.length;
  if (depth === 0 || (depth === 2 && ['tasks', 'questions', 'variants'].includes(place.path[0])))
    return TEXT_DOCS[place.key];
  return undefined;
}
