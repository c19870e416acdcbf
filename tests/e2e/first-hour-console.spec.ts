// The learner's first hour in the console (issue "every command and control that the app shows
// must work"): one-shot ssh as OpenSSH runs it, kubectl's global flags before the verb, grep's
// flags in pipes, the node files its services name, and a prompt that says where the learner is.
// upstream: openssh ssh.c (the words after the host are the remote command),
// staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (persistent flags before the verb), GNU grep usage.
import { expect, test, type Page } from '@playwright/test';

async function openSandbox(page: Page) {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('three-nodes.yaml');
  await expect(page.locator('[data-node="worker-1"]')).toHaveAttribute('data-ready', 'True', {
    timeout: 30_000
  });
}

const out = (page: Page) => page.getByRole('log', { name: 'Console output' });
const input = (page: Page) => page.getByRole('textbox', { name: 'Console command' });

async function run(page: Page, line: string) {
  await input(page).fill(line);
  await input(page).press('Enter');
  await expect(out(page)).toContainText(line);
}

test('one-shot ssh runs the command on the node and returns, as OpenSSH does', async ({ page }) => {
  await openSandbox(page);
  await run(page, 'ssh worker-1 crictl ps');
  await expect(out(page)).toContainText(/CONTAINER\s+IMAGE\s+CREATED\s+STATE\s+NAME/);
  // Back on the workstation: the prompt and the placeholder did not change.
  await expect(page.locator('.prompt')).toHaveText('$');
  await run(page, 'ssh user@worker-1 -- journalctl -u kubelet -n 20');
  await expect(out(page)).toContainText('worker-1 kubelet[');
  await run(page, 'ssh worker-1 sudo systemctl stop kubelet');
  await expect(
    page.locator('[data-node="worker-1"]').getByRole('button', { name: 'Start kubelet on worker-1' })
  ).toBeVisible();
  await expect(out(page)).not.toContainText('Could not resolve hostname');
});

test('the prompt says where the learner is, and the placeholder follows it', async ({ page }) => {
  await openSandbox(page);
  await expect(page.locator('.prompt')).toHaveText('$');
  await expect(input(page)).toHaveAttribute('placeholder', /kubectl/);
  await run(page, 'ssh worker-2');
  await expect(page.locator('.prompt')).toHaveText('root@worker-2:~#');
  await expect(input(page)).toHaveAttribute('placeholder', /systemctl|crictl|exit/);
  await run(page, 'exit');
  await run(page, 'ssh alice@worker-2');
  await expect(page.locator('.prompt')).toHaveText('alice@worker-2:~$');
  await run(page, 'exit');
  await expect(page.locator('.prompt')).toHaveText('$');
});

test('kubectl global flags before the verb, and grep flags in pipes; an unknown grep flag fails as GNU grep does', async ({
  page
}) => {
  await openSandbox(page);
  // Three workers and control-plane-1: kube-proxy runs on all four.
  await run(page, 'kubectl -n kube-system get ds');
  await expect(out(page)).toContainText(/kube-proxy\s+4\s+4/);
  await run(page, 'kubectl --namespace=kube-system get pods | grep -c kube-proxy');
  await expect(out(page)).toContainText(/\n4\n/);
  await run(page, 'kubectl get pods -A | grep -i -v -E "calico|coredns" | grep -w -n web');
  await expect(out(page)).toContainText(/\n\d+:default\s+web-/);
  await run(page, 'kubectl get nodes | grep -A 1 worker-1');
  await expect(out(page)).toContainText(/worker-1\s+Ready[^\n]*\nworker-2\s+Ready/);
  await run(page, 'kubectl get nodes | grep -Q worker');
  await expect(out(page)).toContainText("grep: invalid option -- 'Q'");
  await expect(out(page)).toContainText('Usage: grep [OPTION]... PATTERNS [FILE]...');
});

test("the node's files its services name exist and are readable", async ({ page }) => {
  await openSandbox(page);
  await run(page, 'ssh worker-1');
  await run(page, 'head -n 3 /var/lib/kubelet/config.yaml');
  await expect(out(page)).toContainText('apiVersion: kubelet.config.k8s.io/v1beta1');
  await run(page, 'cat /var/lib/kubelet/config.yaml | grep -A 4 evictionHard');
  await expect(out(page)).toContainText('memory.available: 100Mi');
  await run(page, 'less /etc/kubernetes/kubelet.conf');
  await expect(out(page)).toContainText(
    'client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem'
  );
  await run(page, 'ls /etc/cni/net.d');
  await expect(out(page)).toContainText('10-calico.conflist');
  await run(page, 'tail -n 5 /etc/containerd/config.toml');
  await expect(out(page)).not.toContainText('No such file or directory');
});
