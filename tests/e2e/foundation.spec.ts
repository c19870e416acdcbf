import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative } from 'node:path';

/** Every prerendered page of the build, as a route ('/', '/settings', ...). */
function builtRoutes(dir = 'build'): string[] {
  const routes: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory() && entry.name !== '_app') walk(path);
      else if (entry.name.endsWith('.html') && entry.name !== '404.html') {
        const route =
          '/' +
          relative(dir, path)
            .replace(/(^|\/)index\.html$/, '')
            .replace(/\.html$/, '');
        routes.push(route);
      }
    }
  };
  walk(dir);
  return routes.sort();
}

/** Wait until the layout has applied the saved language and theme. */
async function ready(page: Page) {
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
}

async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test.describe('languages', () => {
  // Without a service worker, page.route sees (and can delay) the app's start-up script.
  test.use({ serviceWorkers: 'block' });

  test('the home page renders in English and in Russian', async ({ page }) => {
    await page.goto('/');
    await ready(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roadmap');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
      'Roadmap',
      'Sandbox',
      'Class',
      'Write a lesson',
      'Settings'
    ]);

    await page.getByLabel('Language').selectOption('ru');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Дорожная карта');
    await expect(page.getByRole('navigation', { name: 'Основная навигация' }).getByRole('link')).toHaveText([
      'Дорожная карта',
      'Песочница',
      'Группа',
      'Написать урок',
      'Настройки'
    ]);
    await expect(page.getByRole('link', { name: 'Перейти к основному содержимому' })).toBeAttached();

    // The choice is remembered. The prerendered English page stays hidden until it is switched.
    const hiddenAtFirstPaint = page
      .waitForEvent('domcontentloaded')
      .then(() => page.evaluate(() => document.documentElement.hasAttribute('data-locale-pending')));
    await page.route('**/_app/immutable/entry/start.*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.reload();
    expect(await hiddenAtFirstPaint).toBe(true);
    await ready(page);
    await expect(page.locator('html')).not.toHaveAttribute('data-locale-pending');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Дорожная карта');
  });
});

test('the theme override is applied and remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/settings');
  await ready(page);
  await page.getByLabel('Dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(dark).toBe('rgb(14, 18, 23)');
  await page.reload();
  // static/boot.js applies it before the app starts.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await ready(page);
  await expect(page.getByLabel('Dark')).toBeChecked();
  await page.getByLabel('Follow the system').check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgb(246, 248, 250)'
  );
});

test('every page works offline after one visit', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await context.setOffline(true);

  const home = await page.reload();
  expect(home?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roadmap');

  for (const [route, heading] of [
    ['/settings', 'Settings'],
    ['/sandbox', 'Sandbox']
  ]) {
    const response = await page.goto(route);
    expect(response?.fromServiceWorker(), route).toBe(true);
    await ready(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }

  // The Russian catalog is a lazy chunk; it is precached too.
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Песочница');
  await context.setOffline(false);
});

test('progress written to IndexedDB survives a reload', async ({ page }) => {
  await page.goto('/settings');
  await ready(page);
  await expect(page.getByTestId('stored-counts')).toHaveText('Lesson records: 0 · Saved sandboxes: 0');

  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('nodeplane');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('progress', 'readwrite');
          tx.objectStore('progress').put({
            schema: 2,
            slug: 'node-registration',
            status: 'completed',
            completedSteps: ['register', 'renew-lease'],
            hintsUsed: 0,
            startedAt: 1_000,
            updatedAt: 2_000,
            completedAt: 2_000
          });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      })
  );

  await page.reload();
  await ready(page);
  await expect(page.getByTestId('stored-counts')).toHaveText('Lesson records: 1 · Saved sandboxes: 0');

  // Reset asks first, then deletes, and that survives a reload too.
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await expect(page.getByText('Delete the progress of every lesson? This cannot be undone.')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Progress was reset.')).toBeVisible();
  await page.reload();
  await ready(page);
  await expect(page.getByTestId('stored-counts')).toHaveText('Lesson records: 0 · Saved sandboxes: 0');
});

test('all data exports to a JSON file and imports back', async ({ page }) => {
  await page.goto('/settings');
  await ready(page);
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('nodeplane');
        open.onsuccess = () => {
          const tx = open.result.transaction(['progress', 'sandboxes'], 'readwrite');
          tx.objectStore('progress').put({
            schema: 2,
            slug: 'node-lease',
            status: 'started',
            completedSteps: ['read-lease'],
            hintsUsed: 1,
            startedAt: 10,
            updatedAt: 20
          });
          tx.objectStore('sandboxes').put({
            schema: 2,
            id: 'partition',
            name: 'Partitioned worker-2',
            snapshot: { time: 40_000 },
            createdAt: 5,
            updatedAt: 6
          });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      })
  );
  await page.reload();
  await ready(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export all data' }).click()
  ]);
  expect(download.suggestedFilename()).toMatch(/^nodeplane-backup-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const backup = JSON.parse(await readFile(file, 'utf8'));
  expect(backup).toMatchObject({
    format: 'nodeplane-backup',
    version: 3,
    progress: [{ slug: 'node-lease', completedSteps: ['read-lease'], hintsUsed: 1 }],
    sandboxes: [{ id: 'partition', name: 'Partitioned worker-2', snapshot: { time: 40_000 } }]
  });

  await page.getByRole('button', { name: 'Reset progress' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('stored-counts')).toHaveText('Lesson records: 0 · Saved sandboxes: 1');

  await page.getByLabel('Import data').setInputFiles(file);
  await expect(page.getByText('Imported: lesson records — 1, sandboxes — 1, settings — 0.')).toBeVisible();
  await expect(page.getByTestId('stored-counts')).toHaveText('Lesson records: 1 · Saved sandboxes: 1');

  await page.getByLabel('Import data').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...backup, progress: [{ schema: 2, slug: 'x', status: 'done' }] }))
  });
  await expect(
    page.getByText('Nothing was imported: progress[0]: status must be "started" or "completed"')
  ).toBeVisible();
  await expect(page.getByTestId('stored-counts')).toHaveText('Lesson records: 1 · Saved sandboxes: 1');
});

/**
 * Serves build/ like scripts/start.js, but the service worker script can be changed in place, the
 * way a new deployment changes it.
 */
async function deployableServer() {
  let release = '';
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.json': 'application/json',
    '.webmanifest': 'application/manifest+json',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.ttf': 'font/ttf'
  };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const candidates = [
      join('build', path),
      join('build', `${path}.html`),
      join('build', path, 'index.html')
    ];
    for (const file of candidates) {
      try {
        let body: Buffer | string = await readFile(file);
        if (path === '/service-worker.js') body = `${body}\n// release ${release}\n`;
        res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
        return;
      } catch {
        // try the next candidate
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    deploy: (name: string) => (release = name),
    close: () => new Promise((resolve) => server.close(resolve))
  };
}

test('a new version is announced and loaded only when the learner agrees', async ({ page }) => {
  const server = await deployableServer();
  try {
    await page.goto(`${server.url}/`);
    await waitForServiceWorker(page);
    await ready(page);

    server.deploy('2');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

    const banner = page.getByRole('status').filter({ hasText: 'A new version is available.' });
    await expect(banner).toBeVisible();
    // The old worker keeps control (and its cache) until the learner agrees.
    const before = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: registration?.waiting?.state, controller: navigator.serviceWorker.controller?.state };
    });
    expect(before).toEqual({ waiting: 'installed', controller: 'activated' });

    await Promise.all([page.waitForEvent('load'), banner.getByRole('button', { name: 'Reload' }).click()]);
    await ready(page);
    await expect(banner).toHaveCount(0);
    const after = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return {
        waiting: registration?.waiting ?? null,
        active: registration?.active?.state,
        controlled: navigator.serviceWorker.controller !== null
      };
    });
    expect(after).toEqual({ waiting: null, active: 'activated', controlled: true });
  } finally {
    await server.close();
  }
});

for (const scheme of ['light', 'dark'] as const) {
  test(`no serious or critical accessibility violations on any page (${scheme})`, async ({ page }) => {
    const routes = builtRoutes();
    expect(routes).toEqual(expect.arrayContaining(['/', '/sandbox', '/settings']));
    test.setTimeout(30_000 * routes.length);
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`${page.url()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message}`));
    // Colours are audited at rest: a card fading in or changing state (0.6 s transitions) has
    // in-between colours no learner reads; with reduced motion the page shows its end state at once.
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const serious: string[] = [];
    for (const route of routes) {
      await page.goto(route);
      await ready(page);
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      for (const v of results.violations) {
        if (v.impact !== 'serious' && v.impact !== 'critical') continue;
        const targets = v.nodes.slice(0, 5).map((n) => n.target.join(' '));
        serious.push(`${route}: ${v.id}, ${v.nodes.length} element(s), e.g. ${targets.join(' | ')}`);
      }
    }
    expect(serious).toEqual([]);
    // A Content-Security-Policy violation is reported as a console error.
    expect(errors).toEqual([]);
  });
}
