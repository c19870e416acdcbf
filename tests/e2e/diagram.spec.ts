import { expect, test, type Page } from '@playwright/test';

async function openLoop(page: Page) {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('three-nodes.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('tab', { name: 'Control loop' }).click();
  return page.getByTestId('cluster-diagram');
}

test('the control loop draws real requests: Lease renewals from each kubelet, and they stop with the kubelet', async ({
  page
}) => {
  const diagram = await openLoop(page);
  await expect(diagram.getByRole('img', { name: /^etcd: 1 of 1 members up, quorum 1$/ })).toBeVisible();
  await expect(
    diagram.getByRole('button', {
      name: /^Node worker-1: kubelet running, containerd running, CNI installed$/
    })
  ).toBeVisible();

  await page.getByRole('button', { name: 'Play' }).click();
  const recent = diagram.getByTestId('recent-requests');
  // kubelet's node lease controller renews every 10 s (pkg/kubelet/nodelease: renewInterval 10s).
  await expect(
    recent.getByRole('row', {
      name: /kubelet on worker-1 kube-apiserver update leases kube-node-lease\/worker-1/
    })
  ).toBeVisible({ timeout: 30_000 });
  await expect(diagram.locator('circle.dot').first()).toBeAttached({ timeout: 15_000 });

  // Stop the kubelet on worker-2 from the console: its renewals stop; the others go on.
  const input = page.getByRole('textbox', { name: 'Console command' });
  await page.getByRole('button', { name: 'Pause' }).click();
  await input.fill('ssh worker-2');
  await input.press('Enter');
  await input.fill('systemctl stop kubelet');
  await input.press('Enter');
  await input.fill('exit');
  await input.press('Enter');
  await expect(diagram.getByRole('button', { name: /^Node worker-2: kubelet down/ })).toBeVisible();
  // A minute later: worker-2's kubelet sends nothing (0 requests/s over the last 10 s), the others
  // still renew their Lease and get their Node (0.2/s).
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(diagram.getByRole('button', { name: /^Node worker-2:/ })).toContainText('kubelet ↑0/s');
  await expect(diagram.getByRole('button', { name: /^Node worker-1:/ })).toContainText('kubelet ↑0.2/s');
  await expect(diagram.getByRole('button', { name: /^Node worker-3:/ })).toContainText('kubelet ↑0.2/s');
});

test('the control loop in Russian names kubectl as the learner and translates the legend', async ({
  page
}) => {
  await page.goto('/sandbox');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await page.getByRole('tab', { name: 'Цикл управления' }).click({ timeout: 20_000 });
  const diagram = page.getByTestId('cluster-diagram');
  await expect(diagram).toContainText('Цикл управления: каждый запрос к kube-apiserver');
  await expect(diagram).toContainText('kubectl (вы)');
  await expect(diagram).toContainText('событие watch');
});

test('follow this pod: its life from create to Started, each step a button that jumps the timeline', async ({
  page
}) => {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('three-nodes.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await page
    .getByRole('button', { name: /^Select pod web-/ })
    .first()
    .click();
  await page.getByRole('tab', { name: 'Details' }).click();
  const seq = page.getByTestId('pod-sequence');
  await expect(seq.getByRole('heading', { name: /^Follow this pod: default\/web-/ })).toBeVisible();
  const steps = seq.getByRole('listitem');
  await expect(
    steps.filter({ hasText: /kube-controller-manager → kube-apiserver: create pods\s*$/ })
  ).toHaveCount(1);
  await expect(
    steps.filter({ hasText: /kube-scheduler → kube-apiserver: create pods\/binding\s*$/ })
  ).toHaveCount(1);
  await expect(
    steps.filter({ hasText: /kube-scheduler Scheduled: Successfully assigned default\/web-/ })
  ).toHaveCount(1);
  await expect(
    steps.filter({ hasText: /kubelet \(worker-\d\) → container runtime: Started: Started container/ }).first()
  ).toBeVisible();
  await expect(seq).not.toContainText('The log starts after this pod was created');
  // The pod was created at the start: its first step takes the lab back there.
  await steps.first().getByRole('button').click();
  await expect(page.getByTestId('clock')).toHaveText('t = 0s');
});
