import { expect, test, type Page } from '@playwright/test';

// A learner with two tabs of the app open: both write lesson progress to the one IndexedDB
// database at the same moment. Neither write may undo the other (the store joins ticks inside one
// readwrite transaction), and each tab shows what the other did without a reload (BroadcastChannel).

const LESSON = '/lessons/01-cluster-anatomy';

async function openLesson(page: Page, path = LESSON) {
  await page.goto(path);
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
}

/** Next step until the step with this heading shows. */
async function goToStep(page: Page, heading: string) {
  for (let i = 0; i < 10; i++) {
    if (await page.getByRole('heading', { level: 2, name: heading }).isVisible()) return;
    await page.getByRole('button', { name: 'Next step' }).click();
  }
  await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
}

/** Pick a choice answer; the Check click is left to the caller, so two tabs can check at once. */
async function choose(page: Page, question: string, option: string) {
  await page.locator(`[data-question="${question}"] input[value="${option}"]`).check();
  return page.locator(`[data-question="${question}"]`).getByRole('button', { name: 'Check', exact: true });
}

const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);

interface Stored {
  slug: string;
  status: string;
  completedSteps: string[];
}

function stored(page: Page): Promise<Stored[]> {
  return page.evaluate(
    () =>
      new Promise<Stored[]>((resolve, reject) => {
        const open = indexedDB.open('nodeplane');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('progress').objectStore('progress').getAll();
          req.onsuccess = () => {
            open.result.close();
            resolve(
              (req.result as Stored[]).map((r) => ({
                slug: r.slug,
                status: r.status,
                completedSteps: r.completedSteps
              }))
            );
          };
          req.onerror = () => reject(req.error);
        };
      })
  );
}

test('two tabs on one lesson tick different tasks at once: both ticks are saved and each tab shows the other’s', async ({
  context
}) => {
  test.setTimeout(120_000);
  const a = await context.newPage();
  const b = await context.newPage();
  await Promise.all([openLesson(a), openLesson(b)]);
  await goToStep(a, 'An experiment');
  await goToStep(b, 'Who wrote what');
  const [checkA, checkB] = await Promise.all([
    choose(a, 'no-scheduler', 'pending'),
    choose(b, 'node-name', 'scheduler')
  ]);
  await Promise.all([checkA.click(), checkB.click()]);

  await expect(task(a, 'predict')).toHaveAttribute('data-done', 'true');
  await expect(task(b, 'who-node')).toHaveAttribute('data-done', 'true');
  // Live: each tab shows the tick the other made, without a reload.
  await expect(task(a, 'who-node')).toHaveAttribute('data-done', 'true');
  await expect(task(b, 'predict')).toHaveAttribute('data-done', 'true');

  // Both stay saved through the tabs' later saves (leaving the page saves once more).
  await a.goto('/');
  await expect
    .poll(async () => (await stored(a)).find((r) => r.slug === '01-cluster-anatomy')?.completedSteps.sort())
    .toEqual(['predict', 'who-node']);
  await b.reload();
  await expect(b.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(task(b, 'predict')).toHaveAttribute('data-done', 'true');
  await expect(task(b, 'who-node')).toHaveAttribute('data-done', 'true');
  await expect(a.locator('[data-lesson="01-cluster-anatomy"]')).toContainText('2 of 5 tasks done');
});

test('two tabs on two lessons save at once; a third tab’s roadmap shows both without a reload', async ({
  context
}) => {
  test.setTimeout(120_000);
  const roadmap = await context.newPage();
  await roadmap.goto('/');
  await expect(roadmap.locator('[data-lesson="06-heartbeats"]')).toHaveAttribute('data-status', 'new');
  await expect(roadmap.locator('[data-lesson="01-cluster-anatomy"]')).toHaveAttribute('data-status', 'new');

  const a = await context.newPage();
  const b = await context.newPage();
  await Promise.all([openLesson(a), openLesson(b, '/lessons/06-heartbeats')]);
  await goToStep(a, 'An experiment');
  await b.getByRole('button', { name: 'Next step' }).click();
  const checkA = await choose(a, 'no-scheduler', 'pending');
  await b.getByLabel('Your answer, in s').fill('350');
  const checkB = b.getByRole('button', { name: 'Check', exact: true });
  await Promise.all([checkA.click(), checkB.click()]);
  await expect(task(a, 'predict')).toHaveAttribute('data-done', 'true');
  await expect(task(b, 'predict')).toHaveAttribute('data-done', 'true');

  await expect(roadmap.locator('[data-lesson="01-cluster-anatomy"]')).toContainText('1 of 5 tasks done');
  await expect(roadmap.locator('[data-lesson="06-heartbeats"]')).toContainText('1 of 5 tasks done');
  const records = await stored(roadmap);
  expect(records.find((r) => r.slug === '01-cluster-anatomy')?.completedSteps).toEqual(['predict']);
  expect(records.find((r) => r.slug === '06-heartbeats')?.completedSteps).toEqual(['predict']);
});
