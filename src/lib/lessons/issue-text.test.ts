import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale, t } from '$lib/i18n/index.svelte';
import { packZip, readPackFolder } from '../../../tests/fixtures/packs/read';
import { importPack } from '$lib/packs/import';
import { replayLesson } from '$lib/packs/replay';
import { replayText } from '$lib/packs/replay-wording';
import { validatePack } from '$lib/packs/validate';
import { readPackZip } from '$lib/packs/zip';
import { formatIssue } from './format';
import { formatIssueIn, ISSUE_TEXT, issueMessage } from './issue-text';

const catalog = (lang: string) =>
  (
    JSON.parse(readFileSync(join('src/lib/i18n/locales', lang, 'packs.json'), 'utf8')) as {
      issue: Record<string, string>;
    }
  ).issue;
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

afterEach(() => setLocale('en'));

describe('issue wording in the reader’s language', () => {
  it('the English catalog is the issue table word for word; Russian has every code with the same placeholders', () => {
    const en = catalog('en');
    const ru = catalog('ru');
    const expected: Record<string, string> = {};
    for (const [code, text] of Object.entries(ISSUE_TEXT)) {
      if (typeof text === 'string') expected[code] = text;
      else Object.assign(expected, { [`${code}_one`]: text.one, [`${code}_other`]: text.other });
    }
    expect(en).toEqual(expected);
    const base = (k: string) => k.replace(/_(one|few|many|other)$/, '');
    expect([...new Set(Object.keys(ru).map(base))].sort()).toEqual(Object.keys(ISSUE_TEXT).sort());
    for (const [k, text] of Object.entries(ru)) {
      const english = ISSUE_TEXT[base(k) as keyof typeof ISSUE_TEXT];
      const ref = typeof english === 'string' ? english : english.other;
      expect(placeholders(text), k).toEqual(placeholders(ref));
      expect(text, k).not.toMatch(/[a-z]{4,} [a-z]{4,} [a-z]{4,}/); // no English sentence left in
    }
    expect(
      Object.keys(ru)
        .filter((k) => k.startsWith('minReasons_'))
        .sort()
    ).toEqual(['minReasons_few', 'minReasons_many', 'minReasons_one', 'minReasons_other']);
  });

  it('a refused .zip: the English message stays as the CLI prints it, the page says it in Russian, the place unchanged', async () => {
    const bytes = zipSync({
      ...Object.fromEntries(Object.entries(readPackFolder('valid')).map(([k, v]) => [k, strToU8(v)])),
      '../evil': strToU8('x')
    });
    const [issue] = readPackZip(bytes, 'evil.zip').issues;
    expect(formatIssue(issue)).toBe(
      'evil.zip: ../evil: a path that climbs out of the pack (..) is not allowed'
    );
    expect(formatIssueIn(issue, t)).toBe(
      'evil.zip: ../evil: a path that climbs out of the pack (..) is not allowed'
    );
    await setLocale('ru');
    expect(formatIssueIn(issue, t)).toBe(
      'evil.zip: ../evil: путь, выходящий за пределы набора (..), не допускается'
    );
    const [many] = readPackZip(
      zipSync(Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`01-a/f${i}.md`, strToU8('x')]))),
      'many.zip'
    ).issues;
    expect(issueMessage(many, t)).toBe('файлов в архиве: 501, а в наборе их не больше 500');
  });

  it('manifest and lesson problems in Russian keep file, line and field as data', async () => {
    const { issues } = validatePack(readPackFolder('invalid'));
    await setLocale('ru');
    expect(issues.map((i) => formatIssueIn(i, t))).toEqual([
      'pack.yaml:5: version: нужна семантическая версия, например 1.2.0 (semver.org)',
      '01-broken/lesson.yaml:8: spec.colour: неизвестное поле',
      '01-broken/lesson.yaml:6: spec.timeBudget: нужна длительность, например 90s, 5m или 1h30m'
    ]);
    const files = readPackFolder('valid');
    const typed = validatePack({
      ...files,
      'pack.yaml': files['pack.yaml'].replace('author: Platform team', 'author: [1]')
    });
    expect(typed.issues.map((i) => [i.message, issueMessage(i, t)])).toEqual([
      ['must be string', 'должно иметь тип string']
    ]);
  });

  it('a replay failure in both languages: the task that already holds at the start', async () => {
    // The verdict's wording is the project's own (lessons/session.ts startingState).
    const out = await importPack(packZip('valid'), 'p.zip', {
      replay: async (l) => {
        const r = replayLesson(l);
        return {
          ...r,
          ok: false,
          tasks: r.tasks.map((x, i) =>
            i === 0
              ? {
                  ...x,
                  passesAtStart: true,
                  reason: `${l.paths.spec}: task "${x.id}" already holds in the starting state: the learner would have nothing to do`
                }
              : x
          )
        };
      },
      save: async () => ({})
    });
    const first = out.issues[0];
    expect(first.code).toBe('alreadyHolds');
    expect(issueMessage(first, t)).toBe(first.message);
    expect(first.message).toMatch(
      /^task "[\w-]+" already holds in the starting state: the learner would have nothing to do$/
    );
    await setLocale('ru');
    expect(issueMessage(first, t)).toMatch(
      /^задание «[\w-]+» выполнено уже в начальном состоянии: ученику нечего будет делать$/
    );
    expect(
      replayText(
        '01-cordon/lesson.yaml: not done after replaying the solution for 3m: node worker-1 is not cordoned',
        t
      )
    ).toBe(
      '01-cordon/lesson.yaml: не выполнено после проигрывания решения за 3m: node worker-1 is not cordoned'
    );
    // A kubectl error of a solution step stays as kubectl words it.
    expect(
      replayText(
        '01-cordon/lesson.yaml: spec.solution[1]: error: the server doesn\'t have a resource type "nodez"',
        t
      )
    ).toBe(
      '01-cordon/lesson.yaml: spec.solution[1]: error: the server doesn\'t have a resource type "nodez"'
    );
  });
});
