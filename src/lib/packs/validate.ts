/**
 * Validate a pack's files: the `pack.yaml` manifest against its schema, then every lesson folder
 * with the same loader (and the same precompiled validators) as the built-in lessons and
 * `nodeplane lessons check`. No eval: it runs in the browser under the app's CSP. Every problem
 * names the file, the line and the field; a pack with any problem is refused whole.
 */
import { LessonError, type Lesson, type LessonIssue } from '../lessons/format';
import { ajvIssues, loadLessons, parseYaml } from '../lessons/loader';
import { validatePackManifest } from '../lessons/validators';
import { PACK_MANIFEST, packLessonKey, type PackManifest } from './format';
import { say, type IssueCode } from '../lessons/issue-text';

export interface ValidatedPack {
  manifest: PackManifest;
  /** In folder order; each lesson's `slug` is its progress key, `pack:<id>/<name>`. */
  lessons: Lesson[];
}

/** What a pattern in the pack schema means, in words. */
const FIELD_WORDING: Record<string, IssueCode> = {
  id: 'idPattern',
  version: 'versionPattern'
};

/** Parse and check `pack.yaml`. */
export function parseManifest(text: string | undefined): { manifest?: PackManifest; issues: LessonIssue[] } {
  if (text === undefined)
    return {
      issues: [{ file: PACK_MANIFEST, ...say('manifestMissing') }]
    };
  const p = parseYaml<unknown>(text, PACK_MANIFEST);
  if (!p.doc || !p.lc) return { issues: p.issues };
  if (!validatePackManifest(p.value))
    return {
      issues: ajvIssues(validatePackManifest.errors, PACK_MANIFEST, p.doc, p.lc, 0).map((i) =>
        i.message.startsWith('must match pattern') && i.field && FIELD_WORDING[i.field]
          ? {
              file: i.file,
              ...(i.line !== undefined ? { line: i.line } : {}),
              field: i.field,
              ...say(FIELD_WORDING[i.field])
            }
          : i
      )
    };
  return { manifest: p.value, issues: [] };
}

export function validatePack(files: Record<string, string>): { pack?: ValidatedPack; issues: LessonIssue[] } {
  const { manifest, issues } = parseManifest(files[PACK_MANIFEST]);
  const lessonFiles: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) {
    if (path === PACK_MANIFEST) continue;
    if (!path.includes('/')) {
      issues.push({ file: path, ...say('rootFile') });
      continue;
    }
    lessonFiles[path] = text;
  }
  const { lessons, errors } = loadLessons(lessonFiles, { languages: manifest?.languages });
  for (const e of errors) issues.push(...e.issues);
  if (!lessons.length && !errors.length)
    issues.push({
      file: PACK_MANIFEST,
      ...say('noLessons')
    });
  const seen = new Map<string, string>();
  for (const l of lessons) {
    const name = l.spec.metadata.name;
    const other = seen.get(name);
    if (other)
      issues.push({
        file: l.paths.spec,
        field: 'metadata.name',
        ...say('duplicateName', { name, other })
      });
    seen.set(name, l.paths.spec);
  }
  if (issues.length || !manifest) return { issues };
  return {
    pack: {
      manifest,
      lessons: lessons.map((l) => ({ ...l, slug: packLessonKey(manifest.id, l.spec.metadata.name) }))
    },
    issues
  };
}

export { LessonError };
