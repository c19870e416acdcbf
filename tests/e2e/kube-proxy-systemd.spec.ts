// kube-proxy as a host service (scenarios/kube-proxy-systemd.yaml): the learner switches one
// node's mode on the node itself, with sed -i on /var/lib/kube-proxy/config.conf and systemctl
// restart kube-proxy, and the Network view shows the nodes' modes differ.
// upstream: cmd/kube-proxy/app/server_linux.go ("Using ipvs Proxier")
import { expect, test, type Page } from '@playwright/test';

async function run(page: Page, line: string) {
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill(line);
  await input.press('Enter');
}

test('ssh to a node, edit config.conf, systemctl restart kube-proxy: that node switches to IPVS', async ({
  page
}) => {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('kube-proxy-systemd.yaml');
  await expect(page.locator('[data-node="worker-1"]')).toHaveAttribute('data-ready', 'True', {
    timeout: 30_000
  });
  const out = page.getByRole('log', { name: 'Console output' });

  await run(page, 'kubectl -n kube-system get ds');
  // Two workers and control-plane-1.
  await expect(out).toContainText(/calico-node +3 +3 +3/);
  await expect(out).not.toContainText('kube-proxy');

  await run(page, 'ssh worker-1');
  await expect(page.locator('.prompt')).toHaveText('root@worker-1:~#');
  await run(page, `sudo sed -i 's/mode: .*/mode: "ipvs"/' /var/lib/kube-proxy/config.conf`);
  await run(page, 'sudo systemctl restart kube-proxy');
  await run(page, 'systemctl status kube-proxy');
  await expect(out).toContainText('● kube-proxy.service - Kubernetes Kube Proxy');
  await expect(out).toContainText('Active: active (running)');
  await expect(out).toContainText('"Using ipvs Proxier"');

  await page.getByRole('tab', { name: 'Network' }).click();
  await expect(page.getByTestId('mode-changes')).toContainText(
    "or on a node: sudo sed -i 's/mode: .*/mode: ipvs/' /var/lib/kube-proxy/config.conf"
  );
  // The restarted kube-proxy cleans up the old mode's rules at its first sync.
  await page.getByRole('button', { name: 'Play' }).click();
  const modes = page.getByTestId('proxy-modes');
  await expect(modes).toContainText('worker-1: IPVS');
  await expect(modes).toContainText('worker-2: iptables');
  await expect(modes).toContainText('control-plane-1: iptables');
  await expect(page.getByTestId('proxy-unit')).toContainText('systemd unit kube-proxy.service');
  await expect(page.getByTestId('mode-changes')).toContainText('iptables → IPVS');
});
