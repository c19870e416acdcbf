/**
 * UI translations: one i18next instance, catalogs per language per area, and a rune-backed `t()`
 * that re-renders every caller when the language changes.
 *
 * Catalog layout: `locales/<lang>/common.json` holds top-level keys (`nav.*`, `settings.*`,
 * `common.*`, ...); every other `locales/<lang>/<area>.json` is mounted under its area name, so
 * `lab.json`'s `{ "play": "Play" }` is `t('lab.play')`. English is bundled (it is the fallback and
 * the prerendered language); other languages load on demand as their own chunks.
 */
import { createInstance, type TOptions } from 'i18next';

export const LOCALES = ['en', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', ru: 'Русский' };

type Catalog = Record<string, unknown>;

const english = import.meta.glob<Catalog>('./locales/en/*.json', { eager: true, import: 'default' });
const lazy = import.meta.glob<Catalog>(['./locales/*/*.json', '!./locales/en/*.json'], {
  import: 'default'
});

function areaOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
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

const i18n = createInstance();
void i18n.init({
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  resources: { en: { translation: mergeCatalogs(english) } },
  // Resources are in memory, so init must finish synchronously for prerendering.
  initAsync: false,
  // Svelte escapes text when it renders it; escaping here too would show &amp; to the learner.
  interpolation: { escapeValue: false },
  returnNull: false
});

let current = $state<Locale>(DEFAULT_LOCALE);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The active language; reading it inside a component or `$derived` tracks changes. */
export function locale(): Locale {
  return current;
}

/**
 * Translations already made in the active language, by key and plain options. The lab's map asks
 * for the same few hundred strings (a card's labels, a chip's "Select pod …") on every frame, and
 * i18next resolves, interpolates and nests each one anew; the memo is cleared when the language
 * changes or a catalog is loaded.
 */
// A cache, not state: nothing renders from it.
// eslint-disable-next-line svelte/prefer-svelte-reactivity
const memo = new Map<string, string>();
let memoLocale: Locale | undefined;
const MEMO_MAX = 20_000;

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

/** Translate `key` in the active language, falling back to English, then to the key itself. */
export function t(key: string, options?: TOptions): string {
  // Reading the rune makes every template that calls t() depend on the language.
  const lng = current;
  if (memoLocale !== lng) {
    memo.clear();
    memoLocale = lng;
  }
  const id = memoKey(key, options);
  if (id !== undefined) {
    const hit = memo.get(id);
    if (hit !== undefined) return hit;
  }
  const text = i18n.t(key, { ...options, lng }) as string;
  if (id !== undefined) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(id, text);
  }
  return text;
}

async function ensureLoaded(lang: Locale): Promise<void> {
  if (i18n.hasResourceBundle(lang, 'translation')) return;
  const prefix = `./locales/${lang}/`;
  const entries = Object.entries(lazy).filter(([path]) => path.startsWith(prefix));
  const files: Record<string, Catalog> = {};
  await Promise.all(
    entries.map(async ([path, load]) => {
      files[path] = await load();
    })
  );
  i18n.addResourceBundle(lang, 'translation', mergeCatalogs(files), true, true);
  memo.clear();
}

/** Load the catalogs for `lang`, switch to it and set `<html lang>`. */
export async function setLocale(lang: Locale): Promise<void> {
  await ensureLoaded(lang);
  await i18n.changeLanguage(lang);
  memo.clear();
  current = lang;
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

/** The best supported language for a list like `navigator.languages`. */
export function negotiateLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}
