/**
 * Lessons 15–18 and 20 completed in the browser by their reference solutions ("Show solution",
 * played at 60×): every task ticks. Lesson 19 has its own walk-through
 * (lesson-19.spec.ts). Lesson 20 also checks what its Network view shows at 5,000 Services.
 */
import { expect, test, type Page } from '@playwright/test';

const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);

const BY_SOLUTION = ['15-drain-pdb', '16-priority-preemption', '17-gpu-pools', '18-shutdown-upgrades'];

async function open(page: Page, slug: string) {
  await page.goto(`/lessons/${slug}`);
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
}

/**
 * Play the reference solution at 60× until every task is done; the number of tasks. (At "max" a
 * frame can span more virtual time than a transient state lasts, such as lesson 15's drained node
 * before its uncordon.)
 */
async function playSolution(page: Page): Promise<number> {
  const total = await page.locator('[data-task]').count();
  expect(total).toBeGreaterThan(1);
  await expect(page.getByRole('heading', { name: 'Tasks' })).toContainText(`0 of ${total} done`);
  await page.getByRole('button', { name: 'Show solution' }).click();
  await page.getByLabel('Speed').selectOption('60');
  await expect(page.getByRole('heading', { name: 'Tasks' })).toContainText(`${total} of ${total} done`, {
    timeout: 90_000
  });
  return total;
}

for (const slug of BY_SOLUTION) {
  test(`lesson ${slug} is done in the browser by its reference solution`, async ({ page }) => {
    test.setTimeout(120_000);
    await open(page, slug);
    await playSolution(page);
  });
}

test('lesson 20 is done by its reference solution; the Network view shows kube-proxy at 5,000 Services', async ({
  page
}) => {
  test.setTimeout(150_000);
  await open(page, '20-kube-proxy-at-scale');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('kube-proxy at scale');
  await page.getByRole('tab', { name: 'Network' }).click();
  const scale = page.getByTestId('proxy-scale');
  await expect(scale.getByTestId('scale-ports')).toContainText('Service ports programmed: 5 (17 endpoints)');
  await expect(scale.getByTestId('scale-lookup')).toContainText('walks about');

  expect(await playSolution(page)).toBe(5);
  for (const id of ['predict', 'grow', 'order', 'switch', 'first-packet'])
    await expect(task(page, id)).toHaveAttribute('data-done', 'true');

  await expect(scale.getByTestId('scale-ports')).toContainText('Service ports programmed: 5,005');
  await expect(scale.getByTestId('scale-rules')).toContainText('nftables rules: 110,0');
  await expect(scale.getByTestId('scale-rules')).toContainText('verdict-map elements: 5,005');
  await expect(scale.getByTestId('scale-lookup')).toContainText('4 hash or map lookups');
  await expect(page.getByTestId('mode-changes')).toContainText('iptables → nftables');
  await expect(page.getByTestId('dump-excerpt')).toContainText('first 20 of 5,005 service ports');
});

test('the roadmap lists lessons 15–20 under Operating nodes, lesson 20 last', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  const part = page.locator('[data-section="operating"]');
  await expect(part.getByRole('heading', { level: 2 })).toHaveText('Operating nodes');
  await expect(part.locator('[data-lesson]')).toHaveCount(6);
  await expect(part.locator('[data-lesson]').last()).toHaveAttribute('data-lesson', '20-kube-proxy-at-scale');
  await expect(part.locator('[data-lesson="20-kube-proxy-at-scale"]')).toContainText('kube-proxy at scale');
});
