import { ensureNamespaces, namespaces } from '$lib/i18n/index.svelte';
import { routeNamespaces } from '$lib/i18n/routes';
import type { LayoutLoad } from './$types';

export const prerender = true;
export const trailingSlash = 'never';

// The page's UI catalogs load before it renders (the home page's come with the app).
export const load: LayoutLoad = async ({ route }) => {
  await ensureNamespaces(routeNamespaces(route.id, namespaces));
};
