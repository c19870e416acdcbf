import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test('control-plane tab: quorum, leaders, and sizing up brings the planned p99 under the SLO', async ({
  page
}) => {
  await page.goto('/sandbox');
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('ha-external-etcd.yaml');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();

  const tab = page.getByRole('tab', { name: 'Control plane' });
  await tab.focus();
  await page.keyboard.press('Enter');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel', { name: 'Control plane' });
  await expect(panel).toContainText(
    'External etcd: 3 kube-apiserver instances behind the load balancer, 3 etcd members on their own hosts.'
  );
  await expect(panel.getByTestId('quorum-status')).toHaveText(
    /3 of 3 etcd members run; the quorum is 2, so writes work\. 1 more member can fail\./
  );
  await expect(panel.getByRole('table', { name: 'etcd quorum by member count' })).toContainText(
    /3 \(this cluster\)\s*2\s*1/
  );
  await expect(panel).toContainText(/kube-scheduler: control-plane-1_[0-9a-f-]+ leads/);

  // Three API servers on 2-core machines: 1000 nodes at 20 pod starts/s saturate them.
  const result = panel.getByTestId('whatif-result');
  await expect(result).toHaveText(/At 1000 nodes the mutating p99 is 60 s: the SLO \(1 s\) is missed/);
  const up = panel.getByRole('button', { name: 'Size up to 4 cores' });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('sizing')).toHaveText(/4 cores per control-plane machine/);
  await expect(result).toHaveText('At 1000 nodes the mutating p99 is 27 ms: within the SLO (1 s).');

  // The learner's own what-if: 3000 nodes are too many for 3 × 4 cores (the line is at 2224).
  const nodes = panel.getByRole('spinbutton', { name: 'Nodes' });
  await nodes.fill('3000');
  await nodes.press('Enter');
  await nodes.blur();
  await expect(result).toHaveText(/At 3000 nodes the mutating p99 is 60 s/);
  await expect(panel.getByText('now: 3 × 4 cores — within the SLO up to 2224 nodes')).toBeVisible();

  const results = await new AxeBuilder({ page })
    .include('#panel-side')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
  ).toEqual([]);
});
