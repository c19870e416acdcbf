import { expect, test } from '@playwright/test';

const task = (page: import('@playwright/test').Page, id: string) => page.locator(`[data-task="${id}"]`);

test('lesson 14 completes by its reference solution; the Health tab and the timeline show the alerts', async ({
  page
}) => {
  test.setTimeout(300_000);
  await page.goto('/lessons/14-watch-control-plane');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Watch the control plane');
  await expect(page.getByRole('heading', { name: 'Tasks' })).toContainText('0 of 8 done');

  // The learner's own door: the Control plane tab's join (the solution below starts afresh).
  await page.getByRole('tab', { name: 'Control plane' }).click();
  const cp = page.getByRole('tabpanel', { name: 'Control plane' });
  await cp.getByRole('button', { name: 'Join control-plane node control-plane-2' }).click();
  await expect(cp).toContainText(/etcd-1 \(control-plane-2\): (stopped|running)/);

  await page.getByRole('tab', { name: 'Health' }).click();
  await expect(page.getByRole('heading', { name: 'API server SLO' })).toBeVisible();
  await expect(page.getByTestId('health-p99')).toBeVisible();

  await page.getByRole('button', { name: 'Show solution' }).click();
  await page.getByLabel('Speed').selectOption('max');
  await expect(task(page, 'load')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(task(page, 'burn')).toHaveAttribute('data-done', 'true', { timeout: 120_000 });
  await expect(
    page.locator('[data-alert="KubeAPIErrorBudgetBurn"][data-state="firing"]').first()
  ).toBeVisible();
  await expect(task(page, 'fsync')).toHaveAttribute('data-done', 'true', { timeout: 180_000 });
  await expect(task(page, 'quorum')).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  // Two kubeadm joins: three voting members, the fast burn resolves, the slow disk still alarms.
  await expect(task(page, 'grow')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(task(page, 'difference')).toHaveAttribute('data-done', 'true', { timeout: 120_000 });
  await expect(page.getByRole('heading', { name: 'Tasks' })).toContainText('8 of 8 done');
  await expect(
    page.locator('[data-alert="etcdHighFsyncDurations"][data-state="firing"]').first()
  ).toBeVisible();

  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(
    page.locator('g[data-alert="KubeAPIErrorBudgetBurn"][data-state="firing"]').first()
  ).toBeAttached();
  // After the joins the fast burn resolved: the timeline marks that moment too.
  await expect(
    page.locator('g[data-alert="KubeAPIErrorBudgetBurn"][data-state="resolved"]').first()
  ).toBeAttached();
});
