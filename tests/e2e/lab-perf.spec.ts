import { expect, test } from '@playwright/test';
import { deflateSync, strToU8 } from 'fflate';

/** 20 workers and a 600-replica Deployment, opened through a share link (no scenario file needed). */
const scenario = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: twenty-nodes
spec:
  seed: 7
  nodePools:
    - name: worker
      count: 20
      capacity: { cpu: "32", memory: 64Gi, pods: "110" }
      images: [registry.k8s.io/pause:3.10, nginx:1.27]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 600
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          resources:
            requests: { cpu: 100m, memory: 64Mi }
`;

function fragment(): string {
  const json = JSON.stringify({
    format: 'nodeplane.dev/lab/v1',
    scenario,
    fileName: 'twenty-nodes.yaml',
    t: 120_000,
    actions: []
  });
  return 'lab=' + Buffer.from(deflateSync(strToU8(json))).toString('base64url');
}

// Measured 2026-12-02: long tasks of 104-396 ms and one of 2.9 s per 5 s of play. The cluster
// snapshot kept for time travel is 18 MB at this size (kube-scheduler's attempt history is 10 MB of
// it) and takes about 3 s; see docs/lab.md. Enable once snapshots are small.
test.fixme('20 nodes and 600 pods at 60×: no frame longer than 50 ms', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`/sandbox#${fragment()}`);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('clock')).toHaveText('t = 2m0s');
  await expect(page.locator('[data-node]')).toHaveCount(20);

  await page.getByLabel('Speed').selectOption('60');
  const frames = await page.evaluate(async () => {
    const long: number[] = [];
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) long.push(Math.round(e.duration));
    });
    obs.observe({ type: 'longtask', buffered: false });
    (document.querySelector('button.play') as HTMLButtonElement).click();
    const gaps: number[] = [];
    let last = performance.now();
    await new Promise<void>((done) => {
      const start = last;
      const tick = (now: number) => {
        gaps.push(now - last);
        last = now;
        if (now - start < 5000) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    obs.disconnect();
    gaps.sort((a, b) => a - b);
    return {
      long,
      frames: gaps.length,
      p95: Math.round(gaps[Math.floor(gaps.length * 0.95)]),
      max: Math.round(gaps[gaps.length - 1])
    };
  });
  console.log(
    `frames=${frames.frames} p95=${frames.p95}ms max=${frames.max}ms longtasks=${JSON.stringify(frames.long)}`
  );
  await expect(page.getByTestId('clock')).not.toHaveText('t = 2m0s');
  expect(frames.long).toEqual([]);
});
