import { describe, expect, it } from 'vitest';
import { english, readPackFolder } from '../../../tests/fixtures/packs/read';
import { validatePack } from './validate';

describe('validatePack', () => {
  it('accepts a valid pack; its lessons are keyed pack:<id>/<name>', () => {
    const { pack, issues } = validatePack(readPackFolder('valid'));
    expect(issues).toEqual([]);
    expect(pack!.manifest).toEqual({
      id: 'night-shift',
      title: { en: 'Night shift', ru: 'Ночная смена' },
      author: 'Platform team',
      languages: ['en', 'ru'],
      version: '1.0.0'
    });
    expect(pack!.lessons.map((l) => [l.slug, l.order, l.paths.spec])).toEqual([
      ['pack:night-shift/cordon', 1, '01-cordon/lesson.yaml']
    ]);
    expect(pack!.lessons[0].text.ru.title).toBe('Закрыть узел для планирования');
  });

  it('names file, line and field for each problem of the manifest and the lessons', () => {
    const { pack, issues } = validatePack(readPackFolder('invalid'));
    expect(pack).toBeUndefined();
    expect(english(issues)).toEqual([
      {
        file: 'pack.yaml',
        line: 5,
        field: 'version',
        message: 'must be a semantic version like 1.2.0 (semver.org)'
      },
      { file: '01-broken/lesson.yaml', line: 8, field: 'spec.colour', message: 'unknown field' },
      {
        file: '01-broken/lesson.yaml',
        line: 6,
        field: 'spec.timeBudget',
        message: 'must be a duration like 90s, 5m or 1h30m'
      }
    ]);
  });

  it('words each manifest field that is wrong or missing', () => {
    const files = readPackFolder('valid');
    const check = (manifest: string) => validatePack({ ...files, 'pack.yaml': manifest }).issues;
    expect(check('id: Night Shift\ntitle: x\nauthor: y\nlanguages: [en]\nversion: 1.0.0\n')).toEqual([
      {
        file: 'pack.yaml',
        line: 1,
        field: 'id',
        message: 'must be lowercase letters, digits and dashes, like night-shift',
        code: 'idPattern'
      }
    ]);
    expect(check('id: a\ntitle: x\nlanguages: [de]\nversion: 1.0.0\nextra: 1\n')).toEqual([
      { file: 'pack.yaml', line: 1, field: 'author', message: 'required field is missing', code: 'required' },
      { file: 'pack.yaml', line: 5, field: 'extra', message: 'unknown field', code: 'unknownField' },
      {
        file: 'pack.yaml',
        line: 3,
        field: 'languages[0]',
        message: 'must be one of: en, ru',
        code: 'oneOfValues',
        args: { values: 'en, ru' }
      }
    ]);
    const { 'pack.yaml': _, ...noManifest } = files;
    expect(english(validatePack(noManifest).issues)).toEqual([
      { file: 'pack.yaml', message: 'file is missing (every pack has a pack.yaml at its root)' }
    ]);
    expect(english(validatePack({ 'pack.yaml': files['pack.yaml'] }).issues)).toEqual([
      { file: 'pack.yaml', message: 'the pack has no lessons (folders NN-slug/ with lesson.yaml)' }
    ]);
    expect(english(validatePack({ ...files, 'notes.txt': 'x' }).issues)).toEqual([
      { file: 'notes.txt', message: 'only pack.yaml sits at the root; lessons are folders NN-slug/' }
    ]);
  });

  it('a pack in one language needs text only in it, and shows it in the other', () => {
    const { '01-cordon/lesson.ru.md': _, ...files } = readPackFolder('valid');
    expect(english(validatePack(files).issues)).toEqual([
      { file: '01-cordon/lesson.ru.md', message: "file is missing (the pack's languages are en, ru)" }
    ]);
    const en = files['pack.yaml'].replace('languages: [en, ru]', 'languages: [en]');
    const { pack, issues } = validatePack({ ...files, 'pack.yaml': en });
    expect(issues).toEqual([]);
    expect(pack!.lessons[0].text.ru).toBe(pack!.lessons[0].text.en);
  });

  it('refuses two lessons with one name (their progress would share a key)', () => {
    const files = readPackFolder('valid');
    const copy = Object.fromEntries(
      Object.entries(files)
        .filter(([k]) => k.startsWith('01-cordon/'))
        .map(([k, v]) => [k.replace('01-cordon/', '02-cordon/'), v])
    );
    expect(english(validatePack({ ...files, ...copy }).issues)).toEqual([
      {
        file: '02-cordon/lesson.yaml',
        field: 'metadata.name',
        message: '"cordon" is also the name of 01-cordon/lesson.yaml: each lesson of a pack has its own name'
      }
    ]);
  });

  it('refuses a YAML billion laughs and 300 levels of nesting with a message, without blowing up', () => {
    const files = readPackFolder('valid');
    const laughs =
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' +
      Array.from({ length: 9 }, (_, i) => {
        const p = String.fromCharCode(97 + i);
        const n = String.fromCharCode(98 + i);
        return `${n}: &${n} [*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p}]`;
      }).join('\n') +
      '\n';
    const bomb = validatePack({ ...files, 'pack.yaml': laughs }).issues;
    expect(bomb).toHaveLength(1);
    expect(bomb[0]).toMatchObject({ file: 'pack.yaml', line: 1 });
    expect(bomb[0].message).toMatch(/^invalid YAML: Excessive alias count/);

    const deep =
      'a:\n' + Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n') + ' 1\n';
    const nested = validatePack({ ...files, '01-cordon/lesson.yaml': deep }).issues;
    expect(english(nested)).toEqual([
      {
        file: '01-cordon/lesson.yaml',
        line: expect.any(Number),
        message: 'invalid YAML: exceeded max depth of 256'
      }
    ]);
  });
});
