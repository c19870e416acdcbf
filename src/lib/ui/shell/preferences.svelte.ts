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

function applyTheme(theme: Theme): void {
  preferences.theme = theme;
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
  mirror(THEME_MIRROR, theme);
}

async function applyLocale(lang: Locale): Promise<void> {
  try {
    await setLocale(lang);
  } finally {
    document.documentElement.removeAttribute('data-locale-pending');
  }
  mirror(LOCALE_MIRROR, lang);
}

async function saved(name: string): Promise<unknown> {
  try {
    return await getSetting(name);
  } catch {
    preferences.storage = false;
    return undefined;
  }
}

/** Apply the saved language and theme; with none saved, the browser's language and the system theme. */
export async function initPreferences(): Promise<void> {
  preferences.storage = storageAvailable();
  const [lang, theme] = await Promise.all([saved('locale'), saved('theme')]);
  applyTheme(isTheme(theme) ? theme : 'system');
  await applyLocale(isLocale(lang) ? lang : negotiateLocale(navigator.languages ?? [navigator.language]));
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
