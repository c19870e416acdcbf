/**
 * kubectl edit in the lab's editor, the editor's keyboard way out, its YAML hints and diff, and
 * the kube-proxy mode control.
 * upstream: staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go (edit's messages)
 */
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page) {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('three-nodes.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
}

async function run(page: Page, line: string) {
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill(line);
  await input.press('Enter');
}

const consoleLog = (page: Page) => page.getByRole('log', { name: 'Console output' });

test('kubectl edit deploy/web opens the Deployment in the editor; Save patches it as kubectl does', async ({
  page
}) => {
  await open(page);
  await run(page, 'kubectl edit deploy/web');
  await expect(page.getByTestId('editing')).toHaveText('kubectl edit: Deployment default/web');
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toContainText('Please edit the object below', { timeout: 20_000 });
  await expect(page.getByTestId('editor-diff')).toContainText('No changes against the live object yet.');
  await editor.click();
  await page.keyboard.press('Control+H');
  // Match case (Alt+C): readyReplicas and availableReplicas stay as they are.
  await page.keyboard.press('Alt+C');
  await page.keyboard.insertText('replicas: 3');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('replicas: 5');
  await page.keyboard.press('Control+Alt+Enter');
  // The diff before Save: spec.replicas and status.replicas changed.
  const diff = page.getByTestId('editor-diff');
  await expect(diff).toContainText('Changes against the live object: +2 −2');
  await expect(diff).toContainText('+   replicas: 5');
  await page.getByRole('button', { name: 'Save the edited object to the cluster' }).click();
  await expect(consoleLog(page)).toContainText('deployment.apps/web edited');
  const result = page.getByTestId('editor-result');
  await expect(result).toContainText('deployment.apps/web edited');
  await expect(result).toContainText('The Deployment controller scales its ReplicaSet');
  await run(page, 'kubectl get deployment web -o yaml | grep "^  replicas:"');
  await expect(consoleLog(page)).toContainText('replicas: 5');

  // Saving unchanged: kubectl's own words, and the editor closes the edit.
  await run(page, 'kubectl edit deployment web');
  await expect(page.getByTestId('editing')).toBeVisible();
  await page.getByRole('button', { name: 'Close the edit without saving' }).click();
  await expect(consoleLog(page)).toContainText('Edit cancelled, no changes made.');
  await expect(page.getByTestId('editing')).toHaveCount(0);
});

test('an invalid edit is shown once, wrapped, with the field error', async ({ page }) => {
  await open(page);
  await run(page, 'kubectl edit deployment web');
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toContainText('Please edit the object below', { timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+H');
  // Match case (Alt+C): readyReplicas and availableReplicas stay as they are.
  await page.keyboard.press('Alt+C');
  await page.keyboard.insertText('replicas: 3');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('replicas: -1');
  await page.keyboard.press('Control+Alt+Enter');
  await page.getByRole('button', { name: 'Save the edited object to the cluster' }).click();
  const result = page.getByTestId('editor-result');
  await expect(result).toContainText('error: deployments.apps "web" is invalid');
  await expect(result).toContainText('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  await expect(result.getByText('is invalid')).toHaveCount(1);
  const box = (await result.boundingBox())!;
  const panel = (await page.locator('#panel-side').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
  await expect(consoleLog(page)).toContainText('error: deployments.apps "web" is invalid');
  // The edit stays open, as kubectl reopens the file.
  await expect(page.getByTestId('editing')).toBeVisible();
});

test('keyboard only: into the editor, type, Escape leaves it; the hint names Ctrl+M and Escape', async ({
  page
}) => {
  await open(page);
  await page.getByRole('tab', { name: 'YAML editor' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.monaco-editor').first()).toBeVisible({ timeout: 20_000 });
  await expect(
    page.getByText('Esc leaves the editor. Ctrl+M: Tab moves focus instead of indenting.')
  ).toBeVisible();
  // Tab from the tab strip reaches the editor's text area.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))) break;
  }
  expect(await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))).toBe(true);
  await page.keyboard.type('kind: Pod');
  // The first Escape may close the completion list that typing opened (Monaco's own use of it);
  // the next one leaves the editor.
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('Escape');
    if (await page.evaluate(() => !document.activeElement?.closest('.monaco-editor'))) break;
  }
  // Escape left the editor for the next control: the Apply button.
  const focused = await page.evaluate(() => ({
    inEditor: !!document.activeElement?.closest('.monaco-editor'),
    label: document.activeElement?.getAttribute('aria-label')
  }));
  expect(focused).toEqual({ inEditor: false, label: 'Apply the YAML to the cluster' });
});

test('an empty editor shows no problems; a syntax error gets a plain hint with its line', async ({
  page
}) => {
  await open(page);
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('yaml-hint')).toHaveCount(0);
  await expect(page.getByText(/^Problems \(/)).toHaveCount(0);
  // Lines flush left, so Monaco's auto-indent cannot change the text.
  await page.keyboard.insertText('kind: Pod\nlabels: app: web\n');
  await expect(page.getByTestId('yaml-hint')).toContainText(
    'Check the indentation of line 2: a nested mapping cannot follow a value on the same line'
  );
  await expect(page.getByTestId('yaml-hint')).toContainText(
    'YAML parser: Nested mappings are not allowed in compact mappings'
  );
});

test('the fault menu switches every node’s kube-proxy to nftables and the network view shows it', async ({
  page
}) => {
  await open(page);
  const all = page.getByRole('group', { name: 'All nodes' });
  await expect(
    all.getByRole('button', { name: 'Restart kube-proxy in nftables mode on all nodes' })
  ).toBeVisible();
  await all.getByRole('button', { name: 'Restart kube-proxy in nftables mode on all nodes' }).click();
  await page.getByRole('tab', { name: 'Network' }).click();
  await expect(page.getByTestId('proxy-mode')).toHaveText('nftables');
  const modes = page.getByTestId('proxy-modes');
  for (const n of ['worker-1', 'worker-2', 'worker-3']) await expect(modes).toContainText(`${n}: nftables`);
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.getByTestId('mode-changes')).toContainText('worker-1: iptables → nftables');
  await expect(page.locator('[data-node="worker-2"] [data-agent="kube-proxy"]')).toContainText('nftables');
});

test('kubectl edit of the kube-proxy ConfigMap, then a new kube-proxy pod on a node, switches that node', async ({
  page
}) => {
  await open(page);
  await run(page, 'kubectl edit configmap kube-proxy -n kube-system');
  await expect(page.getByTestId('editing')).toHaveText('kubectl edit: ConfigMap kube-system/kube-proxy');
  const editor = page.locator('.monaco-editor').first();
  await expect(editor).toContainText('kubeproxy.config.k8s.io', { timeout: 20_000 });
  await editor.click();
  await page.keyboard.press('Control+H');
  await page.keyboard.press('Alt+C');
  await page.keyboard.insertText('mode: ""');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('mode: ipvs');
  await page.keyboard.press('Control+Alt+Enter');
  await page.getByRole('button', { name: 'Save the edited object to the cluster' }).click();
  await expect(consoleLog(page)).toContainText('configmap/kube-proxy edited');
  await expect(page.getByTestId('editor-result')).toContainText(
    'kube-proxy reads config.conf only when it starts'
  );
  // kube-proxy runs in its DaemonSet pod: worker-1's new pod reads the new mode.
  await run(
    page,
    'kubectl -n kube-system delete pod -l k8s-app=kube-proxy --field-selector spec.nodeName=worker-1'
  );
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.locator('[data-node="worker-1"] [data-agent="kube-proxy"]')).toContainText('ipvs');
  await expect(page.locator('[data-node="worker-2"] [data-agent="kube-proxy"]')).toContainText('iptables');
});
