/**
 * Exporting lessons as packs. A built-in lesson becomes a one-lesson pack (id and title from the
 * lesson, author Nodeplane) that imports back into the app as it is; an installed pack is zipped
 * from its stored files.
 */
import { stringify } from 'yaml';
import { LANGUAGES, type Lesson } from '../lessons/format';
import { PACK_MANIFEST, type PackManifest } from './format';
import { writeZip } from './zip';

/** The version given to a built-in lesson exported as a pack. */
export const BUILT_IN_PACK_VERSION = '1.0.0';

export function builtInManifest(lesson: Lesson): PackManifest {
  return {
    id: lesson.spec.metadata.name,
    title: Object.fromEntries(LANGUAGES.map((l) => [l, lesson.text[l].title])),
    author: 'Nodeplane',
    languages: [...LANGUAGES],
    version: BUILT_IN_PACK_VERSION
  };
}

/**
 * A lesson's folder as a pack: `folder` maps the lesson's file names (lesson.yaml, …) to their
 * text, exactly as they are in the repository.
 */
export function lessonPackFiles(lesson: Lesson, folder: Record<string, string>): Record<string, string> {
  const files: Record<string, string> = { [PACK_MANIFEST]: stringify(builtInManifest(lesson)) };
  for (const [name, text] of Object.entries(folder)) files[`${lesson.slug}/${name}`] = text;
  return files;
}

export function lessonPackZip(lesson: Lesson, folder: Record<string, string>): Uint8Array {
  return writeZip(lessonPackFiles(lesson, folder));
}
