/**
 * The wording of every problem lesson validation and pack import report, in English, by code. An
 * issue carries its code and arguments next to the English message (what the CLI prints), so a
 * page words it in the reader's language from the i18n catalog (`packs.issue.<code>`); the place
 * (file, line, field) stays data and is shown as it is in the files.
 */
import type { LessonIssue } from './format';

/** A plural text: `one` when `count` is 1, otherwise `other` (as i18next's `_one`/`_other`). */
interface Plural {
  one: string;
  other: string;
}

export const ISSUE_TEXT = {
  // YAML and the schema (Ajv's own English, kept word for word)
  yamlInvalid: 'invalid YAML: {{detail}}',
  unknownField: 'unknown field',
  oneOfValues: 'must be one of: {{values}}',
  required: 'required field is missing',
  duration: 'must be a duration like 90s, 5m or 1h30m',
  type: 'must be {{type}}',
  compare: 'must be {{comparison}} {{limit}}',
  minLength: 'must NOT have fewer than {{limit}} characters',
  maxLength: 'must NOT have more than {{limit}} characters',
  minItems: 'must NOT have fewer than {{limit}} items',
  maxItems: 'must NOT have more than {{limit}} items',
  pattern: 'must match pattern "{{pattern}}"',
  constant: 'must be equal to constant',
  oneOfSchemas: 'must match exactly one schema in oneOf',
  anyOfSchemas: 'must match a schema in anyOf',
  // a lesson folder
  folderName: 'a lesson folder is named NN-slug, e.g. 06-heartbeats',
  fileMissing: 'file is missing',
  textMissing: 'file is missing (every lesson has English and Russian text)',
  textMissingPack: "file is missing (the pack's languages are {{languages}})",
  frontmatter: 'the file must start with YAML frontmatter between --- lines',
  textTasks: 'must describe exactly the tasks of lesson.yaml: {{ids}}',
  textQuestions: 'must describe exactly the questions of lesson.yaml: {{ids}}',
  textNoQuestions: 'must describe exactly the questions of lesson.yaml: (none)',
  textReasons: 'must give text and why for the reasons {{ids}}',
  textOptions: 'must give text for the options {{ids}}',
  disabledWhy: 'say why this action is disabled',
  variantsNotChallenge: 'only a challenge lesson (spec.challenge in lesson.yaml) has variants',
  textVariants: 'must describe exactly the challenge variants of lesson.yaml: {{ids}}',
  noSuchTask: 'no such task (tasks: {{ids}})',
  bodyQuestion: 'the body embeds question "{{id}}", which lesson.yaml does not define',
  nameSlug: 'must be "{{slug}}" (the folder name without its number)',
  duplicateTasks: 'duplicate task ids: {{ids}}',
  challengeAnswer: 'leave it out: each challenge variant gives the answer of the challenge question',
  notAnOption: 'must be one of the options',
  numberAnswer: 'must be a number for a number question',
  checkQuestion: 'a check refers to question "{{id}}", which is not defined',
  decisionAnswer: 'leave it out: a decision is graded on its reasons, not on one right option',
  decisionOptions: 'a decision needs the options to decide between',
  decisionReasons: 'a decision needs reasons (reason id → the options it supports)',
  reasonOptions: '{{unknown}}: not an option (options: {{options}})',
  minReasons: {
    one: 'option "{{option}}" has {{count}} supporting reason, fewer than minReasons ({{min}}): every option of a decision must be defensible',
    other:
      'option "{{option}}" has {{count}} supporting reasons, fewer than minReasons ({{min}}): every option of a decision must be defensible'
  },
  challengeQuestion: 'no question "{{id}}" in spec.questions (questions: {{ids}})',
  challengeNoQuestions: 'no question "{{id}}" in spec.questions (questions: none)',
  choiceQuestion: 'question "{{id}}" must be a choice question',
  duplicateVariant: 'duplicate variant id "{{id}}"',
  variantAnswer: 'variant "{{variant}}": must be one of the options of question "{{id}}": {{options}}',
  variantNoSuchTask: 'variant "{{variant}}": no such task (tasks: {{ids}})',
  variantSetupAnswer: 'variant "{{variant}}": the setup breaks the cluster; it cannot answer questions',
  variantNoQuestion: 'variant "{{variant}}": no question "{{id}}"',
  // a pack's .zip
  archiveTooLarge: 'the archive is {{size}} MiB; a pack is at most {{max}} MiB',
  pathBackslash: 'a path with a backslash is not allowed',
  pathAbsolute: 'an absolute path is not allowed',
  pathClimbs: 'a path that climbs out of the pack (..) is not allowed',
  pathNames: 'file and folder names are letters, digits, dots, dashes and underscores',
  compression: 'compression method {{method}} is not supported (stored or deflate only)',
  fileTooLarge: 'the file unpacks to {{size}} MiB; one file is at most {{max}} MiB',
  unreadable: 'not a readable .zip archive ({{detail}})',
  tooManyFiles: 'the archive holds {{count}} files; a pack holds at most {{max}}',
  unpackedTooLarge: 'the archive unpacks to {{size}} MiB; a pack is at most {{max}} MiB unpacked',
  emptyArchive: 'the archive is empty',
  tooDeep: 'a pack holds pack.yaml and lesson folders (NN-slug/lesson.yaml ...), nothing deeper',
  notUtf8: 'not UTF-8 text (a pack holds only text files)',
  nul: 'not text: it contains NUL characters',
  // a pack's files
  manifestMissing: 'file is missing (every pack has a pack.yaml at its root)',
  idPattern: 'must be lowercase letters, digits and dashes, like night-shift',
  versionPattern: 'must be a semantic version like 1.2.0 (semver.org)',
  rootFile: 'only pack.yaml sits at the root; lessons are folders NN-slug/',
  noLessons: 'the pack has no lessons (folders NN-slug/ with lesson.yaml)',
  duplicateName: '"{{name}}" is also the name of {{other}}: each lesson of a pack has its own name',
  olderVersion:
    'pack "{{id}}" version {{offered}} is older than the installed version {{installed}}: remove the installed pack first to go back',
  // the replay before a pack is accepted
  alreadyHolds: 'task "{{task}}" already holds in the starting state: the learner would have nothing to do',
  variantAlreadyHolds:
    'variant "{{variant}}": task "{{task}}" already holds in the starting state: the learner would have nothing to do',
  notDone: 'not done after replaying the solution for {{budget}}',
  notDoneDetail: 'not done after replaying the solution for {{budget}}: {{detail}}',
  variantNotDone: 'variant "{{variant}}": not done after replaying the solution for {{budget}}',
  variantNotDoneDetail:
    'variant "{{variant}}": not done after replaying the solution for {{budget}}: {{detail}}'
} as const satisfies Record<string, string | Plural>;

export type IssueCode = keyof typeof ISSUE_TEXT;
export type IssueArgs = Record<string, string | number>;

/** Fill `{{name}}` placeholders. */
export function fillText(template: string, args: IssueArgs): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(args[k] ?? ''));
}

/** The English text of a code. */
export function issueText(code: IssueCode, args: IssueArgs = {}): string {
  const t: string | Plural = ISSUE_TEXT[code];
  return fillText(typeof t === 'string' ? t : args.count === 1 ? t.one : t.other, args);
}

/** An issue's wording: the English message plus the code and arguments to word it in another language. */
export function say(code: IssueCode, args: IssueArgs = {}): Pick<LessonIssue, 'message' | 'code' | 'args'> {
  return { message: issueText(code, args), code, ...(Object.keys(args).length ? { args } : {}) };
}

/**
 * An issue's message in the reader's language: `translate` is the page's `t` (it is given
 * `packs.issue.<code>` and the arguments); an issue without a code keeps its message (a kubectl or
 * API server error, worded in English as the real tools do).
 */
export function issueMessage(
  i: Pick<LessonIssue, 'message' | 'code' | 'args'>,
  translate?: (key: string, args: IssueArgs) => string
): string {
  if (!i.code || !translate || !(i.code in ISSUE_TEXT)) return i.message;
  return translate(`packs.issue.${i.code}`, i.args ?? {});
}

/** `file:line: field: message` (lessons/format.ts formatIssue) with the message in the reader's language. */
export function formatIssueIn(i: LessonIssue, translate: (key: string, args: IssueArgs) => string): string {
  return `${i.file}${i.line ? `:${i.line}` : ''}: ${i.field ? `${i.field}: ` : ''}${issueMessage(i, translate)}`;
}
