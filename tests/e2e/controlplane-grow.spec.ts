import { expect, test, type Page } from '@playwright/test';

// A single-master kubeadm cluster grown to three control-plane nodes the way kubeadm does it
// (kubeadm join --control-plane: the etcd member joins as a learner and is promoted).
// upstream: cmd/kubeadm/app/phases/etcd/local.go (CreateStackedEtcdStaticPodManifestFile)

const TLS =
  '--cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

async function run(page: Page, command: string) {
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill(command);
  await input.press('Enter');
}

test('grow a single master to three members: the panel, etcdctl member list and the Health view follow', async ({
  page
}) => {
  test.setTimeout(120_000);
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('three-nodes.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();

  const health = page.getByRole('tab', { name: 'Health' });
  await health.click();
  const healthPanel = page.getByRole('tabpanel', { name: 'Health' });
  await expect(healthPanel).toContainText('etcd: 1 of 1 up');

  const tab = page.getByRole('tab', { name: 'Control plane' });
  await tab.click();
  const panel = page.getByRole('tabpanel', { name: 'Control plane' });
  const quorum = panel.getByTestId('quorum-status');
  await expect(quorum).toHaveText(/^1 of 1 etcd members run; the quorum is 1/);
  await expect(panel.getByText(/^kubeadm join 10\.0\.0\.10:6443 --control-plane/)).toBeVisible();

  // Keyboard: the join is a button like the other sizing actions.
  const join2 = panel.getByRole('button', { name: 'Join control-plane node control-plane-2' });
  await join2.focus();
  await page.keyboard.press('Enter');
  // The learner is in the membership at once, counted only once kubeadm has promoted it.
  await expect(panel).toContainText(/etcd-1 \(control-plane-2\): (stopped|running), learner/);
  await expect(quorum).toHaveText(/^1 of 1 etcd members run; the quorum is 1/);
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(quorum).toHaveText(/^2 of 2 etcd members run; the quorum is 2/);

  await panel.getByRole('button', { name: 'Join control-plane node control-plane-3' }).click();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(quorum).toHaveText(
    '3 of 3 etcd members run; the quorum is 2, so writes work. 1 more member can fail.'
  );
  await expect(panel.getByRole('table', { name: 'etcd quorum by member count' })).toContainText(
    /3 \(this cluster\)\s*2\s*1/
  );
  await expect(panel).toContainText('kube-apiserver-control-plane-3: running');

  await run(page, 'ssh control-plane-1');
  await run(page, `etcdctl ${TLS} member list -w table`);
  const out = page.getByRole('log', { name: 'Console output' });
  await expect(out).toContainText(/\| started \| control-plane-2 \| https:\/\/10\.0\.0\.3:2380 +\|/);
  await expect(out).toContainText(/\| started \| control-plane-3 \| https:\/\/10\.0\.0\.4:2380 +\|/);

  // Prometheus scrapes the new members and API servers (one scrape later).
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await health.click();
  await expect(healthPanel).toContainText('etcd: 3 of 3 up');
  await expect(healthPanel).toContainText('apiserver: 3 of 3 up');

  // The map's control-plane card offers each member's disk, with its note.
  const disk = page.getByRole('button', { name: 'Slow down etcd disk etcd-0' });
  await disk.hover();
  await expect(
    page.locator('code', { hasText: '# no command does this: the disk under etcd-0 starts failing' })
  ).toBeVisible();
  await disk.click();
  await expect(page.getByRole('button', { name: 'Replace etcd disk etcd-0' })).toBeVisible();
  await expect(page.getByText('etcd-0 (leader) (disk failing)')).toBeVisible();
});
