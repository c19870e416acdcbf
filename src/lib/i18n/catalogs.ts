/**
 * Which UI catalogs are in memory and which are loading: one file per language per area
 * (`…/<lang>/<area>.json`), each loaded once, with concurrent askers sharing the load. The
 * translator (./index.svelte.ts) installs what arrives into i18next.
 */
export type Catalog = Record<string, unknown>;
export type CatalogSource = () => Promise<Catalog>;

/** `./locales/ru/lab.json` → `ru/lab`. */
export function catalogKey(path: string): string {
  const m = /([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!m) throw new Error(`a catalog path must end in <lang>/<area>.json, not "${path}"`);
  return `${m[1]}/${m[2]}`;
}

export class CatalogSet {
  private readonly sources = new Map<string, CatalogSource>();
  private readonly loaded: Set<string>;
  private readonly inflight = new Map<string, Promise<void>>();
  /** The areas that exist: those with a file in the fallback language. */
  private readonly known = new Set<string>();
  /** The areas pages have asked for (the bundled ones from the start): a new language loads these. */
  private readonly wanted = new Set<string>();

  constructor(
    fallback: string,
    bundled: Iterable<string>,
    sources: Record<string, CatalogSource>,
    private readonly install: (lang: string, area: string, catalog: Catalog) => void
  ) {
    for (const [path, load] of Object.entries(sources)) this.sources.set(catalogKey(path), load);
    this.loaded = new Set([...bundled].map(catalogKey));
    for (const key of [...this.loaded, ...this.sources.keys()]) {
      const [lang, area] = key.split('/');
      if (lang === fallback) this.known.add(area);
    }
    for (const key of this.loaded) this.wanted.add(key.split('/')[1]);
  }

  areas(): string[] {
    return [...this.known].sort();
  }

  has(lang: string, area: string): boolean {
    return this.loaded.has(`${lang}/${area}`);
  }

  /** Note that a page reads these areas; an area with no file is refused, naming those there are. */
  want(areas: readonly string[]): void {
    const unknown = areas.filter((area) => !this.known.has(area));
    if (unknown.length)
      throw new Error(
        `unknown UI catalog ${unknown.map((a) => `"${a}"`).join(', ')}: there is no ` +
          `locales/<lang>/<area>.json for it (the areas are ${this.areas().join(', ')})`
      );
    for (const area of areas) this.wanted.add(area);
  }

  /** The areas asked for so far that `lang` does not have yet. */
  missing(lang: string): string[] {
    return [...this.wanted].filter((area) => !this.has(lang, area));
  }

  /** Load one area in one language, once; callers asking while it loads share the load. */
  load(lang: string, area: string): Promise<void> {
    const key = `${lang}/${area}`;
    if (this.loaded.has(key)) return Promise.resolve();
    const running = this.inflight.get(key);
    if (running) return running;
    const source = this.sources.get(key);
    // No file in this language (i18n.test.ts keeps the languages in step): the fallback stands in.
    if (!source) {
      this.loaded.add(key);
      return Promise.resolve();
    }
    // A failed load (offline, no service worker yet) is forgotten, so the next ask tries again.
    const job = source()
      .then((catalog) => {
        this.install(lang, area, catalog);
        this.loaded.add(key);
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }
}
