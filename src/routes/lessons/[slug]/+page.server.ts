import { bundledLessons } from '$lib/lessons/bundle';
import type { EntryGenerator } from './$types';

// Server-only so the lesson list is computed at build time; the data comes from +page.ts.
export const prerender = true;

export const entries: EntryGenerator = () => bundledLessons().lessons.map((l) => ({ slug: l.slug }));
