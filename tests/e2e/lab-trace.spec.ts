import { expect, test } from '@playwright/test';
import { deflateSync, strToU8 } from 'fflate';

/** A client on worker-1 and two web pods on worker-3 behind a Service, flannel VXLAN between nodes. */
const scenario = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: trace-demo
spec:
  seed: 3
  nodePools:
    - name: worker
      count: 3
      images: [nginx:1.27, busybox:1.36]
  network:
    proxyMode: iptables
    cni: flannel
---
apiVersion: v1
kind: Pod
metadata:
  name: client
spec:
  nodeSelector: { kubernetes.io/hostname: worker-1 }
  containers:
    - name: sh
      image: busybox:1.36
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      nodeSelector: { kubernetes.io/hostname: worker-3 }
      containers:
        - name: nginx
          image: nginx:1.27
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: { app: web }
  ports:
    - name: http
      port: 80
      targetPort: 80
`;

function fragment(): string {
  const json = JSON.stringify({
    format: 'nodeplane.dev/lab/v1',
    scenario,
    fileName: 'trace-demo.yaml',
    t: 120_000,
    actions: []
  });
  return 'lab=' + Buffer.from(deflateSync(strToU8(json))).toString('base64url');
}

test('a console trace is drawn on the map with its hops as a list, and hides on request', async ({
  page
}) => {
  await page.goto(`/sandbox#${fragment()}`);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 60_000 });
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill('nodeplane trace default/client web:80');
  await input.press('Enter');

  const panel = page.getByTestId('trace-panel');
  await expect(panel.getByRole('heading')).toContainText('Packet trace: default/client (10.244.');
  await expect(panel).toContainText(/Delivered to default\/web-\S+ 10\.244\.\d+\.\d+:80 on worker-3/);
  await panel.getByText(/Hops, in order \(\d+ hops\)/).click();
  const hops = panel.getByRole('listitem');
  await expect(hops.first()).toContainText('worker-1');
  await expect(panel).toContainText('DNAT 10.');
  await expect(panel).toContainText('via flannel.1: VXLAN');
  await expect(panel.locator('li.reply')).toHaveCount(3);

  const overlay = page.getByTestId('trace-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toContainText('flannel.1 · VXLAN VNI 1 over UDP 8472');
  await expect(overlay).toContainText(/nat\/KUBE-SEP-\w+ · DNAT → 10\.244/);
  await expect(overlay.locator('.stop')).toHaveCount(5);

  await panel.getByRole('button', { name: 'Hide the trace' }).click();
  await expect(overlay).toHaveCount(0);
  await expect(panel).toHaveCount(0);
});
