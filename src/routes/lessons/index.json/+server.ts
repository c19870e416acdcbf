import { json } from '@sveltejs/kit';
import { lessonSummaries } from '$lib/lessons/bundle';
import type { RequestHandler } from './$types';

// The roadmap's list of lessons, prerendered to a static file: titles, summaries and task ids only,
// so the home page loads neither the simulator nor the lesson loader.
export const prerender = true;

export const GET: RequestHandler = () => json(lessonSummaries());
