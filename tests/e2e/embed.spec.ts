// An embedded lesson on a roadmap page of another site (docs/embed.md): the host page in
// tests/fixtures/embed-host is served from 127.0.0.1 while the app is on localhost, so the frame
// is cross-origin and cross-site, with the host's CSP allowing only the app as frame-src.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { startHost, type Host } from '../fixtures/embed-host/server';

const SLUG = '01-cluster-anatomy';

interface Message {
  source: string;
  version: number;
  type: string;
  lesson: string;
  [key: string]: unknown;
}

let host: Host;
test.beforeAll(async ({ baseURL }) => {
  host = await startHost(new URL(baseURL!).origin);
});
test.afterAll(async () => {
  await host?.close();
});

/**
 * Open the host page with the lesson framed at `query` (`extra`: the host page's own parameters);
 * resolves to the lesson's frame. The host is another site unless `sameSite` (another port of
 * localhost): a browser that blocks third-party storage, as Playwright's fresh profiles do, gives a
 * frame on another site no IndexedDB and no service worker.
 */
async function openHost(
  page: Page,
  baseURL: string,
  query = '',
  { extra = '', sameSite = false }: { extra?: string; sameSite?: boolean } = {}
): Promise<Frame> {
  const src = `${new URL(baseURL).origin}/embed/${SLUG}${query}`;
  await page.goto(`${sameSite ? host.sameSiteOrigin : host.origin}/?src=${encodeURIComponent(src)}${extra}`);
  await expect(page.locator('iframe')).toBeAttached();
  const frame = await waitForFrame(page);
  await expect(frame.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  return frame;
}

async function waitForFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes('/embed/'))).toBe(true);
  return page.frames().find((f) => f.url().includes('/embed/'))!;
}

/** Press one of the host page's buttons (above the frame: back at the top of the host page first). */
async function hostButton(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name }).click();
}

const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Message[] }).received);
const ofType = async (page: Page, type: string) => (await received(page)).filter((m) => m.type === type);

test('the host page on another origin gets ready, lesson-started and task-completed; reset and language work; hostile messages do nothing', async ({
  page,
  baseURL
}) => {
  test.setTimeout(120_000);
  const frame = await openHost(page, baseURL!, '?lang=ru&theme=dark');

  // Language and theme from the frame's link; no app header, navigation or footer.
  await expect(frame.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Анатомия кластера');
  await expect(frame.locator('.site-header, .site-footer, .skip-link')).toHaveCount(0);
  // The only navigation is the lesson's own step list.
  await expect(frame.getByRole('navigation')).toHaveAccessibleName('Шаги');
  await expect(frame.getByRole('navigation', { name: 'Основная навигация' })).toHaveCount(0);
  await expect(frame.getByRole('banner')).toHaveCount(0);

  await expect.poll(() => ofType(page, 'lesson-started')).toHaveLength(1);
  const [ready] = await ofType(page, 'ready');
  expect(ready).toEqual({
    source: 'nodeplane',
    version: 1,
    type: 'ready',
    lesson: SLUG,
    lang: 'ru',
    theme: 'dark'
  });
  expect((await received(page))[0].type).toBe('ready');
  const [started] = await ofType(page, 'lesson-started');
  expect(started).toEqual({
    source: 'nodeplane',
    version: 1,
    type: 'lesson-started',
    lesson: SLUG,
    tasks: ['predict', 'bind', 'who-node', 'who-pulls', 'who-status'],
    done: []
  });
  // The frame reports its content height for hosts that size it.
  const heights = await ofType(page, 'height');
  expect(heights.length).toBeGreaterThan(0);
  expect(heights.at(-1)!.height).toBeGreaterThan(300);

  // This browser keeps no storage for a frame on another site: the learner is told, calmly.
  await expect(frame.getByTestId('embed-no-storage')).toHaveText(
    /progress here lasts until the page is closed|прогресс здесь сохранится, пока страница открыта/
  );
  await expect(frame.getByRole('alert')).toHaveCount(0);

  // Links that leave the lesson open a new tab instead of taking the frame away.
  const outbound = frame.locator('a[href]:not([href^="#"])');
  expect(await outbound.count()).toBeGreaterThan(0);
  for (const a of await outbound.all()) {
    await expect(a).toHaveAttribute('target', '_blank');
    await expect(a).toHaveAttribute('rel', /noopener/);
  }

  // The reference solution's commands, typed into the frame's console and fault panel.
  const input = frame.getByRole('textbox', { name: 'Команда консоли' });
  await input.fill('kubectl apply -f hello.yaml');
  await input.press('Enter');
  await expect(frame.getByRole('log', { name: 'Вывод консоли' })).toContainText('pod/hello created');
  // The fault panel's button, named in the frame's language.
  const start = frame.getByRole('button', { name: 'Запустить планировщик' });
  await expect(start).toHaveText('Запустить планировщик');
  await start.click();
  await expect.poll(() => ofType(page, 'task-completed'), { timeout: 45_000 }).toHaveLength(1);
  const [done] = await ofType(page, 'task-completed');
  expect(done).toMatchObject({
    source: 'nodeplane',
    version: 1,
    lesson: SLUG,
    task: 'bind',
    done: 1,
    total: 5
  });
  expect(done.virtualMs).toBeGreaterThan(0);
  await expect(frame.locator('[data-task="bind"]')).toHaveAttribute('data-done', 'true');

  // Hostile or malformed messages change nothing and get no answer.
  const before = (await received(page)).filter((m) => m.type !== 'height').length;
  await page.evaluate(() => {
    const raw = (window as unknown as { sendRaw: (d: unknown) => void }).sendRaw;
    raw({ source: 'nodeplane-host', version: 1, type: 'eval', code: 'document.title = "pwned"' });
    raw({ source: 'nodeplane', version: 1, type: 'reset' });
    raw({ source: 'nodeplane-host', version: 2, type: 'reset' });
    raw({ source: 'nodeplane-host', version: 1, type: 'reset', extra: true });
    raw({ source: 'nodeplane-host', version: 1, type: 'set-language', lang: 'de' });
    raw({ source: 'nodeplane-host', version: 1, type: 'set-theme', theme: 'red; color: red' });
    raw(JSON.stringify({ source: 'nodeplane-host', version: 1, type: 'reset' }));
    raw({ source: 'nodeplane-host', version: 1, type: 'run', command: 'kubectl delete pod hello' });
  });
  // A message that is read (set-theme) after the hostile ones: once it applies, they were handled.
  await hostButton(page, 'Light theme');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'light');
  expect((await received(page)).filter((m) => m.type !== 'height').length).toBe(before);
  await expect(frame.locator('[data-task="bind"]')).toHaveAttribute('data-done', 'true');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'ru');
  expect(await frame.title()).not.toContain('pwned');
  await expect(frame.getByRole('log', { name: 'Вывод консоли' })).not.toContainText('deleted');

  // The host switches the language.
  await hostButton(page, 'English');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Cluster anatomy');

  // The host's reset starts the lesson over: a new lesson-started with nothing done.
  await hostButton(page, 'Reset the lesson');
  await expect.poll(() => ofType(page, 'lesson-started')).toHaveLength(2);
  expect((await ofType(page, 'lesson-started'))[1]).toMatchObject({ done: [] });
  await expect(frame.locator('[data-task="bind"]')).toHaveAttribute('data-done', 'false');
  await expect(frame.getByRole('heading', { name: 'Tasks' })).toContainText('0 of 5 done');
});

test('a lesson completed in the frame posts lesson-completed', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const frame = await openHost(page, baseURL!, '?lang=en');
  await frame.getByRole('button', { name: 'Show solution' }).click();
  await expect.poll(() => ofType(page, 'lesson-completed'), { timeout: 90_000 }).toHaveLength(1);
  const [complete] = await ofType(page, 'lesson-completed');
  expect(complete).toMatchObject({ lesson: SLUG, score: null, hints: 0, solutionViewed: true });
  expect(complete.virtualMs).toBeGreaterThan(15_000);
  expect((await ofType(page, 'task-completed')).map((m) => m.task).sort()).toEqual(
    ['bind', 'predict', 'who-node', 'who-pulls', 'who-status'].sort()
  );
});

test('after one visit the embedded lesson loads and works with the network cut', async ({
  page,
  context,
  baseURL
}) => {
  test.setTimeout(180_000);
  const frame = await openHost(page, baseURL!, '?lang=en', { sameSite: true });
  // The frame's service worker precaches the app.
  await frame.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => frame.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  try {
    await hostButton(page, 'Reload the frame');
    const again = await waitForFrame(page);
    await expect(again.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
    await expect(again.getByRole('heading', { level: 1 })).toHaveText('Cluster anatomy');
    // Served by the service worker: the network is cut.
    expect(await again.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await expect.poll(() => ofType(page, 'ready')).toHaveLength(2);
    await expect.poll(() => ofType(page, 'lesson-started')).toHaveLength(2);
    const input = again.getByRole('textbox', { name: 'Console command' });
    await input.fill('kubectl get nodes');
    await input.press('Enter');
    await expect(again.getByRole('log', { name: 'Console output' })).toContainText('worker-1');
  } finally {
    await context.setOffline(false);
  }
});

for (const lang of ['en', 'ru'] as const)
  for (const scheme of ['light', 'dark'] as const)
    test(`no serious or critical accessibility violations in the frame (${scheme}, ${lang})`, async ({
      page,
      baseURL
    }) => {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      // A frame tall enough to show all of the lesson: axe reads colours only where they are painted.
      await page.setViewportSize({ width: 1280, height: 3200 });
      const frame = await openHost(page, baseURL!, `?lang=${lang}&theme=${scheme}`, {
        extra: '&height=3000'
      });
      await expect(frame.locator('html')).toHaveAttribute('lang', lang);
      await expect(frame.locator('html')).toHaveAttribute('data-theme', scheme);
      // Once the cluster has settled: a node card fades its background over 0.6 s when it changes.
      await expect(frame.locator('[data-node="worker-2"]')).toHaveAttribute('data-ready', 'True', {
        timeout: 30_000
      });
      await page.waitForTimeout(1000);
      const results = await new AxeBuilder({ page })
        .include('iframe')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`)
              .slice(0, 5)
              .join(' | ')}`
        );
      expect(serious).toEqual([]);
    });

for (const [width, height] of [
  [360, 640],
  [390, 844],
  [768, 1024],
  [1280, 800]
] as const)
  test(`at ${width}×${height} nothing in the frame is wider than the frame`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width: width + 40, height: height + 200 });
    const frame = await openHost(page, baseURL!, '?lang=ru', { extra: `&width=${width}&height=${height}` });
    await expect(frame.locator('[data-node="worker-1"]')).toBeVisible({ timeout: 30_000 });
    const size = await frame.evaluate(() => ({
      inner: window.innerWidth,
      scroll: document.documentElement.scrollWidth
    }));
    expect(size.inner).toBe(width);
    expect(size.scroll).toBeLessThanOrEqual(width);
    // The lab's console is reachable and takes a command.
    const input = frame.getByRole('textbox', { name: 'Команда консоли' });
    await input.scrollIntoViewIfNeeded();
    await input.fill('kubectl get nodes');
    await input.press('Enter');
    await expect(frame.getByRole('log', { name: 'Вывод консоли' })).toContainText('worker-1');
  });
