import { error } from '@sveltejs/kit';
import { bundledLessons, lessonFolder } from '$lib/lessons/bundle';
import { lessonPackZip } from '$lib/packs/export';
import type { EntryGenerator, RequestHandler } from './$types';

// "Export .zip" of a built-in lesson: the lesson's folder as a one-lesson pack, prerendered to a
// static file (and so precached for offline use like the pages).
export const prerender = true;

export const entries: EntryGenerator = () => bundledLessons().lessons.map((l) => ({ slug: l.slug }));

export const GET: RequestHandler = ({ params }) => {
  const lesson = bundledLessons().lessons.find((l) => l.slug === params.slug);
  if (!lesson) error(404, `no lesson "${params.slug}"`);
  const bytes = lessonPackZip(lesson, lessonFolder(lesson.slug));
  return new Response(bytes.slice().buffer, {
    headers: { 'content-type': 'application/zip', 'content-length': String(bytes.length) }
  });
};
