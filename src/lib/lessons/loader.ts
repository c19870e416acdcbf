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
  type LessonText,
  type QuestionSpec
} from './format';
import { validateSpec, validateText } from './validators';
import { DEFAULT_MIN_REASONS } from './answers';
import { issueText, say, type IssueArgs, type IssueCode } from './issue-text';

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

/** Ajv's English for the common keywords, with a code when the words are the ones the catalog has. */
function ajvWording(e: ErrorObject): Pick<LessonIssue, 'message' | 'code' | 'args'> {
  const message = e.message ?? 'invalid';
  const p = e.params as Record<string, unknown>;
  const as = (code: IssueCode, args: IssueArgs = {}) =>
    issueText(code, args) === message ? say(code, args) : { message };
  switch (e.keyword) {
    case 'type':
      return as('type', { type: String(p.type) });
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return as('compare', { comparison: String(p.comparison), limit: Number(p.limit) });
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return as(e.keyword, { limit: Number(p.limit) });
    case 'pattern':
      return as('pattern', { pattern: String(p.pattern) });
    case 'const':
      return as('constant');
    case 'oneOf':
      return as('oneOfSchemas');
    case 'anyOf':
      return as('anyOfSchemas');
    default:
      return { message };
  }
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
    let said: Pick<LessonIssue, 'message' | 'code' | 'args'> = ajvWording(e);
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${extra}` : extra;
      said = say('unknownField');
      path.push(extra);
    } else if (e.keyword === 'enum') {
      said = say('oneOfValues', {
        values: (e.params as { allowedValues: unknown[] }).allowedValues.join(', ')
      });
    } else if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      field = field ? `${field}.${missing}` : missing;
      said = say('required');
    } else if (
      e.keyword === 'pattern' &&
      String((e.params as { pattern?: string }).pattern).includes('ms|s|m|h')
    ) {
      said = say('duration');
    }
    const key = `${field}\u0000${said.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, line: lineOf(doc, lc, path, lineOffset), field: field || undefined, ...said });
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
    return {
      issues: [{ file, line: deep.line + lineOffset, ...say('yamlInvalid', { detail: deep.message }) }]
    };
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      issues: doc.errors.map((e) => ({
        file,
        line: lc.linePos(e.pos[0]).line + lineOffset,
        ...say('yamlInvalid', {
          detail: e.message
            .split('\n')[0]
            .replace(/^Maximum call stack size exceeded.*/, `exceeded max depth of ${MAX_YAML_DEPTH}`)
        })
      }))
    };
  }
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }) as T, issues: [], doc, lc };
  } catch (e) {
    // Aliases expanding past the limit (a "billion laughs" document).
    return {
      issues: [
        { file, line: 1 + lineOffset, ...say('yamlInvalid', { detail: (e as Error).message.split('\n')[0] }) }
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
  if (!m) issues.push({ file: dir, ...say('folderName') });
  const specPath = `${dir}/lesson.yaml`;
  const scenarioPath = `${dir}/scenario.yaml`;
  const textPaths = Object.fromEntries(LANGUAGES.map((l) => [l, `${dir}/lesson.${l}.md`])) as Record<
    Language,
    string
  >;

  let spec: LessonSpec | undefined;
  let specLine: (path: (string | number)[]) => number | undefined = () => undefined;
  if (files['lesson.yaml'] === undefined) issues.push({ file: specPath, ...say('fileMissing') });
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
  if (files['scenario.yaml'] === undefined) issues.push({ file: scenarioPath, ...say('fileMissing') });

  const text = {} as Record<Language, LessonText>;
  for (const lang of LANGUAGES) {
    const file = textPaths[lang];
    const md = files[`lesson.${lang}.md`];
    if (md === undefined) {
      if (!required.includes(lang)) continue;
      issues.push({
        file,
        ...(required === LANGUAGES
          ? say('textMissing')
          : say('textMissingPack', { languages: required.join(', ') }))
      });
      continue;
    }
    const fm = splitFrontmatter(md);
    if (!fm) {
      issues.push({ file, line: 1, ...say('frontmatter') });
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
          ...say('textTasks', { ids: taskIds.join(', ') })
        });
      }
      const qIds = (spec.spec.questions ?? []).map((q) => q.id);
      if (!sameKeys(Object.keys(p.value.questions ?? {}), qIds)) {
        issues.push({
          file,
          line: line(['questions']),
          field: 'questions',
          ...(qIds.length ? say('textQuestions', { ids: qIds.join(', ') }) : say('textNoQuestions'))
        });
      }
      for (const q of spec.spec.questions ?? []) {
        const tq = p.value.questions?.[q.id];
        if (
          q.type === 'decision' &&
          tq &&
          !sameKeys(Object.keys(tq.reasons ?? {}), Object.keys(q.reasons ?? {}))
        ) {
          issues.push({
            file,
            line: line(['questions', q.id, 'reasons']),
            field: `questions.${q.id}.reasons`,
            ...say('textReasons', { ids: Object.keys(q.reasons ?? {}).join(', ') })
          });
        }
        if (q.type !== 'number' && tq && !sameKeys(Object.keys(tq.options ?? {}), q.options ?? [])) {
          issues.push({
            file,
            line: line(['questions', q.id, 'options']),
            field: `questions.${q.id}.options`,
            ...say('textOptions', { ids: (q.options ?? []).join(', ') })
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
            ...say('disabledWhy')
          });
        }
      }
      const variantIds = (spec.spec.challenge?.variants ?? []).map((v) => v.id);
      if (!spec.spec.challenge && p.value.variants) {
        issues.push({
          file,
          line: line(['variants']),
          field: 'variants',
          ...say('variantsNotChallenge')
        });
      } else if (spec.spec.challenge && !sameKeys(Object.keys(p.value.variants ?? {}), variantIds)) {
        issues.push({
          file,
          line: line(['variants']),
          field: 'variants',
          ...say('textVariants', { ids: variantIds.join(', ') })
        });
      }
      for (const [vid, tv] of Object.entries(p.value.variants ?? {})) {
        for (const tid of Object.keys(tv.hints ?? {})) {
          if (!taskIds.includes(tid))
            issues.push({
              file,
              line: line(['variants', vid, 'hints', tid]),
              field: `variants.${vid}.hints.${tid}`,
              ...say('noSuchTask', { ids: taskIds.join(', ') })
            });
        }
      }
      for (const ref of fm.body.matchAll(/```question\s+([^\s`]+)/g)) {
        if (!qIds.includes(ref[1])) {
          const l = fm.body.slice(0, ref.index).split('\n').length + fm.bodyLine - 1;
          issues.push({
            file,
            line: l,
            ...say('bodyQuestion', { id: ref[1] })
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
        ...say('nameSlug', { slug })
      });
    }
    const challenge = spec.spec.challenge;
    if (!challenge && !spec.spec.solution) {
      issues.push({
        file: specPath,
        line: specLine(['spec']),
        field: 'spec.solution',
        ...say('required')
      });
    }
    spec.spec.solution ??= [];
    const dupTasks = spec.spec.tasks.map((t) => t.id).filter((id, i, a) => a.indexOf(id) !== i);
    if (dupTasks.length)
      issues.push({
        file: specPath,
        field: 'spec.tasks',
        ...say('duplicateTasks', { ids: dupTasks.join(', ') })
      });
    for (const [i, q] of (spec.spec.questions ?? []).entries()) {
      const field = `spec.questions[${i}].answer`;
      if (challenge?.question === q.id) {
        if (q.answer !== undefined)
          issues.push({
            file: specPath,
            line: specLine(['spec', 'questions', i, 'answer']),
            field,
            ...say('challengeAnswer')
          });
        continue;
      }
      if (q.type === 'decision') {
        issues.push(...decisionIssues(q, i, specPath, specLine));
        continue;
      }
      if (q.answer === undefined) {
        issues.push({
          file: specPath,
          line: specLine(['spec', 'questions', i]),
          field,
          ...say('required')
        });
        continue;
      }
      if (q.type === 'choice' && (!q.options || !q.options.includes(String(q.answer)))) {
        issues.push({
          file: specPath,
          field: `spec.questions[${i}].answer`,
          ...say('notAnOption')
        });
      }
      if (q.type === 'number' && typeof q.answer !== 'number') {
        issues.push({
          file: specPath,
          field: `spec.questions[${i}].answer`,
          ...say('numberAnswer')
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
          ...say('checkQuestion', { id })
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

/**
 * A decision question is graded on reasons: it has no single answer, each reason supports known
 * options, and every option can be defended with `minReasons` reasons (else it is a choice).
 */
function decisionIssues(
  q: QuestionSpec,
  i: number,
  file: string,
  line: (path: (string | number)[]) => number | undefined
): LessonIssue[] {
  const out: LessonIssue[] = [];
  const at = (path: (string | number)[], field: string, code: IssueCode, args: IssueArgs = {}) =>
    out.push({
      file,
      line: line(['spec', 'questions', i, ...path]),
      field: `spec.questions[${i}].${field}`,
      ...say(code, args)
    });
  if (q.answer !== undefined) at(['answer'], 'answer', 'decisionAnswer');
  const options = q.options ?? [];
  if (!options.length) at([], 'options', 'decisionOptions');
  if (!q.reasons) {
    at([], 'reasons', 'decisionReasons');
    return out;
  }
  for (const [r, supports] of Object.entries(q.reasons)) {
    const unknown = supports.filter((o) => !options.includes(o));
    if (unknown.length)
      at(['reasons', r], `reasons.${r}`, 'reasonOptions', {
        unknown: unknown.join(', '),
        options: options.join(', ')
      });
  }
  const min = q.minReasons ?? DEFAULT_MIN_REASONS;
  for (const o of options) {
    const n = Object.values(q.reasons).filter((s) => s.includes(o)).length;
    if (n < min) at(['reasons'], 'reasons', 'minReasons', { option: o, count: n, min });
  }
  return out;
}

/** Mistakes in `spec.challenge` the schema cannot see: references between its parts. */
function challengeIssues(
  spec: LessonSpec,
  file: string,
  line: (path: (string | number)[]) => number | undefined
): LessonIssue[] {
  const ch = spec.spec.challenge!;
  const out: LessonIssue[] = [];
  const issue = (path: (string | number)[], code: IssueCode, args: IssueArgs = {}) =>
    out.push({
      file,
      line: line(path),
      field: path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
        .join('')
        .replace(/^\./, ''),
      ...say(code, args)
    });
  const questions = spec.spec.questions ?? [];
  const q = questions.find((x) => x.id === ch.question);
  if (!q) {
    if (questions.length)
      issue(['spec', 'challenge', 'question'], 'challengeQuestion', {
        id: ch.question,
        ids: questions.map((x) => x.id).join(', ')
      });
    else issue(['spec', 'challenge', 'question'], 'challengeNoQuestions', { id: ch.question });
  } else if (q.type !== 'choice') {
    issue(['spec', 'challenge', 'question'], 'choiceQuestion', { id: q.id });
  }
  const taskIds = spec.spec.tasks.map((t) => t.id);
  const seen = new Set<string>();
  ch.variants.forEach((v, i) => {
    const at = ['spec', 'challenge', 'variants', i];
    if (seen.has(v.id)) issue([...at, 'id'], 'duplicateVariant', { id: v.id });
    seen.add(v.id);
    if (q?.type === 'choice' && !(q.options ?? []).includes(v.answer))
      issue([...at, 'answer'], 'variantAnswer', {
        variant: v.id,
        id: q.id,
        options: (q.options ?? []).join(', ')
      });
    for (const tid of Object.keys(v.checks)) {
      if (!taskIds.includes(tid))
        issue([...at, 'checks', tid], 'variantNoSuchTask', { variant: v.id, ids: taskIds.join(', ') });
    }
    v.setup.forEach((st, j) => {
      if (st.answer) issue([...at, 'setup', j, 'answer'], 'variantSetupAnswer', { variant: v.id });
    });
    v.solution.forEach((st, j) => {
      if (st.answer && !questions.some((x) => x.id === st.answer!.question))
        issue([...at, 'solution', j, 'answer', 'question'], 'variantNoQuestion', {
          variant: v.id,
          id: st.answer.question
        });
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
