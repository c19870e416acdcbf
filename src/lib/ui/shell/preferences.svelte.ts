/**
 * The learner's language and theme: applied to the page, saved in the settings store, and
 * mirrored to localStorage so static/boot.js can apply the theme before first paint.
 */
import { isLocale, negotiateLocale, setLocale, type Locale } from '$lib/i18n/index.svelte';
import { getSetting, setSetting, storageAvailable } from '$lib/persist';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const THEME_MIRROR = 'nodeplane.theme';
const LOCALE_MIRROR = 'nodeplane.locale';

export const preferences = $state({ theme: 'system' as Theme, storage: true });

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

function mirror(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // The mirror only saves a flash of the wrong theme or language; IndexedDB holds the choice.
  }
}

/** `keep`: mirror it for boot.js (a saved choice); a choice for this page only is not mirrored. */
function applyTheme(theme: Theme, keep = true): void {
  preferences.theme = theme;
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
  if (keep) mirror(THEME_MIRROR, theme);
}

async function applyLocale(lang: Locale, keep = true): Promise<void> {
  try {
    await setLocale(lang);
  } finally {
    document.documentElement.removeAttribute('data-locale-pending');
  }
  if (keep) mirror(LOCALE_MIRROR, lang);
}

async function saved(name: string): Promise<unknown> {
  try {
    return await getSetting(name);
  } catch {
    preferences.storage = false;
    return undefined;
  }
}

/** A language or theme chosen for this page only (an embedded lesson's host), never saved. */
export interface PageChoice {
  lang?: Locale;
  theme?: Theme;
}

let markApplied: () => void = () => {};
/** Resolves once `initPreferences` has applied the language and theme (whether saved or not). */
export const preferencesApplied = new Promise<void>((resolve) => (markApplied = resolve));

/**
 * Apply the saved language and theme; with none saved, the browser's language and the system
 * theme. `choice` (read once the saved settings are in) overrides either for this page only.
 */
export async function initPreferences(choice: () => PageChoice = () => ({})): Promise<void> {
  try {
    preferences.storage = storageAvailable();
    const [lang, theme] = await Promise.all([saved('locale'), saved('theme')]);
    const page = choice();
    if (page.theme) applyTheme(page.theme, false);
    else applyTheme(isTheme(theme) ? theme : 'system');
    if (page.lang) await applyLocale(page.lang, false);
    else
      await applyLocale(isLocale(lang) ? lang : negotiateLocale(navigator.languages ?? [navigator.language]));
  } finally {
    markApplied();
  }
}

/** Show the page in a language without saving it as the learner's choice. */
export function showLocale(lang: Locale): Promise<void> {
  return applyLocale(lang, false);
}

/** Show the page in a theme without saving it as the learner's choice. */
export function showTheme(theme: Theme): void {
  applyTheme(theme, false);
}

async function remember(name: string, value: string): Promise<void> {
  try {
    await setSetting(name, value);
  } catch {
    preferences.storage = false;
  }
}

export async function chooseLocale(lang: Locale): Promise<void> {
  await applyLocale(lang);
  await remember('locale', lang);
}

export async function chooseTheme(theme: Theme): Promise<void> {
  applyTheme(theme);
  await remember('theme', theme);
}
