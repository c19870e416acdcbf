/** What the roadmap shows of a lesson (built-in or from a pack): no scenario, no checks, no body. */
import { LANGUAGES, type Language, type Lesson } from './format';

export interface LessonSummary {
  slug: string;
  order: number;
  title: Record<Language, string>;
  summary: Record<Language, string>;
  minutes: number;
  /** Task ids, in lesson order (progress counts them). */
  tasks: string[];
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
