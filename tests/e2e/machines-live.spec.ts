// The remaining lifecycles drawn live: etcd members and the Cluster Autoscaler's node groups in the
// control-plane view, and the eviction ring on the pods a NoExecute taint will evict.
// upstream: go.etcd.io/raft raft.go (a follower whose election timeout passes campaigns as a
// candidate; a quorum of votes makes it the leader of a new term)
// upstream: cluster-autoscaler/clusterstate/clusterstate.go (scaleUp InProgress until the
// requested nodes register)
// upstream: pkg/controller/tainteviction/taint_eviction.go (deleted tolerationSeconds after the
// taint's timeAdded; DefaultTolerationSeconds gives 300)
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page, scenario: string) {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption(scenario);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
}

/** Jump the timeline with its keyboard slider (Home = 0 s, → = 10 s later). */
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

async function controlPlaneTab(page: Page) {
  await page.getByRole('tab', { name: 'Control plane' }).click();
  return page.getByRole('tabpanel', { name: 'Control plane' });
}

test('stopping the etcd leader: its machine goes to stopped, the next member campaigns and leads', async ({
  page
}) => {
  await open(page, 'etcd-quorum.yaml');
  const panel = await controlPlaneTab(page);
  const members = panel.getByTestId('etcd-machines');
  await expect(members.getByRole('heading', { name: 'etcd members as state machines' })).toBeVisible();
  const pick = (name: string) => members.locator(`button[data-subject="${name}"]`);
  await expect(pick('etcd-0')).toHaveText('etcd-0: leader');
  await expect(pick('etcd-1')).toHaveText('etcd-1: follower');
  const machine = members.getByTestId('machine-etcdMember');
  await expect(machine.locator('[data-state="leader"][data-current="true"]')).toBeAttached();

  await page.getByRole('button', { name: 'Stop etcd member etcd-0' }).click();
  await expect(pick('etcd-0')).toHaveText('etcd-0: stopped');
  await expect(machine.getByTestId('machine-current')).toContainText('Now: stopped — moved by STOP at');
  await expect(machine.locator('[data-state="stopped"][data-current="true"]')).toBeAttached();

  await pick('etcd-1').click();
  await expect(pick('etcd-1')).toHaveAttribute('aria-pressed', 'true');
  await expect(machine.getByRole('heading', { level: 4 })).toHaveText('etcd member etcd-1');
  const path = machine.getByTestId('machine-path').getByRole('listitem');
  await expect(path.nth(-2)).toContainText('candidate ← ELECTION_TIMEOUT');
  await expect(path.nth(-1)).toContainText('leader ← WON_ELECTION');
  await expect(path.nth(-1)).toContainText('(term 2)');

  // A second stop leaves one of three: no quorum, no leader.
  await page.getByRole('button', { name: 'Stop etcd member etcd-1' }).click();
  await expect(pick('etcd-2')).toHaveText('etcd-2: no quorum');
  await expect(panel.getByTestId('quorum-status')).toContainText('1 of 3');
});

test('pending pods trigger a scale-up: the node group machine shows scale-up in flight', async ({ page }) => {
  await open(page, 'autoscaler-scale-up.yaml');
  const panel = await controlPlaneTab(page);
  const groups = panel.getByTestId('node-group-machines');
  const worker = groups.locator('button[data-subject="worker"]');
  // The sandbox opens a minute in: the new nodes have registered, the group is idle again.
  await expect(worker).toHaveText('worker: NoActivity');
  // Back to 30 s: the scale-up asked for at the 10 s loop is in flight (45 s boot).
  await timeTo(page, 30);
  await expect(worker).toHaveText('worker: scale-up InProgress');
  await expect(worker).toHaveAttribute('data-current', 'scaleUpInFlight');
  const machine = groups.getByTestId('machine-nodeGroup');
  await expect(machine.getByRole('heading', { level: 4 })).toHaveText('Cluster Autoscaler node group worker');
  await expect(machine.getByTestId('machine-path').getByRole('listitem').nth(1)).toContainText(
    'scale-up InProgress ← SCALE_UP'
  );
  await expect(machine.getByTestId('machine-path').getByRole('listitem').nth(1)).toContainText('(1->3)');
  await expect(machine.locator('[data-state="scaleUpInFlight"][data-current="true"]')).toBeAttached();

  // The same group beside a selected node of the pool, with the node's kubelet service.
  await page.getByRole('button', { name: /Select node worker-1/ }).click();
  await page.getByRole('tab', { name: 'Details' }).click();
  await expect(page.getByTestId('machine-kubelet').getByTestId('machine-current')).toContainText(
    'Now: running'
  );
  await expect(page.getByTestId('machine-nodeGroup').locator('[data-current="true"]')).toHaveAttribute(
    'data-state',
    /^(scaleUpInFlight|idle)$/
  );
});

test('a stopped kubelet: the pods it will lose carry a countdown ring, and replacements fly to other nodes', async ({
  page
}) => {
  await open(page, 'three-nodes.yaml');
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  const w1 = page.locator('[data-node="worker-1"]');
  // Count the replacement's flights from the node card it left (ClusterMap's ghost chips).
  await page.evaluate(() => {
    const w = window as unknown as { ghosts: number };
    w.ghosts = 0;
    new MutationObserver((list) => {
      for (const m of list)
        for (const n of m.addedNodes)
          if (n instanceof HTMLElement && n.classList.contains('ghost')) w.ghosts++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await w1.getByRole('button', { name: 'Stop kubelet on worker-1' }).click();
  await page.getByLabel('Speed').selectOption('60');
  await page.getByRole('button', { name: 'Play' }).click();
  const timers = w1.getByRole('timer');
  await expect(timers.first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(timers.first()).toHaveAttribute(
    'aria-label',
    /^evicted in \d+m\d+s \(tolerationSeconds: 300\)$/
  );
  // The arc is the share of the 300 s still to run, as the words say.
  const label = (await timers.first().getAttribute('aria-label')) ?? '';
  const [, m, sec] = /in (\d+)m(\d+)s/.exec(label) ?? [];
  const left = Number(m) * 60 + Number(sec);
  const share = Number(await w1.locator('svg.ring circle.arc').first().getAttribute('data-share'));
  expect(left).toBeGreaterThan(0);
  expect(share).toBeCloseTo(left / 300, 2);
  // The chip's accessible name says it too.
  await expect(w1.getByRole('button', { name: /^Select pod .*, evicted in \d+m\d+s/ }).first()).toBeVisible();

  // Five minutes later the taint eviction controller has deleted them; the ReplicaSets' new pods
  // are bound elsewhere, fly there from worker-1 and name the node they replace a pod from (also
  // with reduced motion, where nothing flies).
  await page.getByRole('button', { name: 'Jump forward 5 minutes' }).click();
  const arrived = page.getByTestId('moved-from').first();
  await expect(arrived).toHaveText('← worker-1');
  await expect(
    page.getByRole('button', { name: /replaces a pod that left worker-1$/ }).first()
  ).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { ghosts: number }).ghosts))
    .toBeGreaterThan(0);
});
