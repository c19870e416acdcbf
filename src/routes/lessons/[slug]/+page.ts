import { error } from '@sveltejs/kit';
import { resolve } from '$app/paths';
import type { LessonSummary } from '$lib/lessons/bundle';
import type { Lesson } from '$lib/lessons/format';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ fetch, params }) => {
  const r = await fetch(resolve('/lessons/[slug].json', { slug: params.slug }));
  if (!r.ok) error(r.status, `no lesson "${params.slug}"`);
  return (await r.json()) as { lesson: Lesson; previous?: LessonSummary; next?: LessonSummary };
};
