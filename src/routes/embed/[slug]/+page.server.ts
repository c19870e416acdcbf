import { bundledLessons } from '$lib/lessons/bundle';
import type { EntryGenerator } from './$types';

// Every built-in lesson has an embeddable page, prerendered (and so precached for offline use).
export const prerender = true;

export const entries: EntryGenerator = () => bundledLessons().lessons.map((l) => ({ slug: l.slug }));
