import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { readFileSync } from 'node:fs';

// The authoring view: write a lesson from the template, see it in the player, run the checks an
// imported pack gets (packs/replay.ts in a worker), keep drafts and export a pack.

const template = readFileSync('src/lib/ui/author/template/lesson.yaml', 'utf8');

async function open(page: Page) {
  await page.goto('/author');
  await expect(page.locator('main[data-ready="true"]')).toBeAttached();
  await expect(page.getByTestId('author')).toBeVisible();
  // Monaco is loaded (the fallback textarea is gone) and the preview plays the template.
  await expect(page.getByTestId('author-monaco').locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('author-preview').locator('[data-lesson]')).toBeVisible({ timeout: 30_000 });
}

/** Replace the last `chars` characters of line `line` of the open tab with `text`. */
async function editLineEnd(page: Page, line: number, chars: number, text: string) {
  await page.getByTestId('author-monaco').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  for (let i = 0; i < chars; i++) await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
}

test.beforeEach(async ({ page }) => {
  // A fresh browser profile per test: no drafts from another test.
  await page.goto('/');
  await page.evaluate(() =>
    indexedDB.databases().then((dbs) => dbs.forEach((d) => d.name && indexedDB.deleteDatabase(d.name)))
  );
});

test('a new lesson from the template passes: the start state fails, the solution passes every task with a time', async ({
  page
}) => {
  await open(page);
  const preview = page.getByTestId('author-preview');
  await expect(preview.getByRole('heading', { level: 1, name: 'My first lesson' })).toBeVisible();

  await page.getByRole('button', { name: 'Check the start state' }).click();
  const results = page.getByTestId('author-results');
  await expect(results).toHaveAttribute('aria-live', 'polite');
  await expect(results).toContainText('Every task fails at the start, as it should.', { timeout: 60_000 });
  await expect(results.locator('li[data-task="run-hello"]')).toContainText('fails at the start');

  await page.getByRole('button', { name: 'Run the reference solution' }).click();
  await expect(results).toContainText(/The reference solution passes every task by t=\d+s\./, {
    timeout: 60_000
  });
  await expect(results.locator('li[data-task="run-hello"]')).toHaveText(
    /Answer the question, then make the pod hello Running\s+run-hello\s+—\s+passed at t=\d+s/
  );
});

test('an error in lesson.yaml shows file:line field message in the preview, and a click goes to the line', async ({
  page
}) => {
  await open(page);
  expect(template.split('\n')[6]).toBe('  timeBudget: 2m');
  await editLineEnd(page, 7, 2, 'soon');
  const problem = page.getByTestId('author-problem').first();
  await expect(problem).toHaveText(
    '90-my-first-lesson/lesson.yaml:7: spec.timeBudget: must be a duration like 90s, 5m or 1h30m'
  );
  await expect(page.getByRole('tab', { name: /lesson\.yaml/ }).first()).toContainText('1');
  // Jumping from another tab opens lesson.yaml at line 7.
  await page.getByRole('tab', { name: 'scenario.yaml' }).click();
  await problem.click();
  await expect(page.getByRole('tab', { name: /^lesson\.yaml/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('author-monaco').locator('.line-numbers.active-line-number')).toHaveText('7');
});

test('copy a built-in lesson, save it, reload and reopen the draft', async ({ page }) => {
  await open(page);
  await page.getByLabel('Built-in lesson').selectOption('06-heartbeats');
  await page.getByRole('button', { name: 'Copy as a new draft' }).click();
  await expect(page.getByTestId('author-status')).toHaveText('Copied 06-heartbeats into a new draft.');
  await expect(page.getByLabel('Folder')).toHaveValue('06-heartbeats');
  await expect(page.getByTestId('author-preview').getByRole('heading', { level: 1 })).toHaveText(
    /heartbeat/i,
    { timeout: 30_000 }
  );
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByTestId('author-status')).toHaveText(/^Saved ".+ \(06-heartbeats\)"\.$/);

  await page.reload();
  await open(page);
  const drafts = page.getByTestId('author-drafts');
  await expect(drafts.getByRole('listitem')).toHaveCount(1);
  await drafts.getByRole('button', { name: /^Open the draft .*06-heartbeats/ }).click();
  await expect(page.getByLabel('Folder')).toHaveValue('06-heartbeats');
  await expect(page.getByTestId('author-status')).toHaveText(/^Opened ".+ \(06-heartbeats\)"\.$/);
});

test('export as pack downloads a zip with pack.yaml and the lesson folder, which imports on the roadmap', async ({
  page
}) => {
  await open(page);
  await page.getByLabel('Title').fill('Class 7B');
  await page.getByLabel('Author').fill('A. Teacher');
  await page.getByLabel('Pack id').fill('class-7b');
  await page.getByLabel('Version (semver)').fill('1.2.0');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as pack (.zip)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('class-7b-1.2.0.zip');
  await expect(page.getByTestId('author-export-status')).toHaveText('Downloaded class-7b-1.2.0.zip.');
  const zip = unzipSync(new Uint8Array(readFileSync(await file.path())));
  expect(Object.keys(zip).sort()).toEqual([
    '90-my-first-lesson/lesson.en.md',
    '90-my-first-lesson/lesson.ru.md',
    '90-my-first-lesson/lesson.yaml',
    '90-my-first-lesson/scenario.yaml',
    'pack.yaml'
  ]);
  expect(strFromU8(zip['pack.yaml'])).toBe(
    'id: class-7b\ntitle: Class 7B\nauthor: A. Teacher\nlanguages:\n  - en\n  - ru\nversion: 1.2.0\n'
  );
  expect(strFromU8(zip['90-my-first-lesson/lesson.yaml'])).toBe(template);

  // The exported pack imports on the roadmap: replayed, installed under its title.
  await page.goto('/');
  await expect(page.getByTestId('packs')).toBeVisible();
  await page.getByTestId('pack-file').setInputFiles({
    name: 'class-7b-1.2.0.zip',
    mimeType: 'application/zip',
    buffer: readFileSync(await file.path())
  });
  await expect(page.getByTestId('pack-accepted')).toHaveText('“Class 7B” 1.2.0 is installed: 1 lesson.', {
    timeout: 60_000
  });
  await expect(page.getByRole('link', { name: /My first lesson/ })).toBeVisible();

  await page.goto('/author');
  await expect(page.getByTestId('author-preview').locator('[data-lesson]')).toBeVisible({ timeout: 30_000 });

  // A bad version is refused with the field named, and nothing is downloaded.
  await page.getByLabel('Version (semver)').fill('one');
  await page.getByRole('button', { name: 'Export as pack (.zip)' }).click();
  await expect(page.getByTestId('author-export-status')).toContainText('pack.yaml');
  await expect(page.getByTestId('author-export-status')).toContainText('version');
});

test('keyboard: the file tabs are a tablist, Escape leaves the editor; no serious axe violations; Russian', async ({
  page
}) => {
  await open(page);
  const first = page.getByRole('tab', { name: 'lesson.yaml' });
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'lesson.en.md' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'lesson.en.md' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'scenario.yaml' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(first).toBeFocused();
  await page.keyboard.press('Tab');
  // Into the editor, then Escape leaves it for the next control.
  await page.keyboard.press('Tab');
  await expect(
    page.locator('.monaco-editor textarea, .monaco-editor .native-edit-context').first()
  ).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('File name')).toBeFocused();

  const results = await new AxeBuilder({ page })
    .include('[data-testid="author"]')
    .exclude('.monaco-editor')
    .analyze();
  expect(
    results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
  ).toEqual([]);

  await page.getByLabel('Language').selectOption('ru');
  await expect(page.getByRole('heading', { level: 1, name: 'Написать урок' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Запустить эталонное решение' })).toBeVisible();
  await expect(
    page.getByTestId('author-preview').getByRole('heading', { level: 1, name: 'Мой первый урок' })
  ).toBeVisible();
});

test('the editor validates lesson.yaml with the lesson schema and completes the front matter', async ({
  page
}) => {
  await open(page);
  const monaco = page.getByTestId('author-monaco');
  const squiggles = monaco.locator('.squiggly-error, .squiggly-warning');
  // The template is clean in every tab (lesson.yaml is not checked as a Kubernetes object).
  for (const tab of ['lesson.yaml', 'scenario.yaml', 'lesson.en.md']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForTimeout(1500);
    await expect(squiggles).toHaveCount(0);
  }
  // An unknown field under spec: monaco-yaml flags it from the lesson schema.
  await page.getByRole('tab', { name: 'lesson.yaml' }).click();
  await editLineEnd(page, 7, 0, '\ncolour: red');
  await expect(squiggles.first()).toBeAttached({ timeout: 30_000 });
  await expect(page.getByTestId('author-problem').first()).toHaveText(
    '90-my-first-lesson/lesson.yaml:8: spec.colour: unknown field'
  );

  // lesson.en.md: at the start of a front-matter line, completion offers the text schema's fields.
  await page.getByRole('tab', { name: 'lesson.en.md' }).click();
  await editLineEnd(page, 1, 0, '\n');
  await page.keyboard.press('Control+Space');
  const suggest = page.locator('.suggest-widget');
  await expect(suggest).toBeVisible();
  await expect(suggest.getByRole('option', { name: /^learned/ })).toBeVisible();
});

test('keyboard only: from the file name through the checks, and "Add to my packs" installs the pack', async ({
  page
}) => {
  await open(page);
  await page.getByLabel('File name').focus();
  await page.keyboard.insertText('pod.yaml');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'pod.yaml' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('File name').focus();
  await page.keyboard.insertText('../x.yaml');
  await page.keyboard.press('Enter');
  await expect(page.locator('p[role="alert"]')).toHaveText(
    'name "../x.yaml": letters, digits, dots, dashes and underscores only, no folders (at most 64)'
  );
  // Tab on from the extra-file controls reaches the checks.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    if (
      await page
        .getByRole('button', { name: 'Check the start state' })
        .evaluate((b) => b === document.activeElement)
    )
      break;
  }
  await expect(page.getByRole('button', { name: 'Check the start state' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Run the reference solution' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('author-results')).toContainText(/passes every task by t=\d+s/, {
    timeout: 60_000
  });

  await page.getByLabel('Title').fill('Class 7B');
  await page.getByLabel('Author').fill('A. Teacher');
  await page.getByLabel('Pack id').fill('class-7b');
  await page.getByRole('button', { name: 'Add to my packs' }).click();
  await expect(page.getByTestId('author-export-status')).toHaveText(
    'Added pack class-7b 1.0.0 to your packs on the roadmap.',
    { timeout: 60_000 }
  );
});

/** Put records into a store of the app's database as they are (no validation). */
async function putRaw(page: Page, store: string, records: unknown[]) {
  await page.evaluate(
    ({ store, records }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('nodeplane');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(store, 'readwrite');
          for (const r of records) tx.objectStore(store).put(r);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { store, records }
  );
}

async function draftIds(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('nodeplane');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('drafts').objectStore('drafts').getAllKeys();
          req.onsuccess = () => {
            open.result.close();
            resolve((req.result as string[]).sort());
          };
          req.onerror = () => reject(req.error);
        };
      })
  );
}

test('typing saves a draft on its own: after a reload the draft holds what was typed', async ({ page }) => {
  await open(page);
  await expect(page.getByText('No drafts yet. A draft is saved as you type.')).toBeVisible();
  await editLineEnd(page, 1, 0, ' # typed, never saved by hand');
  // No "Save draft" click: the draft appears once typing pauses.
  const drafts = page.getByTestId('author-drafts');
  await expect(drafts.getByRole('listitem')).toHaveCount(1);
  await expect(drafts.getByRole('listitem')).toContainText('open');

  await page.reload();
  await open(page);
  await expect(page.getByTestId('author-monaco')).not.toContainText('# typed, never saved by hand');
  await expect(drafts.getByRole('listitem')).toHaveCount(1);
  await drafts.getByRole('button', { name: /^Open the draft / }).click();
  await expect(page.getByTestId('author-monaco').locator('.view-lines')).toContainText(
    '# typed, never saved by hand'
  );
});

test('a corrupt draft record is named, skipped and kept; the other drafts and new typing are not affected', async ({
  page
}) => {
  await open(page);
  await editLineEnd(page, 1, 0, ' # a good draft');
  await expect(page.getByTestId('author-drafts').getByRole('listitem')).toHaveCount(1);
  const [good] = await draftIds(page);
  const now = Date.now();
  await putRaw(page, 'drafts', [
    // Not a draft record at all (files is not a map of texts).
    { schema: 2, id: 'broken', name: 'half-written', files: 'x', createdAt: now, updatedAt: now },
    // A record that parses, but its files are not a lesson the editor can open.
    {
      schema: 2,
      id: 'empty',
      name: 'no lesson in it',
      files: { 'notes.txt': 'x' },
      createdAt: now,
      updatedAt: now
    }
  ]);

  await page.reload();
  await open(page);
  await expect(page.getByRole('status').filter({ hasText: 'saved record could not be read' })).toHaveText(
    /1 saved record could not be read and was skipped\.\s*Details in Settings/
  );
  const drafts = page.getByTestId('author-drafts');
  await expect(drafts.getByRole('listitem')).toHaveCount(2);
  await drafts.getByRole('button', { name: 'Open the draft no lesson in it' }).click();
  await expect(page.getByTestId('author-status')).toHaveText(/^Could not open "no lesson in it": .+/);
  await drafts.getByRole('button', { name: /^Open the draft (?!no lesson)/ }).click();
  await expect(page.getByTestId('author-monaco').locator('.view-lines')).toContainText('# a good draft');

  // More typing saves the good draft again; nothing is deleted, the corrupt record is still there.
  await editLineEnd(page, 1, 0, ' and more');
  await expect(page.getByTestId('author-monaco').locator('.view-lines')).toContainText('and more');
  await expect
    .poll(() =>
      page.evaluate(
        (id) =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open('nodeplane');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const req = open.result.transaction('drafts').objectStore('drafts').get(id);
              req.onsuccess = () => {
                open.result.close();
                const files = (req.result as { files: Record<string, string> }).files;
                resolve(
                  Object.entries(files)
                    .find(([k]) => k.endsWith('/lesson.yaml'))?.[1]
                    .split('\n')[0] ?? ''
                );
              };
              req.onerror = () => reject(req.error);
            };
          }),
        good
      )
    )
    .toMatch(/# a good .*and more/);
  expect(await draftIds(page)).toEqual(['broken', 'empty', good].sort());
  await page.getByRole('link', { name: 'Details in Settings' }).click();
  await expect(page.getByText('drafts / broken: files must map file names to text')).toBeVisible();
});
