import { error } from '@sveltejs/kit';
import { bundledLessons, findLesson, summarize } from '$lib/lessons/bundle';
import type { EntryGenerator, PageServerLoad } from './$types';

// Lessons are validated at build time (see bundle.ts); the page gets the loaded lesson as data.
export const prerender = true;

export const entries: EntryGenerator = () => bundledLessons().lessons.map((l) => ({ slug: l.slug }));

export const load: PageServerLoad = ({ params }) => {
  const lesson = findLesson(params.slug);
  if (!lesson) error(404, `no lesson "${params.slug}"`);
  const all = bundledLessons().lessons;
  const i = all.indexOf(lesson);
  return {
    lesson,
    previous: i > 0 ? summarize(all[i - 1]) : undefined,
    next: i < all.length - 1 ? summarize(all[i + 1]) : undefined
  };
};
