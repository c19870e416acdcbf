import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import { packZip, readPackFolder } from '../fixtures/packs/read';

// Lesson packs on the roadmap: import (picker and drop), replay, play, refuse, hostile, export.
// The fixture zips are built here from the folders in tests/fixtures/packs/.

async function openRoadmap(page: Page) {
  await page.goto('/');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.getByTestId('packs')).toBeVisible();
}

async function chooseZip(page: Page, name: string, bytes: Uint8Array) {
  await page
    .getByTestId('pack-file')
    .setInputFiles({ name, mimeType: 'application/zip', buffer: Buffer.from(bytes) });
}

/** Drop a file on the drop zone as a browser does (a DataTransfer with the file). */
async function dropZip(page: Page, name: string, bytes: Uint8Array) {
  const transfer = await page.evaluateHandle(
    ({ name, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name, { type: 'application/zip' }));
      return dt;
    },
    { name, data: [...bytes] }
  );
  await page.getByTestId('pack-drop').dispatchEvent('dragenter', { dataTransfer: transfer });
  await page.getByTestId('pack-drop').dispatchEvent('drop', { dataTransfer: transfer });
}

/** Every request that left the app's origin, and every dialog opened. */
function watch(page: Page, origin: string) {
  const offOrigin: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) offOrigin.push(u);
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { offOrigin, dialogs };
}

test('a valid pack is replayed, installed under its title, and its lesson plays; both languages; axe', async ({
  page,
  baseURL
}) => {
  test.setTimeout(150_000);
  const seen = watch(page, baseURL!);
  await openRoadmap(page);
  await chooseZip(page, 'night-shift.zip', packZip('valid'));
  await expect(page.getByTestId('pack-accepted')).toHaveText('“Night shift” 1.0.0 is installed: 1 lesson.', {
    timeout: 60_000
  });
  await page.getByText('Replay of each lesson').click();
  await expect(page.locator('.replays')).toContainText('✓ cordon — solution passes at t=5s');
  const section = page.locator('section[data-pack="night-shift"]');
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Night shift');
  await expect(section).toContainText('by Platform team · version 1.0.0');
  const card = section.locator('[data-lesson="pack:night-shift/cordon"]');
  await expect(card).toHaveAttribute('data-status', 'new');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // Open it: the same player as built-in lessons, on /pack?pack=…&lesson=….
  await card.getByRole('link', { name: 'Cordon a node' }).click();
  await expect(page).toHaveURL(/\/pack\?pack=night-shift&lesson=cordon$/);
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cordon a node');
  await expect(page.getByTestId('lesson-origin')).toHaveText('· From the pack “Night shift” 1.0.0');
  // Complete the prediction task: cordoned nodes get no new pods.
  const q = page.locator('[data-question="new-pods"]');
  await q.getByLabel('No').check();
  await q.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(q.locator('[role="status"]')).toContainText('Right — the scheduler filters it out.');
  await expect(page.locator('[data-task="predict"]')).toHaveAttribute('data-done', 'true');

  // Back on the roadmap the lesson is in progress; in Russian the pack shows its Russian title.
  await openRoadmap(page);
  await expect(page.locator('[data-lesson="pack:night-shift/cordon"]')).toHaveAttribute(
    'data-status',
    'started'
  );
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  const ru = page.locator('section[data-pack="night-shift"]');
  await expect(ru.getByRole('heading', { level: 2 })).toHaveText('Ночная смена');
  await expect(ru).toContainText('автор: Platform team · версия 1.0.0');
  await expect(ru.getByRole('link', { name: 'Закрыть узел для планирования' })).toBeVisible();
  const axeRu = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axeRu.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // A newer version replaces it and keeps the progress.
  await page.getByLabel('Язык').selectOption('en');
  const files = readPackFolder('valid');
  files['pack.yaml'] = files['pack.yaml'].replace('version: 1.0.0', 'version: 1.1.0');
  const { writeZip } = await import('../../src/lib/packs/zip');
  await dropZip(page, 'night-shift-1.1.zip', writeZip(files));
  await expect(page.getByTestId('pack-accepted')).toHaveText(
    '“Night shift” is updated from 1.0.0 to 1.1.0; your progress in its lessons is kept.',
    { timeout: 60_000 }
  );
  await expect(page.locator('section[data-pack="night-shift"]')).toContainText('version 1.1.0');
  await expect(page.locator('[data-lesson="pack:night-shift/cordon"]')).toHaveAttribute(
    'data-status',
    'started'
  );

  // Remove asks first; the lessons leave the roadmap.
  await page.getByRole('button', { name: 'Remove “Night shift”' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('“Night shift” is removed.')).toBeVisible();
  await expect(page.locator('section[data-pack="night-shift"]')).toHaveCount(0);
  expect(seen.offOrigin).toEqual([]);
  expect(seen.dialogs).toEqual([]);
});

test('an invalid pack is refused with file:line field — message and nothing changes (Russian too)', async ({
  page
}) => {
  await openRoadmap(page);
  await chooseZip(page, 'broken.zip', packZip('invalid'));
  const refused = page.getByTestId('pack-refused');
  await expect(refused).toContainText('The pack was refused and nothing changed.');
  await expect(refused.locator('li')).toHaveText([
    'pack.yaml:5 version — must be a semantic version like 1.2.0 (semver.org)',
    '01-broken/lesson.yaml:8 spec.colour — unknown field',
    '01-broken/lesson.yaml:6 spec.timeBudget — must be a duration like 90s, 5m or 1h30m'
  ]);
  await expect(page.locator('section[data-pack]')).toHaveCount(0);
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).toContain(
    'nodeplane'
  );

  await page.getByLabel('Language').selectOption('ru');
  await chooseZip(page, 'broken.zip', packZip('invalid'));
  await expect(page.getByTestId('pack-refused')).toContainText('Набор не принят, ничего не изменилось.');
  // The problems in Russian too; the place (file:line field) stays as it is in the files.
  await expect(page.getByTestId('pack-refused').locator('li')).toHaveText([
    'pack.yaml:5 version — нужна семантическая версия, например 1.2.0 (semver.org)',
    '01-broken/lesson.yaml:8 spec.colour — неизвестное поле',
    '01-broken/lesson.yaml:6 spec.timeBudget — нужна длительность, например 90s, 5m или 1h30m'
  ]);
  await expect(page.locator('section[data-pack]')).toHaveCount(0);
});

test('a hostile pack runs nothing, loads nothing from elsewhere and adds no script', async ({
  page,
  baseURL
}) => {
  test.setTimeout(150_000);
  const seen = watch(page, baseURL!);
  await openRoadmap(page);
  const scripts = await page.locator('script').count();
  await page.evaluate(() => {
    (window as unknown as { __scripts: number }).__scripts = 0;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof Element && (n.tagName === 'SCRIPT' || n.querySelector('script')))
            (window as unknown as { __scripts: number }).__scripts++;
    }).observe(document, { childList: true, subtree: true });
  });

  // A zip that climbs out of the pack is refused before anything is read.
  const { zipSync, strToU8 } = await import('fflate');
  await chooseZip(page, 'evil.zip', zipSync({ 'pack.yaml': strToU8('id: x\n'), '../../evil': strToU8('x') }));
  await expect(page.getByTestId('pack-refused').locator('li')).toHaveText([
    'evil.zip: ../../evil — a path that climbs out of the pack (..) is not allowed'
  ]);

  // Markdown, titles and author full of script, remote images, iframes and styles: accepted, neutralised.
  await chooseZip(page, 'hostile.zip', packZip('hostile'));
  await expect(page.getByTestId('pack-accepted')).toBeVisible({ timeout: 60_000 });
  const section = page.locator('section[data-pack="hostile"]');
  await expect(section.getByRole('heading', { level: 2 })).toContainText('<script>alert(2)</script>');
  await section.getByRole('link').first().click();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Cordon');
  const text = page.locator('.player');
  await expect(text.locator('iframe, object, embed, style, link, meta, base, img[src^="http"]')).toHaveCount(
    0
  );
  await expect(
    text.locator('[onerror], [onload], [ontoggle], [style*="url("], a[href^="javascript:"]')
  ).toHaveCount(0);
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(seen.dialogs).toEqual([]);
  expect(seen.offOrigin).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __scripts: number }).__scripts)).toBe(0);
  expect(await page.locator('script').count()).toBe(scripts);
});

test('a built-in lesson exports as a .zip that imports back as a pack', async ({ page }) => {
  test.setTimeout(150_000);
  await openRoadmap(page);
  const card = page.locator('[data-lesson="05-scheduler"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: /^Export “.*” as a lesson pack \(\.zip\)$/ }).click()
  ]);
  expect(download.suggestedFilename()).toBe('05-scheduler.zip');
  const bytes = new Uint8Array(await readFile((await download.path())!));
  expect(Object.keys(unzipSync(bytes)).sort()).toEqual([
    '05-scheduler/lesson.en.md',
    '05-scheduler/lesson.ru.md',
    '05-scheduler/lesson.yaml',
    '05-scheduler/scenario.yaml',
    'pack.yaml'
  ]);
  await chooseZip(page, '05-scheduler.zip', bytes);
  await expect(page.getByTestId('pack-accepted')).toContainText('1.0.0 is installed: 1 lesson.', {
    timeout: 90_000
  });
  const section = page.locator('section[data-pack="scheduler"]');
  await expect(section).toContainText('by Nodeplane · version 1.0.0');
  await expect(section.locator('[data-lesson="pack:scheduler/scheduler"]')).toBeVisible();
});
