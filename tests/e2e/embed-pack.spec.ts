// A lesson of a lesson pack framed by a roadmap page on another site (docs/embed.md, "Lesson
// packs"): the frame fetches the pack's .zip from the app's own origin, checks and replays it as an
// import does, and plays the lesson. The test packs are written into the served build for this
// test only (they are not part of the app), so they are not precached: offline use comes from the
// service worker's pack cache.
import { expect, test, type Frame, type Page } from '@playwright/test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHost, type Host } from '../fixtures/embed-host/server';
import { packZip } from '../fixtures/packs/read';

const DIR = join(process.cwd(), 'build', 'test-packs');
let host: Host;

test.beforeAll(async ({ baseURL }) => {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'night-shift.zip'), packZip('valid'));
  writeFileSync(join(DIR, 'broken.zip'), packZip('invalid'));
  host = await startHost(new URL(baseURL!).origin);
});
test.afterAll(async () => {
  await host?.close();
  rmSync(DIR, { recursive: true, force: true });
});

interface Message {
  type: string;
  lesson: string;
  [key: string]: unknown;
}
const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Message[] }).received);

async function frameOf(page: Page, baseURL: string, query: string, sameSite = false): Promise<Frame> {
  const src = `${new URL(baseURL).origin}/embed/pack${query}`;
  await page.goto(`${sameSite ? host.sameSiteOrigin : host.origin}/?src=${encodeURIComponent(src)}`);
  await expect.poll(() => page.frames().some((f) => f.url().includes('/embed/pack'))).toBe(true);
  return page.frames().find((f) => f.url().includes('/embed/pack'))!;
}

test('a pack lesson in a frame on another site: fetched from the app’s origin, replayed, played; the host gets its messages', async ({
  page,
  baseURL
}) => {
  test.setTimeout(120_000);
  const frame = await frameOf(page, baseURL!, '?src=/test-packs/night-shift.zip&lesson=cordon&lang=en');
  await expect(frame.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 60_000 });
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Cordon a node');
  await expect(frame.getByText('From the pack “Night shift” 1.0.0')).toBeVisible();
  // "Open in Nodeplane" opens this pack lesson on a page of its own, not a built-in lesson's page.
  await expect(frame.getByRole('link', { name: /^Open in Nodeplane/ })).toHaveAttribute(
    'href',
    '/embed/pack?src=%2Ftest-packs%2Fnight-shift.zip&lesson=cordon'
  );
  // No app header or navigation inside the frame.
  await expect(frame.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect
    .poll(async () =>
      (await received(page)).filter((m) => m.type !== 'height').map((m) => [m.type, m.lesson])
    )
    .toEqual([
      ['ready', 'pack:night-shift/cordon'],
      ['lesson-started', 'pack:night-shift/cordon']
    ]);

  // A task done in the frame reaches the host.
  const input = frame.getByRole('textbox', { name: 'Console command' });
  await input.fill('kubectl cordon worker-1');
  await input.press('Enter');
  await expect(frame.locator('[data-task="cordon"]')).toHaveAttribute('data-done', 'true', {
    timeout: 30_000
  });
  await expect
    .poll(async () => (await received(page)).filter((m) => m.type === 'task-completed').map((m) => m.task))
    .toEqual(['cordon']);
});

test('a pack on another origin is refused before anything is fetched; a broken pack is refused as an import would be, in Russian too', async ({
  page,
  baseURL
}) => {
  test.setTimeout(120_000);
  const asked: string[] = [];
  page.on('request', (r) => asked.push(r.url()));
  const elsewhere = `${host.origin}/night-shift.zip`;
  let frame = await frameOf(page, baseURL!, `?src=${encodeURIComponent(elsewhere)}&lesson=cordon&lang=en`);
  await expect(frame.getByTestId('embed-pack-problem')).toHaveText(
    `${elsewhere} is not on this site (${new URL(baseURL!).origin}): a framed lesson fetches a pack only from the site it is served from, so nothing was fetched.`
  );
  expect(asked.filter((u) => u.endsWith('.zip'))).toEqual([]);

  frame = await frameOf(page, baseURL!, '?src=/test-packs/broken.zip&lesson=broken&lang=en');
  const problem = frame.getByTestId('embed-pack-problem');
  await expect(problem).toContainText(
    'The lesson pack /test-packs/broken.zip was refused, as an import would refuse it:',
    {
      timeout: 30_000
    }
  );
  await expect(problem.locator('li').first()).toHaveText(
    'pack.yaml:5 version — must be a semantic version like 1.2.0 (semver.org)'
  );

  frame = await frameOf(page, baseURL!, '?src=/test-packs/broken.zip&lesson=broken&lang=ru');
  await expect(frame.getByTestId('embed-pack-problem')).toContainText(
    'Набор уроков /test-packs/broken.zip не принят — так же, как его не принял бы импорт:',
    { timeout: 30_000 }
  );
  await expect(frame.getByTestId('embed-pack-problem').locator('li').first()).toHaveText(
    'pack.yaml:5 version — нужна семантическая версия, например 1.2.0 (semver.org)'
  );

  frame = await frameOf(page, baseURL!, '?src=/test-packs/gone.zip&lesson=cordon&lang=en');
  await expect(frame.getByTestId('embed-pack-problem')).toHaveText(
    'Could not fetch the lesson pack /test-packs/gone.zip: 404 Not Found'
  );
  frame = await frameOf(page, baseURL!, '?lang=en');
  await expect(frame.getByTestId('embed-pack-problem')).toContainText('/embed/pack?src=');
});

test('once fetched through the service worker, the framed pack lesson opens offline', async ({
  page,
  context,
  baseURL
}) => {
  test.setTimeout(150_000);
  // The same site (another port): a frame on another site gets no service worker in a fresh profile.
  const query = '?src=/test-packs/night-shift.zip&lesson=cordon&lang=en';
  let frame = await frameOf(page, baseURL!, query, true);
  await expect(frame.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 60_000 });
  await frame.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => frame.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // A second visit fetches the pack through the service worker, which keeps it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Reload the frame' }).click();
  await expect.poll(() => page.frames().some((f) => f.url().includes('/embed/pack'))).toBe(true);
  frame = page.frames().find((f) => f.url().includes('/embed/pack'))!;
  await expect(frame.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 60_000 });
  await expect
    .poll(() =>
      frame.evaluate(async () =>
        (await caches.open('nodeplane.packs')).keys().then((k) => k.map((r) => new URL(r.url).pathname))
      )
    )
    .toEqual(['/test-packs/night-shift.zip']);

  await context.setOffline(true);
  try {
    await page.getByRole('button', { name: 'Reload the frame' }).click();
    await expect.poll(() => page.frames().some((f) => f.url().includes('/embed/pack'))).toBe(true);
    const again = page.frames().find((f) => f.url().includes('/embed/pack'))!;
    await expect(again.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 60_000 });
    await expect(again.getByRole('heading', { level: 1 })).toHaveText('Cordon a node');
  } finally {
    await context.setOffline(false);
  }
});
