import { expect, test, type Request } from '@playwright/test';

// Every request the app makes through a lesson, the sandbox (console, faults) and the YAML editor
// (Monaco and its workers) is recorded, including those of workers and the service worker:
// none leaves the app's origin.
test('no request leaves the origin through a lesson, the sandbox and the editor', async ({
  page,
  context,
  baseURL
}) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const seen: string[] = [];
  const record = (r: Request) => void seen.push(r.url());
  context.on('request', record);
  page.on('request', record);
  context.on('serviceworker', (w) => w.url() && seen.push(w.url()));

  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready);

  await page.goto('/lessons/06-heartbeats');
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await page
    .getByRole('button', { name: /^Run in the console: / })
    .first()
    .click();

  await page.goto('/sandbox');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('kubectl get pods -A -o wide');
  await input.press('Enter');
  await expect(page.getByText('kube-system').first()).toBeVisible();

  await page.getByRole('tab', { name: 'YAML editor' }).click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 30_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {colour: red}\n');
  await expect(
    page.locator('.monaco-editor .squiggly-warning, .monaco-editor .squiggly-error').first()
  ).toBeAttached({ timeout: 30_000 });

  const offOrigin = seen.filter(
    (u) => !u.startsWith(origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:')
  );
  console.log(`requests: ${seen.length}, off the origin: ${offOrigin.length}`);
  expect(seen.length).toBeGreaterThan(10);
  expect(offOrigin).toEqual([]);
});
