// The learner's first minute in a lesson: the cluster is already up (unless the lesson is about
// the start, which says so and offers Play), and a reload returns to the same cluster state.
import { expect, test, type Page } from '@playwright/test';

async function openLesson(page: Page, slug: string) {
  await page.goto(`/lessons/${slug}`);
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
}

test('lesson 6 opens on a running cluster: worker-2 is Ready and no task says it does not exist', async ({
  page
}) => {
  await openLesson(page, '06-heartbeats');
  await expect(page.locator('[data-node="worker-2"]')).toHaveAttribute('data-ready', 'True', {
    timeout: 30_000
  });
  await expect(page.getByText('does not exist')).toHaveCount(0);
  await expect(page.getByText('The kubelet has not registered this Node yet')).toHaveCount(0);
  await expect(page.getByTestId('boot-prompt')).toHaveCount(0);
});

test('lesson 2 is about registration: it opens at t = 0 and says to press Play, which boots the cluster', async ({
  page
}) => {
  await openLesson(page, '02-kubelet-registration');
  const prompt = page.getByTestId('boot-prompt');
  await expect(prompt).toContainText('the cluster has not booted yet');
  await expect(page.getByTestId('clock')).toHaveText(/t\s*=\s*0s/);
  await prompt.getByRole('button', { name: 'Press Play to boot the cluster' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(page.locator('[data-node="worker-1"]')).toHaveAttribute('data-ready', 'True', {
    timeout: 30_000
  });
});

test('lesson 2 says the same in Russian', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await openLesson(page, '02-kubelet-registration');
  const prompt = page.getByTestId('boot-prompt');
  await expect(prompt).toContainText('кластер ещё не загружен');
  await expect(prompt.getByRole('button', { name: 'Нажмите «Пуск», чтобы загрузить кластер' })).toBeVisible();
});

test('a reload in the middle of a lesson returns to the same cluster state', async ({ page }) => {
  await openLesson(page, '06-heartbeats');
  const w2 = page.locator('[data-node="worker-2"]');
  await expect(w2).toHaveAttribute('data-ready', 'True', { timeout: 30_000 });
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('ssh worker-2 sudo systemctl stop kubelet');
  await input.press('Enter');
  await expect(w2.getByRole('button', { name: 'Start kubelet on worker-2' })).toBeVisible();
  await page.getByRole('button', { name: 'Pause' }).click();
  const before = await page.getByTestId('clock').textContent();
  // Leaving the page saves the lab where it is (the player saves on visibility change too).
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(w2.getByRole('button', { name: 'Start kubelet on worker-2' })).toBeVisible({
    timeout: 30_000
  });
  // The same virtual time, not t = 0 with a fresh cluster.
  await expect(page.getByTestId('clock')).not.toHaveText(/t\s*=\s*[0-5]s$/);
  const secs = (s: string | null) => Number(/(\d+)s/.exec(s ?? '')?.[1] ?? 0);
  expect(secs(await page.getByTestId('clock').textContent())).toBeGreaterThanOrEqual(secs(before));
});
