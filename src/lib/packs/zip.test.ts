import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { english, readPackFolder } from '../../../tests/fixtures/packs/read';
import { readPackZip, writeZip, ZIP_LIMITS } from './zip';

const zeros = (n: number) => new Uint8Array(n);

describe('pack .zip', () => {
  it('writes files and reads them back exactly, with the same bytes every time', () => {
    const files = readPackFolder('valid');
    const bytes = writeZip(files);
    expect(readPackZip(bytes)).toEqual({ files, issues: [] });
    expect(writeZip({ ...files })).toEqual(bytes);
  });

  it('takes a folder zipped as a whole as the pack root and skips what the OS adds', () => {
    const files = readPackFolder('valid');
    const wrapped = Object.fromEntries(
      Object.entries(files).map(([k, v]) => [`night-shift/${k}`, strToU8(v)])
    );
    const bytes = zipSync({
      ...wrapped,
      '__MACOSX/night-shift/._pack.yaml': zeros(4),
      'night-shift/.DS_Store': zeros(4)
    });
    expect(readPackZip(bytes)).toEqual({ files, issues: [] });
  });

  it('refuses paths that climb out of the pack or are absolute, and unpacks nothing', () => {
    const bytes = zipSync({
      'pack.yaml': strToU8('id: x\n'),
      '../../evil': strToU8('pwned'),
      '/etc/cron.d/evil': strToU8('pwned'),
      'C:/evil': strToU8('pwned'),
      '01-a\\..\\..\\evil': strToU8('pwned')
    });
    expect(readPackZip(bytes, 'evil.zip')).toEqual({
      issues: [
        {
          file: 'evil.zip: ../../evil',
          message: 'a path that climbs out of the pack (..) is not allowed',
          code: 'pathClimbs'
        },
        {
          file: 'evil.zip: /etc/cron.d/evil',
          message: 'an absolute path is not allowed',
          code: 'pathAbsolute'
        },
        { file: 'evil.zip: C:/evil', message: 'an absolute path is not allowed', code: 'pathAbsolute' },
        {
          file: 'evil.zip: 01-a\\..\\..\\evil',
          message: 'a path with a backslash is not allowed',
          code: 'pathBackslash'
        }
      ]
    });
  });

  it('refuses a zip bomb from its declared sizes before inflating it', () => {
    // 20 files of 1 MiB of zeros: ~20 KiB compressed, 20 MiB unpacked.
    const bomb = zipSync(
      Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`01-a/f${i}.txt`, zeros(ZIP_LIMITS.fileBytes)])
      )
    );
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(english(readPackZip(bomb, 'bomb.zip').issues)).toEqual([
      { file: 'bomb.zip', message: 'the archive unpacks to 20 MiB; a pack is at most 16 MiB unpacked' }
    ]);
    const big = zipSync({ 'pack.yaml': zeros(ZIP_LIMITS.fileBytes + 1) });
    expect(english(readPackZip(big).issues)).toEqual([
      { file: 'pack.zip: pack.yaml', message: 'the file unpacks to 1 MiB; one file is at most 1 MiB' }
    ]);
  });

  it('refuses too many files and too large an archive', () => {
    const many = zipSync(
      Object.fromEntries(Array.from({ length: ZIP_LIMITS.files + 1 }, (_, i) => [`01-a/f${i}`, strToU8('x')]))
    );
    expect(english(readPackZip(many).issues)).toEqual([
      { file: 'pack.zip', message: 'the archive holds 501 files; a pack holds at most 500' }
    ]);
    expect(english(readPackZip(zeros(ZIP_LIMITS.archiveBytes + 1)).issues)).toEqual([
      { file: 'pack.zip', message: 'the archive is 8 MiB; a pack is at most 8 MiB' }
    ]);
  });

  it('refuses text that is not UTF-8, names outside the safe set, and what is not a zip', () => {
    const latin1 = zipSync({ 'pack.yaml': new Uint8Array([0x74, 0x69, 0x74, 0x6c, 0x65, 0x3a, 0x20, 0xe9]) });
    expect(english(readPackZip(latin1).issues)).toEqual([
      { file: 'pack.zip: pack.yaml', message: 'not UTF-8 text (a pack holds only text files)' }
    ]);
    const nul = zipSync({ 'pack.yaml': strToU8('id: a\u0000') });
    expect(readPackZip(nul).issues[0].message).toBe('not text: it contains NUL characters');
    const names = zipSync({ '01-a/<script>.md': strToU8('x') });
    expect(readPackZip(names).issues[0].message).toBe(
      'file and folder names are letters, digits, dots, dashes and underscores'
    );
    const deep = zipSync({ 'pack.yaml': strToU8('x'), '01-a/b/c.yaml': strToU8('x') });
    expect(english(readPackZip(deep).issues)[0]).toEqual({
      file: 'pack.zip: 01-a/b/c.yaml',
      message: 'a pack holds pack.yaml and lesson folders (NN-slug/lesson.yaml ...), nothing deeper'
    });
    expect(readPackZip(strToU8('PK not really')).issues[0].message).toMatch(
      /^not a readable \.zip archive \(/
    );
    expect(english(readPackZip(zipSync({})).issues)).toEqual([
      { file: 'pack.zip', message: 'the archive is empty' }
    ]);
  });

  it('will not write a path that could not be read back', () => {
    expect(() => writeZip({ '../x': 'a' })).toThrow(
      '../x: a path that climbs out of the pack (..) is not allowed'
    );
  });
});
