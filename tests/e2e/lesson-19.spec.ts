/**
 * Lesson 19, "Managed or self-managed?", completed in the browser along its reference solution:
 * the EKS cluster's missing control-plane hosts, the two predictions, the stopped kubelet fixed
 * on the node, the Deployment moved onto its node group (with kubectl edit, as the text says) and
 * the decision graded on its reasons.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { pauseLab } from './clock';

const LESSON = '/lessons/19-managed-or-self-managed';
const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);
const consoleLog = (page: Page) => page.getByRole('log', { name: 'Console output' });
const next = (page: Page) => page.getByRole('button', { name: 'Next step' });

/** WCAG A/AA violations inside one part of the page. */
async function violations(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

async function run(page: Page, line: string) {
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill(line);
  await input.press('Enter');
}

test('the roadmap shows lesson 19 in the Operating nodes section', async ({ page }) => {
  await page.goto('/');
  const part = page.locator('[data-section="operating"]');
  await expect(part.getByRole('heading', { level: 2 })).toHaveText('Operating nodes');
  await expect(part.locator('[data-lesson="19-managed-or-self-managed"]')).toContainText(
    'Managed or self-managed?'
  );
  await expect(part.locator('[data-lesson="15-drain-pdb"]')).toBeVisible();
  expect(await violations(page, '.lessons')).toEqual([]);
  await expect(
    page.locator('[data-section="foundations"] [data-lesson="13-etcd-backup-restore"]')
  ).toBeVisible();
});

test('lesson 19 done in the browser along its reference solution', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(LESSON);
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
  await pauseLab(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Managed or self-managed?');

  // Whose control plane: the EKS builds, no static pods, no host to log in to.
  await page.getByRole('button', { name: 'Run in the console: kubectl version' }).click();
  await expect(consoleLog(page)).toContainText(/Server Version: v1\.35\.0-eks-[0-9a-f]{7}/);
  await page.getByRole('button', { name: 'Run in the console: ssh control-plane-1' }).click();
  await expect(consoleLog(page)).toContainText(
    'ssh: Could not resolve hostname control-plane-1: Name or service not known'
  );
  await expect(consoleLog(page)).toContainText("note: Amazon EKS runs this cluster's control plane");

  // The control-plane view: who owns what, and no control-plane fault on the map.
  await page.getByRole('tab', { name: 'Control plane' }).click();
  const panel = page.getByTestId('managed-panel');
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText('Managed by Amazon EKS');
  const table = panel.getByRole('table', { name: 'Who owns what in this cluster' });
  await expect(table.getByRole('row', { name: /etcd backups and restores/ })).toContainText('Amazon EKS');
  await expect(table.getByRole('row', { name: /Worker nodes/ })).toContainText('You');
  // The provider's add-ons in kube-system, and who keeps them updated.
  const addons = panel.getByTestId('managed-addons');
  await expect(addons.getByRole('heading')).toHaveText('Add-ons Amazon EKS installs in kube-system');
  await expect(addons.getByRole('listitem')).toHaveText([
    'aws-node DaemonSet',
    'kube-proxy DaemonSet',
    'coredns Deployment'
  ]);
  await expect(page.getByTestId('cp-managed')).toContainText('Managed by Amazon EKS');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await violations(page, '[data-testid="managed-panel"]')).toEqual([]);
    expect(await violations(page, '[data-testid="cp-managed"]')).toEqual([]);
  }
  await expect(page.getByRole('button', { name: /Stop etcd member/ })).toHaveCount(0);

  await page.getByLabel(/Nothing — Amazon EKS replaces the member/).check();
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(task(page, 'predict-etcd')).toHaveAttribute('data-done', 'true');

  // A node stops at 3:00: predict, then fix it on the node.
  await next(page).click();
  await page.getByLabel('Your answer, in s').fill('50');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(task(page, 'predict-notready')).toHaveAttribute('data-done', 'true');
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await run(page, 'kubectl get nodes');
  await expect(consoleLog(page)).toContainText(/ip-10-0-0-12\.ec2\.internal\s+NotReady/);
  await page.getByRole('button', { name: 'Run in the console: ssh ip-10-0-0-12.ec2.internal' }).click();
  await page.getByRole('button', { name: 'Run in the console: systemctl start kubelet' }).click();
  await page.getByRole('button', { name: 'Run in the console: exit' }).click();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(task(page, 'fix-node')).toHaveAttribute('data-done', 'true');

  // The batch Deployment onto its node group, by the EKS label.
  await next(page).click();
  await run(page, 'kubectl edit deployment batch');
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toContainText('Please edit the object below', { timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+H');
  await page.keyboard.insertText('key: nodegroup');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('key: eks.amazonaws.com/nodegroup');
  await page.keyboard.press('Control+Alt+Enter');
  await page.getByRole('button', { name: 'Save the edited object to the cluster' }).click();
  await expect(consoleLog(page)).toContainText('deployment.apps/batch edited');
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(task(page, 'node-group')).toHaveAttribute('data-done', 'true');

  // The decision: a false belief is named as such; sound reasons pass.
  await next(page).click();
  const q = page.locator('[data-question="decide"]');
  await q.getByLabel('A managed cluster (EKS, GKE or AKS)').check();
  await q.getByLabel('Nobody has to run etcd, its backups, its quorum or a restore drill').check();
  await q.getByLabel('With a managed cluster there is no node work left').check();
  await q.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(q.getByRole('status')).toContainText('Not yet.');
  await expect(q.getByRole('list', { name: 'How your reasons weigh' })).toContainText(
    'With a managed cluster there is no node work left (not true)'
  );
  expect(await violations(page, '[data-question="decide"]')).toEqual([]);
  await q.getByLabel('With a managed cluster there is no node work left').uncheck();
  await q.getByLabel('A small team without anyone on call for the control plane').check();
  await q
    .getByLabel('Control-plane upgrades are one request to the provider, one minor version at a time')
    .check();
  await q.getByRole('button', { name: 'Check', exact: true }).click();

  const summary = page.getByTestId('lesson-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('heading', { level: 2 })).toHaveText('Lesson complete');
  await expect(page.getByTestId('summary-solution')).toHaveText('No');
});
