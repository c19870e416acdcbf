import { expect, test, type Page, type Route } from '@playwright/test';
import { readFileSync } from 'node:fs';

// The lab's UI strings are their own chunks (src/lib/i18n/routes.ts): the home page never loads
// them, and a page that reads them renders only once they are in memory.

const catalog = (lang: string, area: string) =>
  JSON.parse(readFileSync(`src/lib/i18n/locales/${lang}/${area}.json`, 'utf8')) as Record<string, unknown>;

/** Leaf strings of a catalog, by dotted key. */
function leaves(node: unknown, prefix: string, out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) leaves(v, `${prefix}.${k}`, out);
  return out;
}

const LAZY = ['lab', 'diagram', 'network', 'ops', 'embed', 'author'];
const enLab = catalog('en', 'lab');
const ruLab = catalog('ru', 'lab');
// A sentence only the lab's catalog holds, in each language: it tells its chunk among the others.
const marker = { en: enLab.placeholder as string, ru: ruLab.simError as string };
marker.ru = marker.ru.slice(0, marker.ru.indexOf('{{'));

/**
 * Hold back the lab catalog's chunks by `delayMs` and count them. A MutationObserver records any
 * text or label on the page that is a raw key of a lazy area, and every short text shown.
 */
async function watch(page: Page, delayMs: number) {
  const served = { en: 0, ru: 0 };
  await page.route('**/_app/immutable/**/*.js', async (route: Route) => {
    const response = await route.fetch();
    const body = await response.text();
    const lang = body.includes(marker.en) ? 'en' : body.includes(marker.ru) ? 'ru' : undefined;
    if (lang) {
      served[lang]++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    await route.fulfill({ response, body });
  });
  await page.addInitScript((areas: string[]) => {
    const raw = new RegExp(`^\\s*(${areas.join('|')})\\.[A-Za-z]+(\\.[A-Za-z0-9_]+)*\\s*$`);
    const w = window as unknown as { rawKeys: string[]; shown: Set<string> };
    w.rawKeys = [];
    w.shown = new Set();
    const look = (text: string | null | undefined) => {
      if (!text) return;
      if (raw.test(text)) w.rawKeys.push(text.trim());
      if (text.length < 200) w.shown.add(text.trim());
    };
    const scan = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) look(node.textContent);
      else if (node instanceof Element) {
        for (const name of ['aria-label', 'title', 'placeholder']) look(node.getAttribute(name));
        node.childNodes.forEach(scan);
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') look(r.target.textContent);
        else if (r.type === 'attributes') look((r.target as Element).getAttribute(r.attributeName!));
        else r.addedNodes.forEach(scan);
      }
      look(document.title);
    }).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-label', 'title', 'placeholder']
    });
    document.addEventListener('DOMContentLoaded', () => scan(document.body));
  }, LAZY);
  return served;
}

const rawKeys = (page: Page) => page.evaluate(() => (window as unknown as { rawKeys: string[] }).rawKeys);
const shown = (page: Page) => page.evaluate(() => [...(window as unknown as { shown: Set<string> }).shown]);

async function ready(page: Page) {
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
}

// Without a service worker, page.route sees (and can hold back) every chunk.
test.use({ serviceWorkers: 'block' });

test('the home page loads none of the lab strings; the sandbox waits for them and shows no raw key', async ({
  page
}) => {
  const served = await watch(page, 1500);
  await page.goto('/');
  await ready(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roadmap');
  expect(served).toEqual({ en: 0, ru: 0 });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandbox' }).click();
  // While the lab's catalog is held back the roadmap stays, whole.
  await page.waitForTimeout(700);
  expect(served.en).toBe(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roadmap');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sandbox', { timeout: 15_000 });
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Console command' })).toBeVisible();
  expect(await rawKeys(page)).toEqual([]);

  // Russian: the lab's Russian catalog loads (once) before the page switches.
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Песочница');
  await expect(page.getByRole('combobox', { name: 'Сценарий' })).toBeVisible();
  expect(served).toEqual({ en: 1, ru: 1 });
  expect(await rawKeys(page)).toEqual([]);
});

test('in Russian, a page opened from the roadmap shows the lab in Russian from its first frame', async ({
  page
}) => {
  const served = await watch(page, 800);
  await page.goto('/');
  await ready(page);
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Дорожная карта');
  expect(served).toEqual({ en: 0, ru: 0 });
  // What the English roadmap showed before the switch does not count.
  await page.evaluate(() => (window as unknown as { shown: Set<string> }).shown.clear());

  await page
    .getByRole('navigation', { name: 'Основная навигация' })
    .getByRole('link', { name: 'Песочница' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Песочница');
  await expect(page.getByRole('textbox', { name: 'Команда консоли' })).toBeVisible();
  expect(served).toEqual({ en: 1, ru: 1 });
  expect(await rawKeys(page)).toEqual([]);
  // No string of the lab's English catalog (one that reads differently in Russian) was ever shown.
  const en = leaves(enLab, 'lab');
  const ru = leaves(ruLab, 'lab');
  const english = new Set(
    [...en].filter(([k, v]) => !v.includes('{{') && ru.get(k) !== v && v.length > 3).map(([, v]) => v)
  );
  expect((await shown(page)).filter((text) => english.has(text))).toEqual([]);
});

test('a lesson opened directly renders its lab with the strings in place', async ({ page }) => {
  const served = await watch(page, 0);
  await page.goto('/lessons/06-heartbeats');
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Run in the console: / }).first()).toBeVisible();
  expect(served.en).toBe(1);
  expect(await rawKeys(page)).toEqual([]);
});
