import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page, scenario: string) {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption(scenario);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 30_000 });
}

async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Jump the timeline with its keyboard slider (Home = 0 s, → = 10 s later) and wait for the clock. */
async function timeTo(page: Page, seconds: number) {
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const slider = page.getByRole('slider', { name: 'Jump to time' });
  await slider.focus();
  await slider.press('Home');
  await expect(slider).toHaveAttribute('aria-valuenow', '0');
  for (let s = 10; s <= seconds; s += 10) {
    await slider.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuenow', String(s));
  }
}

test('a pod that does not fit waits in unschedulable pods; the autoscaler’s new node moves it back and it schedules', async ({
  page
}) => {
  // One 2-CPU worker, three replicas asking 1.2 CPU: two wait until the pool grows (45 s boot).
  await open(page, 'autoscaler-scale-up.yaml');
  await page.getByRole('tab', { name: 'Scheduling' }).click();
  const queue = page.getByTestId('sched-queue');
  await expect(queue.getByRole('heading', { name: 'Scheduling queue' })).toBeVisible();
  // The lab opens once the cluster is up: the new nodes have joined and nothing waits.
  await expect(queue.getByTestId('queue-count-unschedulable')).toHaveText('0');

  await timeTo(page, 20);
  // A jump restores a snapshot and replays to 20 s in the worker: give a busy machine time.
  await expect(queue.getByTestId('queue-count-unschedulable')).toHaveText('2', { timeout: 20_000 });
  await expect(queue.getByTestId('queue-count-active')).toHaveText('0');
  const pod = queue
    .locator('[data-queue="unschedulable"]')
    .getByRole('button', { name: /^Show Pod\/default\/web-/ });
  await expect(pod).toHaveCount(2);
  await expect(queue.locator('[data-queue="unschedulable"]')).toContainText(
    '1 attempt · rejected by NodeResourcesFit, TaintToleration · flushed at 5m30s at the latest'
  );
  await pod.first().click();
  const waiting = page.getByTestId('sched-waiting');
  await expect(waiting.locator('p')).toHaveText('Waiting in: unschedulable pods — moves back when:');
  // What NodeResourcesFit registered, said as its queueing hint judges each event.
  await expect(waiting.getByRole('listitem').first()).toHaveText(
    'a Node is added with room for its requests (NodeResourcesFit); or'
  );
  await expect(
    waiting.getByRole('listitem').filter({
      hasText: 'a pod on a node is deleted or finishes, which may free room (NodeResourcesFit); or'
    })
  ).toHaveCount(1);
  // NodeResourcesFit's three events, TaintToleration's three (control-plane-1's taint also
  // rejected the pod), and the flush.
  await expect(waiting.getByRole('listitem')).toHaveCount(7);
  await expect(waiting.getByRole('listitem').last()).toHaveText(
    'at 5m30s at the latest (5 minutes in unschedulable pods).'
  );
  const timeline = page.getByTestId('sched-timeline');
  // The kubelet's image list update at 10 s is no scheduling event: no second, useless attempt.
  await expect(timeline.getByRole('listitem')).toHaveText([
    '#1 at 0s: unschedulable (NodeResourcesFit, TaintToleration)'
  ]);
  expect(await seriousViolations(page, '#panel-side')).toEqual([]);

  // A minute later the pool has grown: NodeAdd moved both pods back and they were bound.
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(queue.getByTestId('queue-count-unschedulable')).toHaveText('0');
  await expect(timeline.getByRole('listitem').last()).toHaveText(/^#2 at 55s: scheduled to worker-[23]$/);
});

test('follow this node: registration, folded Lease renewals and status patches, each a step that jumps the timeline', async ({
  page
}) => {
  await open(page, 'three-nodes.yaml');
  await page.getByRole('button', { name: /^Select node worker-2/ }).click();
  await page.getByRole('tab', { name: 'Details' }).click();
  const seq = page.getByTestId('node-sequence');
  await expect(seq.getByRole('heading', { name: 'Follow this node: worker-2' })).toBeVisible();
  const steps = seq.getByRole('listitem');
  await expect(steps.filter({ hasText: /create nodes$/ })).toHaveCount(1);
  // A minute on: the kubelet has renewed its Lease every 10 s, folded into counted steps.
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(steps.filter({ hasText: /kubelet \(worker-2\) → kube-apiserver: create nodes$/ })).toHaveCount(
    1
  );
  await expect(
    steps.filter({ hasText: 'kube-apiserver → etcd: /registry/minions/worker-2' }).first()
  ).toBeVisible();
  await expect(
    steps
      .filter({ hasText: /kubelet \(worker-2\) → kube-apiserver: update leases \(×\d+, the last at / })
      .first()
  ).toBeVisible();
  expect(await seriousViolations(page, '[data-testid="node-sequence"]')).toEqual([]);
  // Each step jumps the timeline to its time: registration is at 0 s.
  await steps
    .filter({ hasText: /create nodes$/ })
    .getByRole('button')
    .click();
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByRole('slider', { name: 'Jump to time' })).toHaveAttribute('aria-valuenow', '0');
});

test('above 40 nodes the diagram shows pools as tiles; selecting one zooms into its nodes', async ({
  page
}) => {
  test.setTimeout(120_000);
  await open(page, 'two-hundred-nodes.yaml');
  await page.getByRole('tab', { name: 'Control loop' }).click();
  const diagram = page.getByTestId('cluster-diagram');
  await expect(diagram).toContainText('201 nodes, grouped by pool or zone');
  const pool = diagram.getByRole('button', { name: /^general-a: 60 nodes$/ });
  await pool.focus();
  await pool.press('Enter');
  await expect(diagram.getByTestId('diagram-zoom')).toContainText('Zoomed into general-a: 60 nodes.');
  const nodes = diagram.getByRole('button', { name: /^Node general-a-/ });
  await expect(nodes).toHaveCount(60);
  await nodes.first().click();
  await page.getByRole('tab', { name: 'Details' }).click();
  await expect(
    page.getByTestId('node-sequence').getByRole('heading', { name: /^Follow this node: general-a-/ })
  ).toBeVisible();
  await diagram.getByRole('button', { name: '← All groups' }).click();
  await expect(diagram.getByRole('button', { name: /^general-a: 60 nodes$/ })).toBeVisible();
});
