/**
 * The catalogs each page reads beyond the bundled ones (BUNDLED_NAMESPACES in ./index.svelte.ts),
 * by SvelteKit route id. The root layout's load asks for them, so a page renders only once its
 * strings are in memory. routes.test.ts follows each page's imports and checks that every area its
 * components read is listed here.
 */

/** The lab and its views: the map, the diagram, the network and control-plane views. */
const LAB = ['lab', 'diagram', 'network', 'ops'] as const;
/** The lesson player: the lab beside the lesson text; `embed` names its "open outside" link. */
const PLAYER = [...LAB, 'embed'] as const;

export const ROUTE_NAMESPACES: Readonly<Record<string, readonly string[]>> = {
  '/': [],
  '/settings': [],
  '/class': [],
  '/sandbox': LAB,
  '/lessons/[slug]': PLAYER,
  '/pack': PLAYER,
  '/author': [...PLAYER, 'author'],
  '/embed/[slug]': PLAYER,
  '/embed/pack': PLAYER
};

/**
 * The areas a page needs: its entry above; none for the error page (no route); every area for a
 * page missing from the table, so that it never shows raw keys (routes.test.ts fails for it).
 */
export function routeNamespaces(routeId: string | null, all: () => readonly string[]): readonly string[] {
  if (routeId === null) return [];
  return ROUTE_NAMESPACES[routeId] ?? all();
}
