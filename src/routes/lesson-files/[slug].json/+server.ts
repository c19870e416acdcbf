import { error, json } from '@sveltejs/kit';
import { bundledLessons } from '$lib/lessons/bundle';
import type { EntryGenerator, RequestHandler } from './$types';

// A built-in lesson's files as written (not parsed), for "Copy a built-in lesson" in the
// authoring view: prerendered to one static file per lesson, fetched only when one is copied.
// Not under /author/: a folder beside author.html would make static hosts look for its index.
export const prerender = true;

const raw = import.meta.glob('/lessons/*/*', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

export const entries: EntryGenerator = () => bundledLessons().lessons.map((l) => ({ slug: l.slug }));

export const GET: RequestHandler = ({ params }) => {
  const prefix = `/lessons/${params.slug}/`;
  const files = Object.fromEntries(
    Object.entries(raw)
      .filter(([k]) => k.startsWith(prefix) && !k.slice(prefix.length).includes('/'))
      .map(([k, v]) => [k.slice(prefix.length), v])
  );
  if (!bundledLessons().lessons.some((l) => l.slug === params.slug) || !files['lesson.yaml'])
    error(404, `no lesson "${params.slug}"`);
  return json({ dir: params.slug, files });
};
