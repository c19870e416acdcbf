// The lifecycles drawn live in the details panel (sim/machines, sim/observe/machines.ts).
// upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (Ready → Unknown after the
// 50 s grace period, then node.kubernetes.io/unreachable:NoExecute)
// upstream: pkg/kubelet/images/image_manager.go (ErrImagePull, then ImagePullBackOff)
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page) {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('three-nodes.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
}

const node = (page: Page, name: string) => page.locator(`[data-node="${name}"]`);

test('a stopped kubelet: the node machine moves Ready → Unknown → unreachable:NoExecute', async ({
  page
}) => {
  await open(page);
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  const w1 = node(page, 'worker-1');
  await w1.getByRole('button', { name: /Select node worker-1/ }).click();
  await page.getByRole('tab', { name: 'Details' }).click();
  const machine = page.getByTestId('machine-nodeHealth');
  await expect(machine.getByRole('heading', { level: 4 })).toHaveText(
    'Node health as the node lifecycle controller sees it: Node/worker-1'
  );
  await expect(machine.getByTestId('machine-current')).toContainText('Now: Ready');
  await expect(machine.locator('[data-state="ready"][data-current="true"]')).toBeAttached();

  await w1.getByRole('button', { name: 'Stop kubelet on worker-1' }).click();
  await page.getByLabel('Speed').selectOption('60');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(machine.getByTestId('machine-current')).toContainText('Now: unreachable:NoExecute', {
    timeout: 30_000
  });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(machine.getByTestId('machine-current')).toContainText(/moved by TAINTED at \d/);
  const path = machine.getByTestId('machine-path').getByRole('listitem');
  await expect(path.nth(-3)).toContainText('Ready ← OBSERVED');
  await expect(path.nth(-2)).toContainText('Unknown ← GRACE_EXPIRED');
  await expect(path.nth(-1)).toContainText('unreachable:NoExecute ← TAINTED');
  // The drawing: the current state is highlighted and every state is reachable by keyboard.
  const current = machine.getByRole('img', { name: /^unreachable:NoExecute, current state: / });
  await expect(current).toBeVisible();
  await current.focus();
  await expect(current).toBeFocused();
});

test('a pod with a bad image tag: its container machine shows ErrImagePull → ImagePullBackOff', async ({
  page
}) => {
  await open(page);
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(
    'apiVersion: v1\nkind: Pod\nmetadata: {name: typo, namespace: default}\nspec: {containers: [{name: web, image: nginx:1.72}]}\n'
  );
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Applied.' })).toBeVisible();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await page
    .getByRole('button', { name: /^Select pod typo/ })
    .first()
    .click();
  await page.getByRole('tab', { name: 'Details' }).click();
  const machine = page.getByTestId('machine-container');
  await expect(machine.getByRole('heading', { level: 4 })).toHaveText('Lifecycle of the container web');
  const path = machine.getByTestId('machine-path').getByRole('listitem');
  await expect(path.nth(0)).toContainText('ContainerCreating (start)');
  await expect(path.nth(1)).toContainText('ErrImagePull ← PULL_FAILED');
  await expect(path.nth(2)).toContainText('ImagePullBackOff ← PULL_BACK_OFF');
  await expect(machine.locator('[data-current="true"]')).toHaveAttribute(
    'data-state',
    /^waiting\.(ErrImagePull|ImagePullBackOff)$/
  );
});
