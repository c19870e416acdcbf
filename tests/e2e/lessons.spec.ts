import { expect, test, type Page } from '@playwright/test';
import { clockText, pauseLab } from './clock';

const LESSON = '/lessons/06-heartbeats';

/** Open lesson 6; its lab opens on a running cluster and plays on its own: pause it, return the time. */
async function openLesson(page: Page, pause = true): Promise<number> {
  await page.goto(LESSON);
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  return pause ? pauseLab(page) : 0;
}

const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);
const next = (page: Page) => page.getByRole('button', { name: 'Next step' });

async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('lesson 6 done by following its reference solution through the UI; progress survives an offline reload', async ({
  page,
  context
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await waitForServiceWorker(page);
  await expect(page.locator('[data-lesson="06-heartbeats"]')).toHaveAttribute('data-status', 'new');

  const opened = await openLesson(page);
  // The lab opened on a cluster that is already up: worker-2 exists and is Ready.
  expect(opened).toBeGreaterThan(0);
  await expect(page.locator('[data-node="worker-2"]')).toHaveAttribute('data-ready', 'True');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('When heartbeats stop');
  await expect(page.getByRole('heading', { name: 'Tasks' })).toContainText('0 of 5 done');
  // The first step's text is Markdown rendered in the page, its command a button.
  await expect(page.getByRole('heading', { name: "A node's heartbeat" })).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Run in the console: kubectl get lease -n kube-node-lease' })
  ).toBeVisible();

  // 0s: answer evict-time (350).
  await next(page).click();
  await expect(page.getByText('Step 2 of 5')).toBeVisible();
  const answer = page.getByLabel('Your answer, in s');
  await answer.fill('200');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.locator('[data-question="evict-time"] [role="status"]')).toContainText('Not quite.');
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'false');
  await answer.fill('350');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.locator('[data-question="evict-time"] [role="status"]')).toContainText('✓ Right.');
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('task-announcer')).toHaveText(
    'Task done: Predict when the pods on worker-2 will be deleted'
  );

  // 2s: kubectl apply -f checkout-fast-failover.yaml, from the step's command button.
  await next(page).click();
  await page
    .getByRole('button', { name: 'Run in the console: kubectl apply -f checkout-fast-failover.yaml' })
    .click();
  await expect(page.getByRole('log', { name: 'Console output' })).toContainText('deployment.apps/checkout');
  // A command the lesson disables is refused with the lesson's reason.
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('kubectl delete pod x');
  await input.press('Enter');
  await expect(page.getByRole('log', { name: 'Console output' })).toContainText(
    'Deleting pods or nodes by hand would skip exactly what this lesson shows'
  );

  // 40s (here 1m, after the rollout): stop the kubelet on worker-2 from the node's shell.
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.getByTestId('clock')).toHaveText(clockText(opened + 60));
  await page.getByRole('button', { name: 'Run in the console: ssh worker-2' }).click();
  await page.getByRole('button', { name: 'Run in the console: systemctl stop kubelet' }).click();
  // As the text says, `exit` leaves the node's shell.
  await input.fill('exit');
  await input.press('Enter');
  await expect(page.getByText('Waiting for the cluster: Stop the kubelet on worker-2')).toBeVisible();

  // Two minutes on, the node is Unknown and tainted (50s grace, then the NoExecute taint); the
  // narration goes on.
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(task(page, 'silence')).toHaveAttribute('data-done', 'true');
  await expect(page.locator('.waitfor[data-done="true"]')).toContainText(
    'Done: Stop the kubelet on worker-2 and watch the node go Unknown'
  );

  await next(page).click();
  await expect(page.locator('[data-watch="NodeNotReady,TaintManagerEviction"]')).toContainText(
    /NodeNotReady ×[1-9]/
  );
  // checkout tolerates the taint for 30s; web for the default 300s.
  await page.getByRole('button', { name: 'Jump forward 5 minutes' }).click();
  await expect(task(page, 'fast-failover')).toHaveAttribute('data-done', 'true');
  await page.getByRole('button', { name: 'Jump forward 5 minutes' }).click();
  await expect(task(page, 'failover')).toHaveAttribute('data-done', 'true');

  // 7m: why-terminating.
  await next(page).click();
  await page.getByRole('button', { name: 'Run in the console: kubectl get pods -o wide' }).click();
  await expect(page.getByRole('log', { name: 'Console output' })).toContainText('Terminating');
  await page.getByLabel(/Only the kubelet on worker-2 can confirm/).check();
  await page.getByRole('button', { name: 'Check', exact: true }).click();

  const summary = page.getByTestId('lesson-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('heading', { level: 2 })).toHaveText('Lesson complete');
  await expect(summary.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(page.getByTestId('summary-hints')).toHaveText('0');
  await expect(page.getByTestId('summary-solution')).toHaveText('No');
  await expect(summary).toContainText('--node-monitor-grace-period is 50s since v1.32');

  // Saved: the roadmap shows it completed, also after an offline reload.
  await page.getByRole('link', { name: 'Back to the roadmap' }).click();
  const card = page.locator('[data-lesson="06-heartbeats"]');
  await expect(card).toHaveAttribute('data-status', 'completed');
  await expect(card).toContainText('5 of 5 tasks done');

  await context.setOffline(true);
  const home = await page.reload();
  expect(home?.fromServiceWorker()).toBe(true);
  await expect(card).toHaveAttribute('data-status', 'completed');
  await openLesson(page);
  await expect(page.getByRole('heading', { name: 'Tasks' })).toContainText('5 of 5 done');
  await expect(page.getByTestId('lesson-summary')).toBeVisible();
  await context.setOffline(false);
});

test('hints on request and "show solution" are recorded; the solution plays on the cluster', async ({
  page
}) => {
  test.setTimeout(90_000);
  const opened = await openLesson(page);
  const hint = page.getByRole('button', {
    name: 'Show hint 1 of 3 for “Predict when the pods on worker-2 will be deleted”'
  });
  await hint.click();
  await expect(task(page, 'predict').getByRole('list', { name: /Hints for/ })).toContainText(
    'Two numbers add up here.'
  );
  await page
    .getByRole('button', { name: 'Show hint 2 of 3 for “Predict when the pods on worker-2 will be deleted”' })
    .click();

  await page.getByRole('button', { name: 'Show solution' }).click();
  await expect(page.getByTestId('solution-viewed')).toHaveText('Solution viewed');
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');
  await page.getByLabel('Speed').selectOption('max');
  await expect(page.getByRole('status').filter({ hasText: 'Playing the solution' })).toBeVisible();
  await expect(task(page, 'silence')).toHaveAttribute('data-done', 'true', { timeout: 45_000 });
  // The solution's 40s step stopped the kubelet through the lab, as the fault button would.
  await expect(
    page.locator('[data-node="worker-2"]').getByRole('button', { name: 'Start kubelet on worker-2' })
  ).toBeVisible();
  await expect(page.getByRole('log', { name: 'Console output' })).toContainText('deployment.apps/checkout');

  // Reset keeps the ticks and opens the running cluster again, where the lesson opened.
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('button', { name: 'Reset…' }).click();
  await page.getByRole('dialog', { name: 'Reset the lab?' }).getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByTestId('clock')).toHaveText(clockText(opened));
  await expect(task(page, 'silence')).toHaveAttribute('data-done', 'true');
});

test('the roadmap and the player render in Russian', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Дорожная карта');
  await expect(page.locator('[data-lesson="06-heartbeats"]')).toContainText('Когда пропадает heartbeat');
  await expect(page.getByRole('button', { name: 'Экспортировать прогресс' })).toBeVisible();

  await openLesson(page, false);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Когда пропадает heartbeat');
  await expect(page.getByRole('heading', { name: /Задания/ })).toContainText('Выполнено 0 из 5');
  await expect(task(page, 'predict')).toContainText("Предскажите, когда Pod'ы с worker-2 будут удалены");
  await expect(page.getByText('Шаг 1 из 5')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Следующий шаг' })).toBeVisible();
});

test('progress exports to a file and imports back on the roadmap', async ({ page }) => {
  await openLesson(page);
  await page.getByRole('button', { name: 'Next step' }).click();
  await page.getByLabel('Your answer, in s').fill('350');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');

  await page.getByRole('link', { name: 'Back to the roadmap' }).click();
  const card = page.locator('[data-lesson="06-heartbeats"]');
  await expect(card).toHaveAttribute('data-status', 'started');
  await expect(card).toContainText('1 of 5 tasks done');
  await expect(page.getByTestId('continue')).toContainText(
    'Continue where you left off: When heartbeats stop'
  );

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export progress' }).click()
  ]);
  expect(download.suggestedFilename()).toMatch(/^nodeplane-progress-\d{4}-\d{2}-\d{2}\.json$/);
  const backup = JSON.parse(
    await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString())
  );
  expect(backup).toMatchObject({ format: 'nodeplane-backup', sandboxes: [], settings: [] });
  expect(backup.progress).toHaveLength(1);
  expect(backup.progress[0]).toMatchObject({
    slug: '06-heartbeats',
    status: 'started',
    completedSteps: ['predict']
  });

  // The same file with lesson 6 finished, imported back.
  backup.progress[0] = {
    ...backup.progress[0],
    status: 'completed',
    completedSteps: ['predict', 'silence', 'fast-failover', 'failover', 'terminating'],
    completedAt: backup.progress[0].updatedAt
  };
  await page.getByLabel('Choose a progress file to import').setInputFiles({
    name: 'progress.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(backup))
  });
  await expect(page.getByRole('status').filter({ hasText: 'Imported progress for 1 lesson.' })).toBeVisible();
  await expect(card).toHaveAttribute('data-status', 'completed');
  await expect(card).toContainText('5 of 5 tasks done');

  await page.getByLabel('Choose a progress file to import').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"something-else"}')
  });
  await expect(
    page.getByRole('status').filter({ hasText: 'Import failed: not a Nodeplane backup' })
  ).toBeVisible();
});
