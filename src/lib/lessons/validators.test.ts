import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_PATH, validatorsSource } from '../../../scripts/gen-validators';
import { validatePackManifest, validateSpec, validateText } from './validators';

describe('precompiled validators', () => {
  it('the committed module is what the schemas compile to (run `npx tsx scripts/gen-validators.ts`)', () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(validatorsSource());
  });

  it('uses no eval, no Function constructor and imports nothing, so the CSP allows it', () => {
    const code = readFileSync(GENERATED_PATH, 'utf8');
    expect(code).not.toMatch(/\beval\(|new Function|\bFunction\(|\brequire\(|^import /m);
  });

  it('counts string lengths in code points and compares JSON deeply, as Ajv does', () => {
    // maxLength 200 on a pack title: 200 emoji are 400 UTF-16 units but 200 characters.
    const m = (title: unknown) => ({ id: 'a', title, author: 'x', languages: ['en'], version: '1.0.0' });
    expect(validatePackManifest(m('😀'.repeat(200)))).toBe(true);
    expect(validatePackManifest(m('😀'.repeat(201)))).toBe(false);
    expect(validatePackManifest({ ...m('t'), languages: ['en', 'en'] })).toBe(false);
    expect(validatePackManifest.errors?.[0]).toMatchObject({
      keyword: 'uniqueItems',
      instancePath: '/languages'
    });
    expect(validateSpec({})).toBe(false);
    expect(validateText({})).toBe(false);
  });
});
