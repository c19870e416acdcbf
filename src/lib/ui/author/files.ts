/**
 * The files of a lesson being written in the authoring view: the four files every lesson has
 * (docs/lesson-format.md) and any extra files the author adds (manifests to hand out, notes), kept
 * as name → text with the lesson's folder name `NN-slug`. Pure functions, so the view, the draft
 * records and the tests share one set of rules.
 */
import templateSpec from './template/lesson.yaml?raw';
import templateEn from './template/lesson.en.md?raw';
import templateRu from './template/lesson.ru.md?raw';
import templateScenario from './template/scenario.yaml?raw';

/** The files of every lesson, in tab order. */
export const LESSON_FILES = ['lesson.yaml', 'lesson.en.md', 'lesson.ru.md', 'scenario.yaml'] as const;

export interface AuthorFiles {
  /** The lesson's folder name, `NN-slug` (e.g. 90-my-first-lesson). */
  dir: string;
  /** File name inside the folder → text. */
  files: Record<string, string>;
}

/** The template lesson's folder: order 90 keeps it after the built-in lessons. */
export const TEMPLATE_DIR = '90-my-first-lesson';

/** A small complete lesson: two workers, one question, one task and its reference solution. */
export function templateLesson(): AuthorFiles {
  return {
    dir: TEMPLATE_DIR,
    files: {
      'lesson.yaml': templateSpec,
      'lesson.en.md': templateEn,
      'lesson.ru.md': templateRu,
      'scenario.yaml': templateScenario
    }
  };
}

const DIR_RE = /^(\d{2})-([a-z0-9][-a-z0-9]*)$/;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `dir` cannot name a lesson folder, or undefined when it can. */
export function dirProblem(dir: string): string | undefined {
  return DIR_RE.test(dir) ? undefined : 'a lesson folder is named NN-slug, e.g. 90-my-first-lesson';
}

/** The slug part of `NN-slug` (what metadata.name must say). */
export function slugOf(dir: string): string {
  return DIR_RE.exec(dir)?.[2] ?? dir;
}

/** The tabs of a lesson: the four lesson files, then the extra files by name. */
export function fileOrder(files: Record<string, string>): string[] {
  const extra = Object.keys(files)
    .filter((f) => !(LESSON_FILES as readonly string[]).includes(f))
    .sort();
  return [...LESSON_FILES.filter((f) => f in files), ...extra];
}

export function isLessonFile(name: string): boolean {
  return (LESSON_FILES as readonly string[]).includes(name);
}

/**
 * Why `name` cannot be a new extra file of `files` (or the new name of `from`), or undefined.
 * An extra file sits in the lesson's folder: a plain name, no folders, not one of the four.
 */
export function extraNameProblem(
  files: Record<string, string>,
  name: string,
  from?: string
): string | undefined {
  if (!name) return 'name: a file needs a name';
  if (!NAME_RE.test(name))
    return `name "${name}": letters, digits, dots, dashes and underscores only, no folders (at most 64)`;
  if (isLessonFile(name)) return `name "${name}": every lesson has this file already`;
  if (name !== from && name in files) return `name "${name}": the lesson has a file with this name`;
  return undefined;
}

/** A copy of `files` with the extra file `name` added (empty), or a problem. */
export function addExtra(
  files: Record<string, string>,
  name: string,
  text = ''
): { files?: Record<string, string>; problem?: string } {
  const problem = extraNameProblem(files, name);
  return problem ? { problem } : { files: { ...files, [name]: text } };
}

/** A copy of `files` with the extra file `from` renamed to `to`, or a problem. */
export function renameExtra(
  files: Record<string, string>,
  from: string,
  to: string
): { files?: Record<string, string>; problem?: string } {
  if (isLessonFile(from)) return { problem: `${from}: every lesson needs this file; it cannot be renamed` };
  if (!(from in files)) return { problem: `${from}: no such file` };
  const problem = extraNameProblem(files, to, from);
  if (problem) return { problem };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(files)) out[k === from ? to : k] = v;
  return { files: out };
}

/** A copy of `files` without the extra file `name`, or a problem. */
export function removeExtra(
  files: Record<string, string>,
  name: string
): { files?: Record<string, string>; problem?: string } {
  if (isLessonFile(name)) return { problem: `${name}: every lesson needs this file; it cannot be removed` };
  if (!(name in files)) return { problem: `${name}: no such file` };
  const out = { ...files };
  delete out[name];
  return { files: out };
}

/** The lesson's files keyed like a pack's (`NN-slug/lesson.yaml`). */
export function packPaths(lesson: AuthorFiles): Record<string, string> {
  return Object.fromEntries(Object.entries(lesson.files).map(([k, v]) => [`${lesson.dir}/${k}`, v]));
}

/** A file's Monaco language: YAML files get the schemas, Markdown its highlighting. */
export function languageOf(name: string): string {
  if (/\.ya?ml$/i.test(name)) return 'yaml';
  if (/\.md$/i.test(name)) return 'markdown';
  if (/\.json$/i.test(name)) return 'json';
  return 'plaintext';
}
