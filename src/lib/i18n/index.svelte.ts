/**
 * UI translations: one i18next instance, catalogs per language per area, and a rune-backed `t()`
 * that re-renders every caller when the language changes or a catalog arrives.
 *
 * Catalog layout: `locales/<lang>/common.json` holds top-level keys (`nav.*`, `settings.*`,
 * `common.*`, ...); every other `locales/<lang>/<area>.json` is mounted under its area name, so
 * `lab.json`'s `{ "play": "Play" }` is `t('lab.play')`. An area is a namespace that loads on its
 * own: the home page's areas (BUNDLED_NAMESPACES) come with the app in English, the prerendered
 * language and the fallback; every other area, and every area in another language, is its own
 * chunk, which a page asks for before it renders (`ensureNamespaces`, called by the root layout's
 * load with the page's list from ./routes). The service worker precaches every chunk.
 */
import { createInstance, type TOptions } from 'i18next';

export const LOCALES = ['en', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', ru: 'Русский' };
import { CatalogSet, catalogKey, type Catalog, type CatalogSource } from './catalogs';

export type { Catalog, CatalogSource };

/** The areas the shell and the home page read, bundled in English with the app. */
export const BUNDLED_NAMESPACES = ['common', 'lessons', 'packs', 'class'] as const;

// import.meta.glob takes literal patterns only: both name BUNDLED_NAMESPACES (i18n.test.ts checks).
const bundled = import.meta.glob<Catalog>('./locales/en/{common,lessons,packs,class}.json', {
  eager: true,
  import: 'default'
});
const lazy = import.meta.glob<Catalog>(
  ['./locales/*/*.json', '!./locales/en/{common,lessons,packs,class}.json'],
  { import: 'default' }
);

function areaOf(path: string): string {
  return catalogKey(path).split('/')[1];
}

/** Merge area files into one resource tree: common at the root, the rest under their area. */
export function mergeCatalogs(files: Record<string, Catalog>): Catalog {
  const tree: Catalog = {};
  for (const [path, catalog] of Object.entries(files)) {
    const area = areaOf(path);
    if (area === 'common') Object.assign(tree, catalog);
    else tree[area] = catalog;
  }
  return tree;
}

export interface Translator {
  t(key: string, options?: TOptions): string;
  locale(): Locale;
  setLocale(lang: Locale): Promise<void>;
  ensureNamespaces(namespaces: readonly string[]): Promise<void>;
  hasNamespace(namespace: string, lang?: Locale): boolean;
  namespaces(): string[];
}

/**
 * A translator over catalog files named `…/<lang>/<area>.json`: `bundled` are in memory from the
 * start, `sources` load when a page asks for their area (or when the language switches to theirs).
 */
export function createTranslator(
  bundled: Record<string, Catalog>,
  sources: Record<string, CatalogSource>
): Translator {
  /**
   * The active language and a revision counted up when a catalog arrives. One rune, replaced as a
   * whole on each change: every t() caller tracks it, and the memo belongs to one value of it.
   */
  let view = $state.raw<{ lng: Locale; rev: number }>({ lng: DEFAULT_LOCALE, rev: 0 });
  /** The language setLocale is switching to, while its catalogs load. */
  let pending: Locale | undefined;
  let switches = 0;

  const i18n = createInstance();
  void i18n.init({
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    resources: { [DEFAULT_LOCALE]: { translation: mergeCatalogs(bundled) } },
    // Resources are in memory, so init must finish synchronously for prerendering.
    initAsync: false,
    // Svelte escapes text when it renders it; escaping here too would show &amp; to the learner.
    interpolation: { escapeValue: false },
    returnNull: false
  });
  const catalogs = new CatalogSet(DEFAULT_LOCALE, Object.keys(bundled), sources, (lang, area, catalog) => {
    i18n.addResourceBundle(
      lang,
      'translation',
      area === 'common' ? catalog : { [area]: catalog },
      true,
      true
    );
    view = { lng: view.lng, rev: view.rev + 1 };
  });

  /**
   * Translations already made for the current `view`, by key and plain options. The lab's map
   * asks for the same few hundred strings (a card's labels, a chip's "Select pod …") on every
   * frame, and i18next resolves, interpolates and nests each one anew; a new language or a new
   * catalog gives a new `view`, and the memo starts again.
   */
  // A cache, not state: nothing renders from it.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  const memo = new Map<string, string>();
  let memoFor: typeof view | undefined;
  const MEMO_MAX = 20_000;

  function t(key: string, options?: TOptions): string {
    // Reading the rune makes every template that calls t() depend on the language and catalogs.
    const v = view;
    if (memoFor !== v) {
      memo.clear();
      memoFor = v;
    }
    const id = memoKey(key, options);
    if (id !== undefined) {
      const hit = memo.get(id);
      if (hit !== undefined) return hit;
    }
    const text = i18n.t(key, { ...options, lng: v.lng }) as string;
    if (id !== undefined) {
      if (memo.size >= MEMO_MAX) memo.clear();
      memo.set(id, text);
    }
    return text;
  }

  async function ensureNamespaces(namespaces: readonly string[]): Promise<void> {
    catalogs.want(namespaces);
    // English is the fallback, so it is always there; the active language and the one being
    // switched to load alongside, so the page never shows English first.
    const langs = [DEFAULT_LOCALE, view.lng, pending].filter(
      (l, i, all): l is Locale => l !== undefined && all.indexOf(l) === i
    );
    await Promise.all(langs.flatMap((lang) => namespaces.map((area) => catalogs.load(lang, area))));
  }

  async function setLocale(lang: Locale): Promise<void> {
    const mine = ++switches;
    pending = lang;
    try {
      // Every area a page has asked for, including any asked for while these load.
      for (;;) {
        const missing = catalogs.missing(lang);
        if (!missing.length) break;
        await Promise.all(missing.map((area) => catalogs.load(lang, area)));
      }
    } finally {
      if (mine === switches) pending = undefined;
    }
    // A later choice made while this one loaded wins.
    if (mine !== switches) return;
    await i18n.changeLanguage(lang);
    view = { lng: lang, rev: view.rev + 1 };
    if (typeof document !== 'undefined') document.documentElement.lang = lang;
  }

  return {
    t,
    locale: () => view.lng,
    setLocale,
    ensureNamespaces,
    hasNamespace: (area, lang = view.lng) => catalogs.has(lang, area),
    namespaces: () => catalogs.areas()
  };
}

/** The memo's key for `options` holding only strings, numbers and booleans; otherwise none. */
function memoKey(key: string, options: TOptions | undefined): string | undefined {
  if (options === undefined) return key;
  let out = key;
  for (const k of Object.keys(options)) {
    const v = (options as Record<string, unknown>)[k];
    if (v === undefined) continue;
    const type = typeof v;
    if (type !== 'string' && type !== 'number' && type !== 'boolean') return undefined;
    out += `\u0000${k}\u0001${type[0]}${String(v)}`;
  }
  return out;
}

const app = createTranslator(bundled, lazy);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The active language; reading it inside a component or `$derived` tracks changes. */
export function locale(): Locale {
  return app.locale();
}

/** Translate `key` in the active language, falling back to English, then to the key itself. */
export function t(key: string, options?: TOptions): string {
  return app.t(key, options);
}

/**
 * Load these areas' catalogs (English, and the active language) before a page that reads them
 * renders; each loads once, and callers asking at the same time share the load. An area with no
 * catalog file is refused with the list of those that exist.
 */
export function ensureNamespaces(namespaces: readonly string[]): Promise<void> {
  return app.ensureNamespaces(namespaces);
}

/** Whether an area's catalog is in memory (in the active language unless `lang` is given). */
export function hasNamespace(namespace: string, lang?: Locale): boolean {
  return app.hasNamespace(namespace, lang);
}

/** Every area with a catalog, sorted. */
export function namespaces(): string[] {
  return app.namespaces();
}

/** Load the catalogs for `lang` (every area asked for so far), switch to it and set `<html lang>`. */
export function setLocale(lang: Locale): Promise<void> {
  return app.setLocale(lang);
}

/** The best supported language for a list like `navigator.languages`. */
export function negotiateLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}
