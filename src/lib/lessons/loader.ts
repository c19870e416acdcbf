/**
 * Load and validate lessons from their files. Works on a map of path → text so the same code
 * runs in Node (the CLI reads the folder) and in the browser (Vite bundles the files).
 * Every problem names the file, the line and the field.
 */
import type { ErrorObject } from 'ajv';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { findExcessiveNesting, MAX_YAML_DEPTH } from '../sim/manifests/depth';
import {
  LANGUAGES,
  LessonError,
  type Language,
  type Lesson,
  type LessonIssue,
  type LessonSpec,
  type LessonText
} from './format';
import { validateSpec, validateText } from './validators';

const DIR_RE = /^(\d{2})-([a-z0-9][-a-z0-9]*)$/;

interface Parsed<T> {
  value?: T;
  issues: LessonIssue[];
}

export function lineOf(
  doc: Document,
  lc: LineCounter,
  path: (string | number)[],
  lineOffset: number
): number | undefined {
  for (let i = path.length; i >= 0; i--) {
    const node = doc.getIn(path.slice(0, i), true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line + lineOffset;
  }
  return undefined;
}

export function ajvIssues(
  errors: ErrorObject[] | null | undefined,
  file: string,
  doc: Document,
  lc: LineCounter,
  lineOffset: number
): LessonIssue[] {
  const out: LessonIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // oneOf/anyOf branches repeat each other; keep the first message per field.
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
    let field = path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
    let message = e.message ?? 'invalid';
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${extra}` : extra;
      message = 'unknown field';
      path.push(extra);
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      field = field ? `${field}.${missing}` : missing;
      message = 'required field is missing';
    } else if (
      e.keyword === 'pattern' &&
      String((e.params as { pattern?: string }).pattern).includes('ms|s|m|h')
    ) {
      message = 'must be a duration like 90s, 5m or 1h30m';
    }
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, line: lineOf(doc, lc, path, lineOffset), field: field || undefined, message });
  }
  return out;
}

export function parseYaml<T>(
  text: string,
  file: string,
  lineOffset = 0
): Parsed<T> & { doc?: Document; lc?: LineCounter } {
  const deep = findExcessiveNesting(text);
  if (deep)
    return { issues: [{ file, line: deep.line + lineOffset, message: `invalid YAML: ${deep.message}` }] };
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      issues: doc.errors.map((e) => ({
        file,
        line: lc.linePos(e.pos[0]).line + lineOffset,
        message: `invalid YAML: ${e.message.split('\n')[0].replace(/^Maximum call stack size exceeded.*/, `exceeded max depth of ${MAX_YAML_DEPTH}`)}`
      }))
    };
  }
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }) as T, issues: [], doc, lc };
  } catch (e) {
    // Aliases expanding past the limit (a "billion laughs" document).
    return {
      issues: [
        { file, line: 1 + lineOffset, message: `invalid YAML: ${(e as Error).message.split('\n')[0]}` }
      ]
    };
  }
}

/** Split `---\nfrontmatter\n---\nbody`; returns the frontmatter text and where the body starts. */
export function splitFrontmatter(md: string): { front: string; body: string; bodyLine: number } | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(md);
  if (!m) return undefined;
  const bodyLine = m[0].split('\n').length;
  return { front: m[1], body: md.slice(m[0].length), bodyLine };
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
}

export interface LoadOptions {
  /**
   * The languages every lesson must be written in (a pack's `languages`; default both). A lesson
   * without text in another language shows the first of these instead.
   */
  languages?: readonly Language[];
}

/** Load one lesson folder. `files` maps a file name inside the folder (lesson.yaml, ...) to its text. */
export function loadLesson(dir: string, files: Record<string, string>, options: LoadOptions = {}): Lesson {
  const required = options.languages?.length ? options.languages : LANGUAGES;
  const issues: LessonIssue[] = [];
  const folder = dir.split('/').filter(Boolean).pop() ?? dir;
  const m = DIR_RE.exec(folder);
  if (!m) issues.push({ file: dir, message: 'a lesson folder is named NN-slug, e.g. 06-heartbeats' });
  const specPath = `${dir}/lesson.yaml`;
  const scenarioPath = `${dir}/scenario.yaml`;
  const textPaths = Object.fromEntries(LANGUAGES.map((l) => [l, `${dir}/lesson.${l}.md`])) as Record<
    Language,
    string
  >;

  let spec: LessonSpec | undefined;
  let specLine: (path: (string | number)[]) => number | undefined = () => undefined;
  if (files['lesson.yaml'] === undefined) issues.push({ file: specPath, message: 'file is missing' });
  else {
    const p = parseYaml<LessonSpec>(files['lesson.yaml'], specPath);
    issues.push(...p.issues);
    if (p.value !== undefined && p.doc && p.lc) {
      const { doc, lc } = p;
      specLine = (path) => lineOf(doc, lc, path, 0);
      if (!validateSpec(p.value)) issues.push(...ajvIssues(validateSpec.errors, specPath, p.doc, p.lc, 0));
      else spec = p.value;
    }
  }
  if (files['scenario.yaml'] === undefined) issues.push({ file: scenarioPath, message: 'file is missing' });

  const text = {} as Record<Language, LessonText>;
  for (const lang of LANGUAGES) {
    const file = textPaths[lang];
    const md = files[`lesson.${lang}.md`];
    if (md === undefined) {
      if (!required.includes(lang)) continue;
      issues.push({
        file,
        message:
          required === LANGUAGES
            ? 'file is missing (every lesson has English and Russian text)'
            : `file is missing (the pack's languages are ${required.join(', ')})`
      });
      continue;
    }
    const fm = splitFrontmatter(md);
    if (!fm) {
      issues.push({ file, line: 1, message: 'the file must start with YAML frontmatter between --- lines' });
      continue;
    }
    const p = parseYaml<Omit<LessonText, 'body' | 'bodyLine'>>(fm.front, file, 1);
    issues.push(...p.issues);
    if (p.value === undefined || !p.doc || !p.lc) continue;
    if (!validateText(p.value)) {
      issues.push(...ajvIssues(validateText.errors, file, p.doc, p.lc, 1));
      continue;
    }
    text[lang] = { ...p.value, body: fm.body, bodyLine: fm.bodyLine };
    if (spec) {
      const line = (path: (string | number)[]) => lineOf(p.doc!, p.lc!, path, 1);
      const taskIds = spec.spec.tasks.map((t) => t.id);
      if (!sameKeys(Object.keys(p.value.tasks), taskIds)) {
        issues.push({
          file,
          line: line(['tasks']),
          field: 'tasks',
          message: `must describe exactly the tasks of lesson.yaml: ${taskIds.join(', ')}`
        });
      }
      const qIds = (spec.spec.questions ?? []).map((q) => q.id);
      if (!sameKeys(Object.keys(p.value.questions ?? {}), qIds)) {
        issues.push({
          file,
          line: line(['questions']),
          field: 'questions',
          message: `must describe exactly the questions of lesson.yaml: ${qIds.join(', ') || '(none)'}`
        });
      }
      for (const q of spec.spec.questions ?? []) {
        const tq = p.value.questions?.[q.id];
        if (q.type === 'choice' && tq && !sameKeys(Object.keys(tq.options ?? {}), q.options ?? [])) {
          issues.push({
            file,
            line: line(['questions', q.id, 'options']),
            field: `questions.${q.id}.options`,
            message: `must give text for the options ${(q.options ?? []).join(', ')}`
          });
        }
      }
      for (const d of spec.spec.disabled ?? []) {
        const key = d.command ?? d.fault!;
        if (!p.value.disabled?.[key]) {
          issues.push({
            file,
            line: line(['disabled']),
            field: `disabled.${key}`,
            message: 'say why this action is disabled'
          });
        }
      }
      const variantIds = (spec.spec.challenge?.variants ?? []).map((v) => v.id);
      if (!spec.spec.challenge && p.value.variants) {
        issues.push({
          file,
          line: line(['variants']),
          field: 'variants',
          message: 'only a challenge lesson (spec.challenge in lesson.yaml) has variants'
        });
      } else if (spec.spec.challenge && !sameKeys(Object.keys(p.value.variants ?? {}), variantIds)) {
        issues.push({
          file,
          line: line(['variants']),
          field: 'variants',
          message: `must describe exactly the challenge variants of lesson.yaml: ${variantIds.join(', ')}`
        });
      }
      for (const [vid, tv] of Object.entries(p.value.variants ?? {})) {
        for (const tid of Object.keys(tv.hints ?? {})) {
          if (!taskIds.includes(tid))
            issues.push({
              file,
              line: line(['variants', vid, 'hints', tid]),
              field: `variants.${vid}.hints.${tid}`,
              message: `no such task (tasks: ${taskIds.join(', ')})`
            });
        }
      }
      for (const ref of fm.body.matchAll(/```question\s+([^\s`]+)/g)) {
        if (!qIds.includes(ref[1])) {
          const l = fm.body.slice(0, ref.index).split('\n').length + fm.bodyLine - 1;
          issues.push({
            file,
            line: l,
            message: `the body embeds question "${ref[1]}", which lesson.yaml does not define`
          });
        }
      }
    }
  }

  if (spec) {
    const slug = m?.[2];
    if (slug && spec.metadata.name !== slug) {
      issues.push({
        file: specPath,
        field: 'metadata.name',
        message: `must be "${slug}" (the folder name without its number)`
      });
    }
    const challenge = spec.spec.challenge;
    if (!challenge && !spec.spec.solution) {
      issues.push({
        file: specPath,
        line: specLine(['spec']),
        field: 'spec.solution',
        message: 'required field is missing'
      });
    }
    spec.spec.solution ??= [];
    const dupTasks = spec.spec.tasks.map((t) => t.id).filter((id, i, a) => a.indexOf(id) !== i);
    if (dupTasks.length)
      issues.push({
        file: specPath,
        field: 'spec.tasks',
        message: `duplicate task ids: ${dupTasks.join(', ')}`
      });
    for (const [i, q] of (spec.spec.questions ?? []).entries()) {
      const field = `spec.questions[${i}].answer`;
      if (challenge?.question === q.id) {
        if (q.answer !== undefined)
          issues.push({
            file: specPath,
            line: specLine(['spec', 'questions', i, 'answer']),
            field,
            message: 'leave it out: each challenge variant gives the answer of the challenge question'
          });
        continue;
      }
      if (q.answer === undefined) {
        issues.push({
          file: specPath,
          line: specLine(['spec', 'questions', i]),
          field,
          message: 'required field is missing'
        });
        continue;
      }
      if (q.type === 'choice' && (!q.options || !q.options.includes(String(q.answer)))) {
        issues.push({
          file: specPath,
          field: `spec.questions[${i}].answer`,
          message: 'must be one of the options'
        });
      }
      if (q.type === 'number' && typeof q.answer !== 'number') {
        issues.push({
          file: specPath,
          field: `spec.questions[${i}].answer`,
          message: 'must be a number for a number question'
        });
      }
    }
    const referenced = new Set<string>();
    const walk = (c: unknown) => {
      if (!c || typeof c !== 'object') return;
      const o = c as Record<string, unknown>;
      if (o.question && typeof o.question === 'object') referenced.add((o.question as { id: string }).id);
      for (const v of Object.values(o)) (Array.isArray(v) ? v : [v]).forEach(walk);
    };
    spec.spec.tasks.forEach((t) => walk(t.check));
    for (const v of challenge?.variants ?? []) Object.values(v.checks).forEach(walk);
    if (challenge) issues.push(...challengeIssues(spec, specPath, specLine));
    for (const id of referenced) {
      if (!(spec.spec.questions ?? []).some((q) => q.id === id)) {
        issues.push({
          file: specPath,
          field: 'spec.tasks',
          message: `a check refers to question "${id}", which is not defined`
        });
      }
    }
  }

  if (issues.length) throw new LessonError(issues);
  // A language the lesson is not written in shows the first language it is written in.
  for (const lang of LANGUAGES) text[lang] ??= text[required[0]];
  return {
    slug: folder,
    order: Number(m![1]),
    spec: spec!,
    text,
    scenario: files['scenario.yaml'],
    paths: { dir, spec: specPath, scenario: scenarioPath, text: textPaths }
  };
}

/** Mistakes in `spec.challenge` the schema cannot see: references between its parts. */
function challengeIssues(
  spec: LessonSpec,
  file: string,
  line: (path: (string | number)[]) => number | undefined
): LessonIssue[] {
  const ch = spec.spec.challenge!;
  const out: LessonIssue[] = [];
  const issue = (path: (string | number)[], message: string) =>
    out.push({
      file,
      line: line(path),
      field: path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
        .join('')
        .replace(/^\./, ''),
      message
    });
  const questions = spec.spec.questions ?? [];
  const q = questions.find((x) => x.id === ch.question);
  if (!q) {
    issue(
      ['spec', 'challenge', 'question'],
      `no question "${ch.question}" in spec.questions (questions: ${questions.map((x) => x.id).join(', ') || 'none'})`
    );
  } else if (q.type !== 'choice') {
    issue(['spec', 'challenge', 'question'], `question "${q.id}" must be a choice question`);
  }
  const taskIds = spec.spec.tasks.map((t) => t.id);
  const seen = new Set<string>();
  ch.variants.forEach((v, i) => {
    const at = ['spec', 'challenge', 'variants', i];
    if (seen.has(v.id)) issue([...at, 'id'], `duplicate variant id "${v.id}"`);
    seen.add(v.id);
    if (q?.type === 'choice' && !(q.options ?? []).includes(v.answer))
      issue(
        [...at, 'answer'],
        `variant "${v.id}": must be one of the options of question "${q.id}": ${(q.options ?? []).join(', ')}`
      );
    for (const tid of Object.keys(v.checks)) {
      if (!taskIds.includes(tid))
        issue([...at, 'checks', tid], `variant "${v.id}": no such task (tasks: ${taskIds.join(', ')})`);
    }
    v.setup.forEach((st, j) => {
      if (st.answer)
        issue(
          [...at, 'setup', j, 'answer'],
          `variant "${v.id}": the setup breaks the cluster; it cannot answer questions`
        );
    });
    v.solution.forEach((st, j) => {
      if (st.answer && !questions.some((x) => x.id === st.answer!.question))
        issue(
          [...at, 'solution', j, 'answer', 'question'],
          `variant "${v.id}": no question "${st.answer.question}"`
        );
    });
  });
  return out;
}

/**
 * Load every lesson from a map of paths like `lessons/06-heartbeats/lesson.yaml` → text.
 * Returns the lessons in order and the problems of the ones that failed (they are skipped).
 */
export function loadLessons(
  files: Record<string, string>,
  options: LoadOptions = {}
): { lessons: Lesson[]; errors: LessonError[] } {
  const dirs = new Map<string, Record<string, string>>();
  for (const [path, text] of Object.entries(files)) {
    const parts = path.split('/');
    const name = parts.pop()!;
    const dir = parts.join('/');
    if (!dirs.has(dir)) dirs.set(dir, {});
    dirs.get(dir)![name] = text;
  }
  const lessons: Lesson[] = [];
  const errors: LessonError[] = [];
  for (const [dir, f] of [...dirs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    try {
      lessons.push(loadLesson(dir, f, options));
    } catch (e) {
      if (e instanceof LessonError) errors.push(e);
      else throw e;
    }
  }
  return { lessons, errors };
}

export { isCorrectAnswer } from './answers';
