/**
 * The installed packs as the app shows them: each stored pack's files are validated again when
 * read (the same validators; a record that no longer loads is shown with its problems, not
 * played), and their lessons are summarised for the roadmap or opened in the player.
 */
import type { Lesson, LessonIssue } from '../lessons/format';
import { summarize, type LessonSummary } from '../lessons/summary';
import { getPack, listPacks, type PackRecord } from '../persist';
import type { PackManifest } from './format';
import { validatePack } from './validate';

export interface InstalledPack {
  record: PackRecord;
  manifest: PackManifest;
  lessons: LessonSummary[];
  issues: LessonIssue[];
}

function lessonsOf(record: PackRecord): { lessons: Lesson[]; issues: LessonIssue[] } {
  const { pack, issues } = validatePack(record.files);
  return { lessons: pack?.lessons ?? [], issues };
}

export async function installedPacks(): Promise<InstalledPack[]> {
  return (await listPacks()).map((record) => {
    const { lessons, issues } = lessonsOf(record);
    return { record, manifest: record.manifest, lessons: lessons.map(summarize), issues };
  });
}

export type PackLesson =
  | { ok: true; pack: PackRecord; lesson: Lesson; previous?: LessonSummary; next?: LessonSummary }
  | { ok: false; reason: 'no-pack' | 'no-lesson' | 'invalid'; issues?: LessonIssue[] };

/** One lesson of an installed pack, by the lesson's name (`metadata.name`). */
export async function packLesson(packId: string, name: string): Promise<PackLesson> {
  const pack = await getPack(packId);
  if (!pack) return { ok: false, reason: 'no-pack' };
  const { lessons, issues } = lessonsOf(pack);
  if (issues.length) return { ok: false, reason: 'invalid', issues };
  const i = lessons.findIndex((l) => l.spec.metadata.name === name);
  if (i < 0) return { ok: false, reason: 'no-lesson' };
  return {
    ok: true,
    pack,
    lesson: lessons[i],
    previous: i > 0 ? summarize(lessons[i - 1]) : undefined,
    next: i < lessons.length - 1 ? summarize(lessons[i + 1]) : undefined
  };
}
