/**
 * The lessons shipped with the app: every file under `lessons/` bundled by Vite and loaded with
 * the same loader the CLI uses. It runs at build time (the lesson routes load it on the server and
 * are prerendered) so the roadmap and lesson pages need no YAML parsing. (The validators are
 * precompiled and would run in the browser too: imported packs are validated there.)
 */
import type { Lesson, LessonError } from './format';
import { loadLessons } from './loader';
import { summarize, type LessonSummary } from './summary';

export { summarize, type LessonSummary };

const files = import.meta.glob('/lessons/**/*', {
  query: '?raw',
  import: 'default',
  eager: true
}) as Record<string, string>;

let cache: { lessons: Lesson[]; errors: LessonError[] } | undefined;

/** Every lesson that loads, in roadmap order, and the problems of those that do not. */
export function bundledLessons(source: Record<string, string> = files): {
  lessons: Lesson[];
  errors: LessonError[];
} {
  if (source !== files) return loadLessons(relative(source));
  cache ??= loadLessons(relative(source));
  return cache;
}

/** Vite's keys are root-relative (`/lessons/06-x/lesson.yaml`); the loader names files like the CLI. */
function relative(source: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(source).map(([k, v]) => [k.replace(/^\//, ''), v]));
}

export function lessonSummaries(): LessonSummary[] {
  return bundledLessons().lessons.map(summarize);
}

/** A built-in lesson's files as they are in the repository: file name → text. */
export function lessonFolder(slug: string): Record<string, string> {
  const prefix = `/lessons/${slug}/`;
  return Object.fromEntries(
    Object.entries(files)
      .filter(([k]) => k.startsWith(prefix) && !k.slice(prefix.length).includes('/'))
      .map(([k, v]) => [k.slice(prefix.length), v])
  );
}

export function findLesson(slug: string): Lesson | undefined {
  return bundledLessons().lessons.find((l) => l.slug === slug);
}
