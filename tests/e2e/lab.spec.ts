import { expect, test, type Page } from '@playwright/test';
import { clockSeconds, clockText } from './clock';

async function open(page: Page, scenario?: string) {
  await page.goto('/sandbox');
  if (scenario) await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption(scenario);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
}

const node = (page: Page, name: string) => page.locator(`[data-node="${name}"]`);

async function jumpOnTimeline(page: Page, ms: number) {
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const slider = page.getByRole('slider', { name: 'Jump to time' });
  const end = Number(await slider.getAttribute('aria-valuemax')) * 1000;
  const box = (await slider.boundingBox())!;
  // The time axis starts 90 px from the left and ends 10 px before the right edge.
  const x = 90 + (ms / end) * (box.width - 100);
  await slider.click({ position: { x, y: box.height / 2 } });
}

test('the sandbox opens on a running cluster: three Ready workers and `kubectl get nodes` in the console', async ({
  page
}) => {
  await open(page, 'three-nodes.yaml');
  // Already up before the learner does anything: the start was played quietly.
  const opened = await clockSeconds(page);
  expect(opened).toBeGreaterThan(0);
  expect(opened).toBeLessThan(60);
  for (const n of ['worker-1', 'worker-2', 'worker-3'])
    await expect(node(page, n)).toHaveAttribute('data-ready', 'True');
  await expect(page.getByText('The kubelet has not registered this Node yet')).toHaveCount(0);
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.getByTestId('clock')).toHaveText(clockText(opened + 60));

  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('kubectl get nodes');
  await input.press('Enter');
  const out = page.getByRole('log', { name: 'Console output' });
  await expect(out).toContainText(/NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/);
  await expect(out).toContainText(/worker-1\s+Ready\s+<none>\s+\d+s\s+v1\.35\.0/);
});

test('a stopped kubelet: NotReady, taints, eviction, replacements elsewhere; jump back undoes it', async ({
  page
}) => {
  await open(page, 'three-nodes.yaml');
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  const w1 = node(page, 'worker-1');
  await w1.getByRole('button', { name: 'Stop kubelet on worker-1' }).click();
  await expect(w1.getByRole('button', { name: 'Start kubelet on worker-1' })).toBeVisible();

  // 60×: the 40 s grace period passes in under a second and the 300 s until eviction take 5 s, time
  // enough to pause in between ('max' can cross both in a few frames).
  await page.getByLabel('Speed').selectOption('60');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(w1).toHaveAttribute('data-ready', 'Unknown', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(w1).toContainText('node.kubernetes.io/unreachable:NoExecute');
  await expect(w1).toContainText('node.kubernetes.io/unreachable:NoSchedule');
  await expect(w1.getByRole('timer').first()).toContainText(/evicted in \d/);

  await page.getByLabel('Speed').selectOption('max');
  await page.getByRole('button', { name: 'Play' }).click();
  // After tolerationSeconds (300 s) the taint manager evicts; the ReplicaSet's replacement runs elsewhere.
  const elsewhere = page.locator('[data-node="worker-2"], [data-node="worker-3"]').getByRole('button', {
    name: /Select pod web-.*\(Running\)/
  });
  await expect(elsewhere).toHaveCount(3, { timeout: 45_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('announcer')).not.toBeEmpty();

  await jumpOnTimeline(page, 30_000);
  await expect(page.getByTestId('clock')).toHaveText(/t = (2\d|3\d)s/);
  await expect(w1).toHaveAttribute('data-ready', 'True');
  await expect(w1.getByRole('button', { name: 'Stop kubelet on worker-1' })).toBeVisible();
  await expect(w1).not.toContainText('node.kubernetes.io/unreachable');
});

test('bad YAML shows an error marker at its line and changes nothing', async ({ page }) => {
  await open(page, 'three-nodes.yaml');
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  // Flow mappings keep every line flush left, so Monaco's auto-indent cannot change the text.
  await page.keyboard.insertText(
    'apiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec: {foo: 1, containers: [{name: c, image: nginx}]}\n'
  );
  await page.getByRole('button', { name: 'Apply' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Not applied' });
  await expect(status).toContainText('not simulated by Nodeplane');
  await expect(status).toContainText('line 4');
  await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeAttached();

  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('kubectl get pod bad');
  await input.press('Enter');
  await expect(page.getByRole('log', { name: 'Console output' })).toContainText(
    'Error from server (NotFound): pods "bad" not found'
  );
});

test('editing a Node capacity in the editor lets a Pending pod schedule', async ({ page }) => {
  await open(page, 'three-nodes.yaml');
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  // 6 CPUs: more than any 4-CPU worker has.
  await page.keyboard.insertText(
    'apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec: {containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: "6"}}}]}\n'
  );
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Applied.' })).toBeVisible();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.getByRole('group', { name: 'Pending pods' })).toContainText('big');

  await node(page, 'worker-1')
    .getByRole('button', { name: /Select node worker-1/ })
    .click();
  await page.getByRole('button', { name: 'Load selected object' }).click();
  await expect(editor).toContainText('capacity');
  await editor.click();
  // Monaco's replace widget: cpu 4 → 8 (capacity and allocatable).
  await page.keyboard.press('Control+H');
  await page.keyboard.insertText('cpu: "4"');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('cpu: "8"');
  await page.keyboard.press('Control+Alt+Enter');
  // The diff against the live object is shown before Apply.
  await expect(page.getByTestId('editor-diff')).toContainText('Changes against the live object');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Applied.' })).toBeVisible();
  // It says when the change takes effect.
  await expect(page.getByTestId('editor-result')).toContainText(
    'The kubelet reports the new capacity on its next status update, within 10 s of simulated time'
  );
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(node(page, 'worker-1').getByRole('button', { name: /Select pod big/ })).toBeVisible();
});

for (const [w, h] of [
  [1280, 800],
  [390, 844]
] as const) {
  test(`screenshot of the sandbox at ${w}×${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await open(page, 'three-nodes.yaml');
    await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
    await expect(node(page, 'worker-3')).toHaveAttribute('data-ready', 'True');
    const shot = await page.screenshot({ path: test.info().outputPath(`sandbox-${w}x${h}.png`) });
    expect(shot.byteLength).toBeGreaterThan(10_000);
    // Nothing wider than the viewport: the page never scrolls sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('in Russian the fault buttons name themselves in Russian and the console help is Russian', async ({
  page
}) => {
  await open(page, 'three-nodes.yaml');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  const w1 = node(page, 'worker-1');
  await expect(w1.getByRole('button', { name: 'Остановить kubelet: worker-1' })).toBeVisible();
  await expect(w1.getByRole('button', { name: 'Stop kubelet on worker-1' })).toHaveCount(0);
  // Kubernetes values stay as Kubernetes prints them, with a tooltip in the learner's language.
  await expect(w1.locator('.badge')).toHaveText('Ready');
  await expect(w1.locator('.badge')).toHaveAttribute('title', /^Условие Ready у Node равно True/);
  const input = page.getByRole('textbox', { name: 'Команда консоли' });
  await input.fill('help');
  await input.press('Enter');
  const out = page.getByRole('log', { name: 'Вывод консоли' });
  await expect(out).toContainText('Консоль Nodeplane. Команды:');
  await expect(out).toContainText('kubectl controls the simulated Kubernetes cluster.');
});

test("a timeline mark's title lists its column's events when the pointer is on it", async ({ page }) => {
  await open(page, 'three-nodes.yaml');
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const marks = page.locator('rect.ev');
  await expect(marks.first()).toBeVisible();
  // Titles are built for the hovered column only (a jump back moves every event to a new column).
  await expect(page.locator('rect.ev title')).toHaveCount(0);
  await marks.first().hover();
  await expect(page.locator('rect.ev title')).toHaveCount(1);
  // One event ("0s Starting …") or a count ("4 events at 0s", "12 events, 0s–1s").
  await expect(marks.first().locator('title')).toHaveText(/^(\d+ events?(, | at )\d|\d[\dhms]* \w)/);
  await page.mouse.move(0, 0);
  await expect(page.locator('rect.ev title')).toHaveCount(0);
});
