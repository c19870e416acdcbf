import { expect, test, type Page } from '@playwright/test';
import { clockText, pauseLab } from './clock';

const LESSON = '/lessons/12-troubleshooting';
// Seed 4 draws the variant kubelet-stopped: the kubelet on worker-2 stops 20s in.
const SEED = 4;

async function ready(page: Page) {
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
}

const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);

test('a pinned seed gives the same fault: worker-2 goes NotReady, the learner names the kubelet and fixes it', async ({
  page
}) => {
  test.setTimeout(120_000);
  await page.goto(`${LESSON}?seed=${SEED}`);
  await ready(page);
  await expect(page.getByTestId('challenge-seed')).toHaveText('Seed 4 · pinned by the link');
  await expect(page.getByRole('button', { name: 'New challenge' })).toBeVisible();

  // The lab plays on its own; pause it. Before the fault shows, the fix task waits for it.
  const opened = await pauseLab(page);
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.getByTestId('clock')).toHaveText(clockText(opened + 120));

  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('kubectl get nodes');
  await input.press('Enter');
  const log = page.getByRole('log', { name: 'Console output' });
  await expect(log).toContainText(/worker-2\s+NotReady/);
  // The task says "not yet" in the learner's words; what it checks is behind "What is checked?".
  await expect(task(page, 'fix')).toContainText('not yet');
  await expect(task(page, 'fix')).toContainText('Node worker-2: Ready condition is True');

  // The lesson text is in steps: the challenge's question is on step 2.
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByText('Step 2 of 3')).toBeVisible();
  await page.locator('[data-question="component"]').getByLabel('kubelet', { exact: true }).check();
  await page
    .locator('[data-question="component"]')
    .getByRole('button', { name: 'Check', exact: true })
    .click();
  await expect(task(page, 'name')).toHaveAttribute('data-done', 'true');

  for (const line of ['ssh worker-2', 'systemctl start kubelet', 'exit']) {
    await input.fill(line);
    await input.press('Enter');
  }
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(task(page, 'fix')).toHaveAttribute('data-done', 'true');

  // A reload keeps the attempt: the same seed, the ticks restored.
  await page.reload();
  await ready(page);
  await expect(page.getByTestId('challenge-seed')).toHaveText('Seed 4 · pinned by the link');
  await expect(task(page, 'fix')).toHaveAttribute('data-done', 'true');
});

test('without a seed, an attempt draws one and keeps it across a reload', async ({ page }) => {
  await page.goto(LESSON);
  await ready(page);
  const badge = page.getByTestId('challenge-seed');
  await expect(badge).toHaveText(/^Seed \d+$/);
  const first = await badge.textContent();
  await page.reload();
  await ready(page);
  await expect(badge).toHaveText(first!);
  // New challenge draws another seed (nothing is done yet, so no confirmation).
  page.on('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'New challenge' }).click();
  await ready(page);
  await expect(badge).not.toHaveText(first!);
});
