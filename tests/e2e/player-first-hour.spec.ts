// The learner's first hour in the lesson player and the lab: what a lesson asks for is visible,
// worded for learners in their language, and readable in both themes and on a phone.
import { expect, test, type Page } from '@playwright/test';

async function useLanguage(page: Page, lang: 'en' | 'ru') {
  await page.goto('/');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await page.getByLabel(lang === 'ru' ? 'Language' : 'Язык').selectOption(lang);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

async function openLesson(page: Page, slug: string) {
  await page.goto(`/lessons/${slug}`);
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
}

async function openSandbox(page: Page) {
  await page.goto('/sandbox');
  await expect(page.locator('[data-node="worker-1"]')).toBeVisible({ timeout: 30_000 });
}

const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);

test('a goal line names the task to do now beside the lab and stays in view while reading', async ({
  page
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLesson(page, '06-heartbeats');
  const goal = page.getByRole('status', { name: 'What to do now' });
  await expect(goal).toHaveText(/Now\s*Predict when the pods on worker-2 will be deleted/);
  // Above the lab, and still in the window at the end of the lesson text.
  const [g, lab] = await Promise.all([goal.boundingBox(), page.locator('#lab').boundingBox()]);
  expect(g!.y + g!.height).toBeLessThanOrEqual(lab!.y + 1);
  await page.getByRole('button', { name: 'Next step' }).scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 3000);
  await expect(goal).toBeInViewport();

  // The next task becomes the goal once the first is done.
  await page.getByRole('button', { name: 'Next step' }).click();
  await page.getByLabel('Your answer, in s').fill('350');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(goal).toContainText('Stop the kubelet on worker-2 and watch the node go Unknown');
});

test('the goal line is in Russian in the Russian UI', async ({ page }) => {
  await useLanguage(page, 'ru');
  await openLesson(page, '06-heartbeats');
  const goal = page.getByRole('status', { name: 'Что делать сейчас' });
  await expect(goal).toHaveText(/Сейчас\s*Предскажите, когда Pod'ы с worker-2 будут удалены/);
});

test('task status lines are for learners: "not yet", and what is checked behind a disclosure', async ({
  page
}) => {
  await openLesson(page, '06-heartbeats');
  const tasks = page.getByRole('region', { name: /Tasks/ }).or(page.locator('.tasks'));
  // Not the checker's internals.
  await expect(tasks).not.toContainText('is not answered correctly yet');
  await expect(tasks).not.toContainText('has not happened yet');
  await expect(tasks).not.toContainText('event for Pod/');
  await expect(task(page, 'predict').getByTestId('task-state')).toHaveText('not yet');

  const checked = task(page, 'silence').getByText('What is checked?');
  await expect(checked).toBeVisible();
  await expect(
    task(page, 'silence')
      .getByText(/TaintManagerEviction|Ready condition/)
      .first()
  ).toBeHidden();
  await checked.click();
  await expect(task(page, 'silence').getByTestId('what-checked')).toContainText('Node worker-2');
  await task(page, 'predict').getByText('What is checked?').click();
  await expect(task(page, 'predict').getByTestId('what-checked')).toContainText(
    'You answer the question in the lesson text correctly'
  );
});

test('task status lines and what is checked are in Russian, without English words', async ({ page }) => {
  await useLanguage(page, 'ru');
  await openLesson(page, '06-heartbeats');
  await expect(task(page, 'predict').getByTestId('task-state')).toHaveText('пока нет');
  for (const id of ['predict', 'silence']) await task(page, id).getByText('Что проверяется?').click();
  await expect(task(page, 'predict').getByTestId('what-checked')).toContainText(
    'Вы верно ответили на вопрос в тексте урока'
  );
  // Kubernetes values and names stay as Kubernetes prints them; no English words around them.
  const text = await page.locator('.tasks').innerText();
  expect(text).not.toMatch(
    /\b(not yet|done|What is checked|has not happened|answered|question|event|Hint|Tasks)\b/i
  );
});

test('a prediction question hides what follows until it is answered; feedback is said once', async ({
  page
}) => {
  await openLesson(page, '01-cluster-anatomy');
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByText('Step 2 of')).toBeVisible();
  const question = page.locator('[data-question="no-scheduler"]');
  await expect(question).toBeVisible();
  // The output that answers it is not shown yet.
  await expect(page.getByText('STATUS Pending', { exact: false })).toHaveCount(0);
  await expect(page.getByText(/nobody even tried/)).toHaveCount(0);
  await expect(
    page.getByRole('button', { name: 'Run in the console: kubectl apply -f hello.yaml' })
  ).toHaveCount(0);
  await expect(page.getByTestId('answer-first')).toBeVisible();

  await question.getByLabel(/stays Pending with no node/).check();
  await question.getByRole('button', { name: 'Check', exact: true }).click();
  const feedback = question.getByRole('status');
  await expect(feedback).toContainText('Right. The API server validates the pod');
  expect((await feedback.innerText()).match(/Correct|Right/g)).toEqual(['Right']);
  await expect(page.getByText(/nobody even tried/)).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Run in the console: kubectl apply -f hello.yaml' })
  ).toBeVisible();
  await expect(page.getByTestId('answer-first')).toHaveCount(0);
});

test('a wrong answer is said once too, and reveals what follows', async ({ page }) => {
  await openLesson(page, '06-heartbeats');
  await page.getByRole('button', { name: 'Next step' }).click();
  await page.getByLabel('Your answer, in s').fill('200');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  const feedback = page.locator('[data-question="evict-time"]').getByRole('status');
  await expect(feedback).toContainText('Not quite.');
  expect((await feedback.innerText()).match(/Not quite/g)).toEqual(['Not quite']);
});

test('on a phone, ▶ Run brings the console output into view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLesson(page, '06-heartbeats');
  const run = page.getByRole('button', { name: 'Run in the console: kubectl get lease -n kube-node-lease' });
  await run.scrollIntoViewIfNeeded();
  const log = page.getByRole('log', { name: 'Console output' });
  await expect(log).not.toBeInViewport();
  await run.click();
  await expect(log).toContainText('worker-2');
  await expect(log).toBeInViewport({ ratio: 0.5 });
});

test('one reset control with a clear name asks first; cancel changes nothing', async ({ page }) => {
  await openLesson(page, '06-heartbeats');
  const player = page.locator('.player');
  await expect(player.getByRole('button', { name: /reset|start over/i })).toHaveCount(1);
  const reset = player.getByRole('button', { name: 'Reset…' });
  await page.getByRole('button', { name: 'Next step' }).click();
  await page.getByLabel('Your answer, in s').fill('350');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');

  await reset.click();
  const dialog = page.getByRole('dialog', { name: 'Reset the lab?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');

  // Reset with "also clear done tasks" starts the lesson over.
  await reset.click();
  await dialog.getByLabel(/Also clear done tasks and answers/).check();
  await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'false');
});

test('the reset control is named in Russian', async ({ page }) => {
  await useLanguage(page, 'ru');
  await openLesson(page, '06-heartbeats');
  const player = page.locator('.player');
  await expect(player.getByRole('button', { name: /сброс|заново|reset/i })).toHaveCount(1);
  await player.getByRole('button', { name: 'Сбросить…' }).click();
  await expect(page.getByRole('dialog', { name: 'Сбросить лабораторию?' })).toBeVisible();
});

test('the scheduling table opens wide: every column fits at 1280 px, node names unbroken, chosen node marked', async ({
  page
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSandbox(page);
  await page.locator('[data-node="worker-1"] [data-pod^="default/web-"]').first().click();
  await page.getByRole('tab', { name: 'Scheduling' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Scheduling' });
  await panel.getByRole('button', { name: /Open the table wide/ }).click();
  const dialog = page.getByRole('dialog', { name: /How the scheduler placed Pod\/default\/web-/ });
  await expect(dialog).toBeVisible();
  const body = dialog.getByTestId('sched-wide');
  const fit = await body.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  await expect(body.getByRole('columnheader', { name: 'Final score' })).toBeInViewport();
  // Node names on one line each.
  for (const name of ['worker-1', 'worker-2', 'worker-3']) {
    const cell = body.locator(`[data-node-row="${name}"] th`);
    const lines = await cell.evaluate((el) => {
      const tops = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .flatMap((n) => {
          const r = document.createRange();
          r.selectNodeContents(n);
          return [...r.getClientRects()].map((x) => Math.round(x.top));
        });
      return new Set(tops).size;
    });
    expect(lines, name).toBe(1);
  }
  const chosen = body.locator('tr[aria-current="true"]');
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toHaveAttribute('data-node-row', 'worker-1');
  await expect(chosen.locator('th')).toContainText('★ worker-1');

  // Plugins that returned Skip for every node are folded away until asked for.
  const toggle = dialog.getByRole('button', { name: /Show \d+ plugins? that returned Skip/ });
  if (await toggle.count()) {
    const before = await body.getByRole('columnheader').count();
    await expect(body.getByRole('cell', { name: 'Skip', exact: true })).toHaveCount(0);
    await toggle.click();
    expect(await body.getByRole('columnheader').count()).toBeGreaterThan(before);
    await expect(body.getByRole('cell', { name: 'Skip', exact: true }).first()).toBeVisible();
  } else {
    await expect(body.getByRole('cell', { name: 'Skip', exact: true })).toHaveCount(0);
  }
});

test('pod names are cut in the middle: two pods never look the same; full name on hover and for screen readers', async ({
  page
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSandbox(page);
  const chips = page.locator('[data-pod^="default/web-"]');
  await expect(chips).toHaveCount(3);
  const seen = new Set<string>();
  for (const chip of await chips.all()) {
    const key = (await chip.getAttribute('data-pod'))!;
    const name = key.split('/')[1];
    const shown = await chip.locator('.name').evaluate((el) => {
      // What the learner sees: the visible part of each piece.
      const [head, tail] = [...el.children] as HTMLElement[];
      const cut = head.scrollWidth > head.clientWidth;
      return `${cut ? `${head.textContent!.slice(0, 4)}…` : head.textContent}${tail.textContent}`;
    });
    // The distinguishing suffix is always visible.
    expect(shown.endsWith(name.slice(name.lastIndexOf('-')))).toBe(true);
    seen.add(shown);
    await expect(chip).toHaveAttribute('title', new RegExp(`^default/${name} · `));
    await expect(chip).toHaveAccessibleName(new RegExp(name));
  }
  expect(seen.size).toBe(3);
});

/** Every visible text in `root` against its effective background: the ones below WCAG AA. */
async function lowContrast(page: Page, root: string): Promise<string[]> {
  return page.evaluate((rootSel) => {
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0], p[1], p[2], p[3] ?? 1];
    };
    const over = (top: RGBA, bottom: RGBA): RGBA => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const ch = (i: number) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
      return [ch(0), ch(1), ch(2), a];
    };
    const background = (el: Element | null): RGBA => {
      const layers: RGBA[] = [];
      for (let e = el; e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
      let bg: RGBA = parse(getComputedStyle(document.documentElement).backgroundColor);
      if (bg[3] === 0) bg = [255, 255, 255, 1];
      for (const l of layers.reverse()) bg = over(l, bg);
      return bg;
    };
    const lum = ([r, g, b]: RGBA) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const bad: string[] = [];
    const root = document.querySelector(rootSel);
    if (!root) return [`no ${rootSel}`];
    for (const el of root.querySelectorAll<HTMLElement>('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
      if (!own) continue;
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (!r.width || !r.height || cs.visibility !== 'visible' || Number(cs.opacity) === 0) continue;
      if (
        el.closest('[disabled], [aria-disabled="true"], .sr-only, .visually-hidden, svg, dialog:not([open])')
      )
        continue;
      if (el.closest('.monaco-editor')) continue;
      const fg = over(parse(cs.color), background(el));
      const bg = background(el);
      const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        bad.push(
          `${el.tagName.toLowerCase()}.${el.className} "${el.textContent!.trim().slice(0, 40)}" ${ratio.toFixed(2)}`
        );
    }
    return bad;
  }, root);
}

test('dark theme: every text in the sandbox lab passes WCAG AA contrast', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSandbox(page);
  // A node that is not Ready shows its condition reason: stop a kubelet and let a minute pass.
  await page
    .locator('[data-node="worker-2"]')
    .getByRole('button', { name: 'Stop kubelet on worker-2' })
    .click();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(page.locator('[data-node="worker-2"]')).toHaveAttribute('data-ready', 'Unknown');
  expect(await lowContrast(page, 'main')).toEqual([]);
});

test('dark theme: every text on a lesson page passes WCAG AA contrast', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLesson(page, '06-heartbeats');
  await page.locator('[data-task="silence"]').getByText('What is checked?').click();
  expect(await lowContrast(page, 'main')).toEqual([]);
});

test('the control-plane view says 1 core and 1 instance, in both languages', async ({ page }) => {
  await openSandbox(page);
  await page.getByRole('combobox', { name: 'Scenario', exact: true }).selectOption('ha-external-etcd.yaml');
  await expect(
    page.getByRole('button', { name: 'Pause' }).or(page.getByRole('button', { name: 'Play' }))
  ).toBeVisible({
    timeout: 20_000
  });
  await page.getByRole('tab', { name: 'Control plane' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Control plane' });
  await expect(panel.getByRole('button', { name: 'Size down to 1 core', exact: true })).toBeVisible();
  await expect(panel).toContainText('3 kube-apiserver instances behind the load balancer');
  await expect(panel).not.toContainText('(s)');
  await page.getByLabel('Language').selectOption('ru');
  await expect(
    page.locator('#panel-side').getByRole('button', { name: 'Уменьшить до 1 ядра', exact: true })
  ).toBeVisible();
});
