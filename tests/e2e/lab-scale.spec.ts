/**
 * The lab at 200 nodes (scenarios/two-hundred-nodes.yaml): the simulation runs in the worker, so
 * the page's main thread stays free while the cluster registers and schedules thousands of pods
 * at 60×. Prints the main-thread figures and the speed the worker achieved.
 */
import { expect, test } from '@playwright/test';
import { clockSeconds, describeFigures, tracePlaying } from './main-thread';

test('200 nodes at 60×: no main-thread task over 50 ms while the worker simulates', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('two-hundred-nodes.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel('Speed').selectOption('60');
  const before = clockSeconds((await page.getByTestId('clock').textContent()) ?? '');
  const f = await tracePlaying(page, 8000);
  const after = clockSeconds((await page.getByTestId('clock').textContent()) ?? '');
  console.log(`${describeFigures(f, after)} achieved=${((after - before) / 8).toFixed(1)}x of 60x`);
  expect(after).toBeGreaterThan(before);
  expect(f.tasks).toBeGreaterThan(100);
  expect(f.cpu.filter((ms) => ms > 50)).toEqual([]);
});
