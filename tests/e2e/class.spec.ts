import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { pauseLab } from './clock';

const LESSON = '/lessons/01-cluster-anatomy';

test.use({ actionTimeout: 15_000 });

async function ready(page: Page) {
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.locator('.player[data-ready="true"]')).toBeAttached({ timeout: 30_000 });
}

const task = (page: Page, id: string) => page.locator(`[data-task="${id}"]`);
const question = (page: Page, id: string) => page.locator(`[data-question="${id}"]`);

/** The lesson shows one step at a time: step on until the question is there, then answer it. */
async function answer(page: Page, id: string, option: string | RegExp) {
  for (let i = 0; i < 6 && !(await question(page, id).isVisible()); i++)
    await page.getByRole('button', { name: 'Next step' }).click();
  await question(page, id).getByRole('radio', { name: option, exact: true }).check();
  await question(page, id).getByRole('button', { name: 'Check', exact: true }).click();
  await expect(question(page, id).locator('[role="status"]')).not.toBeEmpty();
}

async function consoleRun(page: Page, line: string) {
  const input = page.getByRole('textbox', { name: 'Console command' });
  await input.fill(line);
  await input.press('Enter');
}

async function axe(page: Page, where: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious).toEqual([]);
}

/** Download "My results" with the name typed in the dialog; returns the file's name and JSON. */
async function downloadResults(page: Page, name: string) {
  await page.getByTestId('download-results').click();
  const dialog = page.getByRole('dialog', { name: 'Download my results' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your name').fill(name);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download', exact: true }).click()
  ]);
  const path = await download.path();
  const text = await readFile(path, 'utf8');
  return { file: download.suggestedFilename(), text, json: JSON.parse(text) };
}

/** Student A: lesson 1 through to the end with its reference solution, one hint, one wrong guess. */
async function studentA(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(LESSON);
  await ready(page);
  await pauseLab(page);
  await answer(page, 'no-scheduler', /^kubectl fails/);
  await answer(page, 'no-scheduler', /^The pod is created/);
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');
  await consoleRun(page, 'kubectl apply -f hello.yaml');
  await expect(page.getByRole('log', { name: 'Console output' })).toContainText('pod/hello created');
  await task(page, 'bind')
    .getByRole('button', { name: /^Show hint 1 of/ })
    .click();
  await page.getByRole('button', { name: 'Start scheduler' }).first().click();
  await page.getByRole('button', { name: 'Jump forward 1 minute' }).click();
  await expect(task(page, 'bind')).toHaveAttribute('data-done', 'true');
  await consoleRun(page, 'kubectl describe pod hello');
  await answer(page, 'node-name', 'kube-scheduler');
  await answer(page, 'image-pull', /^the container runtime/);
  await answer(page, 'pod-status', /^the kubelet on the pod's node/);
  const summary = page.getByTestId('lesson-summary');
  await expect(summary).toBeVisible();
  await expect(page.getByTestId('summary-hints')).toHaveText('1');
  // From the lesson's summary.
  const r = await downloadResults(summary.page(), '  Ana López ');
  await expect(summary.getByRole('status')).toContainText(`Saved ${r.file} with 1 lesson.`);
  await context.close();
  return r;
}

/**
 * Student B: answers the first question right and guesses the second wrong, never starts the
 * scheduler; downloads from the roadmap.
 */
async function studentB(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(LESSON);
  await ready(page);
  await pauseLab(page);
  await answer(page, 'no-scheduler', /^The pod is created/);
  await consoleRun(page, 'kubectl apply -f hello.yaml');
  await expect(task(page, 'predict')).toHaveAttribute('data-done', 'true');
  await answer(page, 'node-name', 'kube-apiserver');
  await page.getByRole('link', { name: 'Back to the roadmap' }).click();
  await expect(page.locator('[data-lesson="01-cluster-anatomy"]')).toHaveAttribute('data-status', 'started');
  await axe(page, 'roadmap');
  const r = await downloadResults(page, '=Bo+1');
  await context.close();
  return r;
}

test('two students download their results; the class view imports them and a bad file, sorts, filters and exports CSV', async ({
  browser,
  page
}) => {
  test.setTimeout(240_000);
  const a = await studentA(browser);
  const b = await studentB(browser);

  expect(a.file).toMatch(/^nodeplane-results-ana-lópez-\d{4}-\d{2}-\d{2}\.json$/);
  expect(a.json).toMatchObject({
    schema: 'nodeplane.results/v1',
    student: 'Ana López',
    app: { version: expect.any(String) }
  });
  const la = a.json.lessons[0];
  expect(la).toMatchObject({
    slug: '01-cluster-anatomy',
    pack: null,
    status: 'completed',
    hintsUsed: 1,
    solutionShown: false,
    challenge: null,
    score: null
  });
  expect(la.tasks.map((t: { id: string; done: boolean; hints: number }) => [t.id, t.done, t.hints])).toEqual([
    ['predict', true, 0],
    ['bind', true, 1],
    ['who-node', true, 0],
    ['who-pulls', true, 0],
    ['who-status', true, 0]
  ]);
  for (const t of la.tasks) expect(t.virtualMs).toBeGreaterThan(0);
  expect(la.virtualMs).toBe(la.tasks[4].virtualMs);
  expect(la.answers[0]).toEqual({ question: 'no-scheduler', value: 'pending', correct: true, tries: 2 });
  const lb = b.json.lessons[0];
  expect(b.json.student).toBe('=Bo+1');
  expect(lb).toMatchObject({ status: 'started', hintsUsed: 0, virtualMs: null, completedAt: null });
  expect(lb.tasks.filter((t: { done: boolean }) => t.done).map((t: { id: string }) => t.id)).toEqual([
    'predict'
  ]);
  expect(lb.answers).toEqual([
    { question: 'no-scheduler', value: 'pending', correct: true, tries: 1 },
    { question: 'node-name', value: 'apiserver', correct: false, tries: 1 }
  ]);

  // The teacher's browser: nothing of the students' is stored here.
  await page.goto('/class');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Class results');
  await page.locator('#results-files').setInputFiles([
    { name: a.file, mimeType: 'application/json', buffer: Buffer.from(a.text) },
    { name: b.file, mimeType: 'application/json', buffer: Buffer.from(b.text) },
    {
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"schema":"nodeplane.results/v1","student":"X"}')
    }
  ]);
  await expect(page.getByTestId('class-status')).toHaveText('Imported 2 files.');
  await expect(page.getByTestId('skipped')).toContainText('notes.json: file: missing "app"');

  const table = page.getByTestId('class-table');
  const rows = table.locator('tbody > tr[data-row]');
  await expect(rows).toHaveCount(2);
  const cells = async () =>
    (await rows.all()).map(async (r) =>
      (await r.locator('th, td').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim())
    );
  const text = async () => Promise.all(await cells());
  const clock = (ms: number) => {
    const s = Math.floor(ms / 1000);
    return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
  };
  // Sorted by student at first ("=" sorts before letters).
  expect(await text()).toEqual([
    ['▸ =Bo+1', 'Cluster anatomy', '1 of 5', '—', '0', '—'],
    ['▸ Ana López', 'Cluster anatomy', '5 of 5 ✓ completed', '—', '1', clock(la.virtualMs)]
  ]);
  const student = table.locator('th[data-column="student"]');
  await expect(student).toHaveAttribute('aria-sort', 'ascending');
  // Sort by completion, most done first.
  await table.getByRole('button', { name: 'Sort by Completion' }).click();
  await table.getByRole('button', { name: 'Sort by Completion' }).click();
  await expect(table.locator('th[data-column="completion"]')).toHaveAttribute('aria-sort', 'descending');
  await expect(student).not.toHaveAttribute('aria-sort');
  await expect(rows.first()).toHaveAttribute('data-student', 'Ana López');
  // Per task: expand Ana's row.
  await rows.first().getByRole('button', { name: 'Tasks of Ana López in Cluster anatomy' }).click();
  const tasks = page.getByTestId('task-table');
  await expect(tasks.locator('tr[data-task="bind"]')).toHaveText(
    new RegExp(`bind\\s*yes\\s*1\\s*${clock(la.tasks[1].virtualMs)}`)
  );
  await expect(page.locator('li[data-question="no-scheduler"]')).toContainText(
    'no-scheduler: pending — right (2 tries)'
  );

  // Filter by student.
  await page.getByTestId('filter-student').fill('ana');
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('rows-shown')).toHaveText('1 of 2 rows');
  await page.getByTestId('filter-student').fill('');
  await page.getByTestId('filter-lesson').selectOption('01-cluster-anatomy');
  await expect(rows).toHaveCount(2);

  // CSV of the rows shown, in their order: RFC 4180 with the formula guard on "=Bo+1".
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const body = await readFile(await csv.path(), 'utf8');
  const row = (s: string, l: typeof la, done: number, right: number) =>
    [
      s,
      '01-cluster-anatomy',
      'Cluster anatomy',
      '',
      '',
      l.status,
      done,
      5,
      '',
      l.hintsUsed,
      'no',
      // Seconds to the millisecond (the lab clock may carry fractions of a millisecond).
      l.virtualMs === null ? '' : Math.round(l.virtualMs) / 1000,
      Math.round(l.timeSpentMs / 1000),
      '',
      right,
      l.answers.length,
      l.updatedAt
    ].join(',');
  expect(body).toBe(
    [
      'student,lesson,title,pack,pack_version,status,tasks_done,tasks_total,score,hints_used,solution_shown,virtual_time_s,time_spent_s,challenge_seed,answers_correct,answers_given,updated_at',
      row('Ana López', la, 5, 4),
      row("'=Bo+1", lb, 1, 1),
      ''
    ].join('\r\n')
  );
  await axe(page, '/class');

  // The same view in Russian.
  await page.getByLabel('Language').selectOption('ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Результаты группы');
  await expect(table.locator('th[data-column="completion"]')).toContainText('Выполнено');
  await expect(rows.first()).toContainText('5 из 5');
  await expect(page.getByTestId('skipped')).toContainText('Пропущенные файлы');
  // The reason in Russian too; the field path stays as in the file.
  await expect(page.getByTestId('skipped')).toContainText('notes.json: файл: нет поля «app»');
  await axe(page, '/class ru');
});

test('copy class link pins the challenge seed; refused clipboard falls back to a field', async ({
  page,
  context
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/lessons/12-troubleshooting?seed=4');
  await ready(page);
  await page.getByTestId('copy-class-link').click();
  const url = new URL('/lessons/12-troubleshooting?seed=4', page.url()).href;
  await expect(page.getByTestId('class-link-status')).toHaveText(`Copied: ${url}`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // A plain lesson: the plain link. Clipboard refused: the link in a selected field.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) }
    });
  });
  await page.goto('/lessons/06-heartbeats');
  await ready(page);
  await page.getByTestId('copy-class-link').click();
  const field = page.getByTestId('class-link-field');
  await expect(field).toHaveValue(new URL('/lessons/06-heartbeats', page.url()).href);
  await expect(field).toBeFocused();
  await expect(page.getByLabel('Copying was refused; select the link and copy it:')).toBeVisible();
});

test('print worksheet: the text, tasks and questions with room to answer, no lab, no answers', async ({
  page
}) => {
  test.setTimeout(120_000);
  await page.goto(LESSON);
  await ready(page);
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void (window as unknown as { printed: number }).printed++;
  });
  await page.getByTestId('print-worksheet').click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  const sheet = page.getByTestId('worksheet');
  // On screen the worksheet is not shown; printed, only it is.
  await expect(sheet).toBeHidden();
  await expect(page.locator('#lab')).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(sheet).toBeVisible();
  await expect(page.locator('#lab')).toBeHidden();
  await expect(page.locator('.site-header')).toBeHidden();
  await expect(page.locator('.site-footer')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print worksheet' })).toBeHidden();
  await expect(sheet.getByRole('heading', { level: 1 })).toHaveText('Cluster anatomy');
  await expect(sheet).toContainText('Predict what happens to a new pod while kube-scheduler is stopped');
  await expect(sheet.locator('[data-question="no-scheduler"]')).toContainText('stays Pending with no node');
  // Every step is printed at once (the player shows one at a time) ...
  await expect(sheet.getByRole('heading', { name: 'Who wrote what' })).toBeAttached();
  // ... and none of the lesson's feedback on answers.
  const lesson = await (await page.request.get('/lessons/01-cluster-anatomy.json')).json();
  for (const q of Object.values(lesson.lesson.text.en.questions) as { correct: string }[])
    expect(await sheet.innerText()).not.toContain(q.correct.slice(0, 40));
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await page.screenshot({ path: test.info().outputPath('print-en.png'), fullPage: true });

  await page.emulateMedia({ media: 'screen' });
  await page.getByLabel('Language').selectOption('ru');
  await page.emulateMedia({ media: 'print' });
  await expect(sheet).toContainText('Рабочий лист');
  await expect(sheet.getByRole('heading', { level: 2 }).first()).toHaveText('Задания');
  await page.screenshot({ path: test.info().outputPath('print-ru.png'), fullPage: true });
});
