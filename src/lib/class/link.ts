/**
 * The class link a teacher hands out: the lesson's address, with `seed=N` for a challenge (every
 * student gets the same fault, src/lib/lessons/challenge.ts) and, for a lesson from a pack, the
 * pack route `pack/?pack=<id>&lesson=<slug>`.
 */
export interface ClassLinkInput {
  slug: string;
  /** A challenge attempt's seed. */
  seed?: number;
  /** The lesson's pack, when it came from one. */
  pack?: { id: string } | null;
}

/** The link relative to the app's root URL (`root` ends with `/`). */
export function classLink(root: string | URL, { slug, seed, pack }: ClassLinkInput): string {
  const url = pack ? new URL('pack/', root) : new URL(`lessons/${encodeURIComponent(slug)}`, root);
  if (pack) {
    url.searchParams.set('pack', pack.id);
    url.searchParams.set('lesson', slug);
  }
  if (seed !== undefined) url.searchParams.set('seed', String(seed));
  return url.href;
}
