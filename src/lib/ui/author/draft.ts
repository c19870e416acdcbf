/**
 * A lesson draft as the authoring view saves it (persist `drafts` store) and exports it: the
 * lesson's files keyed like a pack's (`NN-slug/lesson.yaml` …) plus the `pack.yaml` the author
 * filled in for "Export as pack". One folder per draft.
 */
import { parse, stringify } from 'yaml';
import type { Language } from '$lib/lessons/format';
import { LANGUAGES } from '$lib/lessons/format';
import { PACK_MANIFEST, type PackManifest } from '$lib/packs/format';
import { dirProblem, packPaths, slugOf, type AuthorFiles } from './files';

/** What the export form fills in, before it becomes pack.yaml. */
export interface ManifestFields {
  id: string;
  title: string;
  author: string;
  languages: Language[];
  version: string;
}

export function defaultManifest(dir: string): ManifestFields {
  return { id: slugOf(dir), title: '', author: '', languages: [...LANGUAGES], version: '1.0.0' };
}

/** pack.yaml from the form: the title as the author typed it (one title for every language). */
export function manifestYaml(m: ManifestFields): string {
  const manifest: PackManifest = {
    id: m.id.trim(),
    title: m.title.trim(),
    author: m.author.trim(),
    languages: m.languages,
    version: m.version.trim()
  };
  return stringify(manifest);
}

/** The form's fields back from a saved pack.yaml (what cannot be read keeps its default). */
export function manifestFields(text: string | undefined, dir: string): ManifestFields {
  const d = defaultManifest(dir);
  if (!text) return d;
  let v: Partial<Record<keyof PackManifest, unknown>> = {};
  try {
    v = (parse(text) ?? {}) as typeof v;
  } catch {
    return d;
  }
  const str = (x: unknown, fallback: string) => (typeof x === 'string' ? x : fallback);
  const title =
    typeof v.title === 'string'
      ? v.title
      : v.title && typeof v.title === 'object'
        ? str((v.title as Record<string, unknown>).en ?? Object.values(v.title)[0], '')
        : '';
  const languages = Array.isArray(v.languages)
    ? (v.languages.filter((l) => (LANGUAGES as readonly unknown[]).includes(l)) as Language[])
    : d.languages;
  return {
    id: str(v.id, d.id),
    title,
    author: str(v.author, ''),
    languages: languages.length ? languages : d.languages,
    version: str(v.version, d.version)
  };
}

/** The files of a pack holding just this lesson. */
export function packFiles(lesson: AuthorFiles, m: ManifestFields): Record<string, string> {
  return { [PACK_MANIFEST]: manifestYaml(m), ...packPaths(lesson) };
}

/** A saved draft's files back into the lesson's folder and the export form, or a problem. */
export function fromDraftFiles(files: Record<string, string>): {
  lesson?: AuthorFiles;
  manifest?: ManifestFields;
  problem?: string;
} {
  const dirs = new Set(
    Object.keys(files)
      .filter((k) => k !== PACK_MANIFEST)
      .map((k) => k.split('/')[0])
  );
  if (dirs.size !== 1) return { problem: 'a draft holds exactly one lesson folder' };
  const dir = [...dirs][0];
  const problem = dirProblem(dir);
  if (problem) return { problem: `${dir}: ${problem}` };
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(files)) {
    if (k === PACK_MANIFEST) continue;
    const name = k.slice(dir.length + 1);
    if (!name || name.includes('/')) return { problem: `${k}: a lesson's files sit directly in its folder` };
    own[name] = v;
  }
  return { lesson: { dir, files: own }, manifest: manifestFields(files[PACK_MANIFEST], dir) };
}

/** A draft's name in the list: the lesson's English title, else its folder. */
export function draftName(lesson: AuthorFiles): string {
  const m = /^---\r?\n[\s\S]*?^title:\s*(.+)$/m.exec(lesson.files['lesson.en.md'] ?? '');
  const title = m?.[1].trim().replace(/^(["'])(.*)\1$/, '$2');
  return title ? `${title} (${lesson.dir})` : lesson.dir;
}
