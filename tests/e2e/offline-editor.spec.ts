import { expect, test } from '@playwright/test';

// After one visit, the YAML editor (Monaco, its editor worker and monaco-yaml's worker) works
// with no network: it is precached by the service worker like every other asset.
test('Monaco and its YAML worker load offline', async ({ page, context }) => {
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);

  const response = await page.goto('/sandbox');
  expect(response?.fromServiceWorker()).toBe(true);
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 30_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(
    'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {colour: red, containers: []}\n'
  );
  // The squiggle comes from monaco-yaml's schema validation, which runs in the YAML worker.
  await expect(
    page.locator('.monaco-editor .squiggly-warning, .monaco-editor .squiggly-error').first()
  ).toBeAttached({
    timeout: 30_000
  });
  await context.setOffline(false);
});
