import { error, json } from '@sveltejs/kit';
import { bundledLessons, summarize } from '$lib/lessons/bundle';
import type { EntryGenerator, RequestHandler } from './$types';

// One lesson, validated at build time (see bundle.ts) and prerendered to a static file that the
// player page loads: a file beside the page rather than a `__data.json` folder, so static hosts
// (and `npm start`) serve `/lessons/<slug>` as the page.
export const prerender = true;

export const entries: EntryGenerator = () => bundledLessons().lessons.map((l) => ({ slug: l.slug }));

export const GET: RequestHandler = ({ params }) => {
  const all = bundledLessons().lessons;
  const i = all.findIndex((l) => l.slug === params.slug);
  if (i < 0) error(404, `no lesson "${params.slug}"`);
  return json({
    lesson: all[i],
    previous: i > 0 ? summarize(all[i - 1]) : undefined,
    next: i < all.length - 1 ? summarize(all[i + 1]) : undefined
  });
};
