/**
 * The lessons shipped with the app: every file under `lessons/` bundled by Vite and loaded with
 * the same loader the CLI uses. It runs at build time (the lesson routes load it on the server and
 * are prerendered) so the roadmap and lesson pages need no YAML parsing. (The validators are
 * precompiled and would run in the browser too: imported packs are validated there.)
 */
import { LANGUAGES, type Language, type Lesson, type LessonError } from './format';
import { loadLessons } from './loader';

const files = import.meta.glob('/lessons/**/*', {
  query: '?raw',
  import: 'default',
  eager: true
}) as Record<string, string>;

/** What the roadmap shows of a lesson: no scenario, no checks, no body. */
export interface LessonSummary {
  slug: string;
  order: number;
  title: Record<Language, string>;
  summary: Record<Language, string>;
  minutes: number;
  /** Task ids, in lesson order (progress counts them). */
  tasks: string[];
}

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

export function summarize(lesson: Lesson): LessonSummary {
  const pick = (f: (l: Language) => string) =>
    Object.fromEntries(LANGUAGES.map((l) => [l, f(l)])) as Record<Language, string>;
  return {
    slug: lesson.slug,
    order: lesson.order,
    title: pick((l) => lesson.text[l].title),
    summary: pick((l) => lesson.text[l].summary),
    minutes: lesson.text.en.minutes,
    tasks: lesson.spec.spec.tasks.map((t) => t.id)
  };
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
