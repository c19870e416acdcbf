/**
 * Lesson packs: a `.zip` of lesson folders in the lesson format (docs/lesson-format.md) and a
 * `pack.yaml` manifest at its root. Files are keyed by their path inside the pack, like the CLI
 * names them: `pack.yaml`, `01-first-steps/lesson.yaml`, `01-first-steps/lesson.en.md` ...
 *
 * A pack lesson's progress is stored under `pack:<packId>/<lesson name>` (the lesson's
 * `metadata.name`, not its folder): built-in lessons are keyed by their folder (`06-heartbeats`),
 * which never contains a colon, so the two never clash; and a newer version of the pack that
 * renumbers its folders keeps the learner's progress.
 */
import type { Language } from '../lessons/format';
import { SEMVER_RE } from './schema';

export const PACK_MANIFEST = 'pack.yaml';

export interface PackManifest {
  /** Lowercase letters, digits and dashes; a newer version with the same id replaces the pack. */
  id: string;
  /** One title, or one per language. */
  title: string | Partial<Record<Language, string>>;
  author: string;
  /** The languages every lesson is written in; the first stands in for a missing one. */
  languages: Language[];
  /** Semantic version (semver.org). */
  version: string;
}

export interface Pack {
  manifest: PackManifest;
  /** Path inside the pack → text, including `pack.yaml`. */
  files: Record<string, string>;
}

/** The title in `lang`, else in the pack's first language, else any. */
export function packTitle(manifest: PackManifest, lang: Language): string {
  const t = manifest.title;
  if (typeof t === 'string') return t;
  return t[lang] ?? t[manifest.languages[0]] ?? Object.values(t).find(Boolean) ?? manifest.id;
}

/** The progress key of a pack's lesson (see the header). */
export function packLessonKey(packId: string, lessonName: string): string {
  return `pack:${packId}/${lessonName}`;
}

/** `pack:<id>/<name>` → its parts; undefined for a built-in lesson's key. */
export function parsePackLessonKey(key: string): { packId: string; lesson: string } | undefined {
  const m = /^pack:([a-z0-9][-a-z0-9]*)\/([a-z0-9][-a-z0-9]*)$/.exec(key);
  return m ? { packId: m[1], lesson: m[2] } : undefined;
}

/**
 * Compare two semantic versions by precedence (semver.org §11): negative when `a` is older.
 * Build metadata is ignored; a pre-release is older than its release.
 */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER_RE.exec(a);
  const pb = SEMVER_RE.exec(b);
  if (!pa || !pb) throw new Error(`not a semantic version: ${!pa ? a : b}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d) return Math.sign(d);
  }
  const ra = pa[4]?.split('.');
  const rb = pb[4]?.split('.');
  if (!ra || !rb) return ra ? -1 : rb ? 1 : 0;
  for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
    if (ra[i] === undefined) return -1;
    if (rb[i] === undefined) return 1;
    const na = /^\d+$/.test(ra[i]);
    const nb = /^\d+$/.test(rb[i]);
    if (na && nb) {
      const d = Number(ra[i]) - Number(rb[i]);
      if (d) return Math.sign(d);
    } else if (na !== nb) return na ? -1 : 1;
    else if (ra[i] !== rb[i]) return ra[i] < rb[i] ? -1 : 1;
  }
  return 0;
}
