/**
 * Read and write lesson packs as `.zip` with fflate. Reading is bounded before anything is
 * inflated: the archive's size, the number of files and their declared uncompressed sizes are
 * checked first (a zip bomb is refused, not unpacked), every path must stay inside the pack, and
 * every file must be UTF-8 text. A refused archive yields only issues, never files.
 */
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { LessonIssue } from '../lessons/format';
import { PACK_MANIFEST } from './format';
import { issueText, say, type IssueCode } from '../lessons/issue-text';

export const ZIP_LIMITS = {
  /** The `.zip` file itself. */
  archiveBytes: 8 * 1024 * 1024,
  /** Files in the archive (folders not counted). */
  files: 500,
  /** One file, uncompressed. */
  fileBytes: 1024 * 1024,
  /** Every file together, uncompressed. */
  totalBytes: 16 * 1024 * 1024
};

const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** What operating systems add when they zip a folder; skipped, not refused. */
const JUNK_RE = /(^|\/)(__MACOSX\/.*|\.DS_Store|Thumbs\.db|desktop\.ini)$/;

/** Mebibytes to one decimal, as a number (the unit is in the message). */
const MiB = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

/** The issue of an archive larger than a pack may be, before reading it. */
export function archiveTooLarge(bytes: number, file: string): LessonIssue | undefined {
  if (bytes <= ZIP_LIMITS.archiveBytes) return undefined;
  return { file, ...say('archiveTooLarge', { size: MiB(bytes), max: MiB(ZIP_LIMITS.archiveBytes) }) };
}

/** Why `name` is not a path a pack may contain (an issue code), or undefined when it is fine. */
export function pathProblemCode(name: string): IssueCode | undefined {
  if (name.includes('\\')) return 'pathBackslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'pathAbsolute';
  const parts = name.split('/');
  if (parts.some((p) => p === '..' || p === '.')) return 'pathClimbs';
  if (parts.some((p) => !SEGMENT_RE.test(p))) return 'pathNames';
  return undefined;
}

/** Why `name` is not a path a pack may contain, in words, or undefined when it is fine. */
export function pathProblem(name: string): string | undefined {
  const code = pathProblemCode(name);
  return code && issueText(code);
}

/**
 * Unpack a pack's `.zip`: path → text. When every file sits in one top folder that holds the
 * `pack.yaml` (a folder zipped as a whole), that folder is taken as the pack's root.
 */
export function readPackZip(
  bytes: Uint8Array,
  file = 'pack.zip'
): {
  files?: Record<string, string>;
  issues: LessonIssue[];
} {
  const issues: LessonIssue[] = [];
  const refuse = (said: ReturnType<typeof say>, at = file) => {
    issues.push({ file: at, ...said });
    return { issues };
  };
  const tooLarge = archiveTooLarge(bytes.length, file);
  if (tooLarge) return { issues: [tooLarge] };

  const entries: { name: string }[] = [];
  let total = 0;
  let raw: Record<string, Uint8Array>;
  try {
    raw = unzipSync(bytes, {
      filter: (f) => {
        if (f.name.endsWith('/') || JUNK_RE.test(f.name)) return false;
        entries.push({ name: f.name });
        const problem = pathProblemCode(f.name);
        if (problem) issues.push({ file: `${file}: ${f.name}`, ...say(problem) });
        else if (f.compression !== 0 && f.compression !== 8)
          issues.push({
            file: `${file}: ${f.name}`,
            ...say('compression', { method: f.compression })
          });
        else if (f.originalSize > ZIP_LIMITS.fileBytes)
          issues.push({
            file: `${file}: ${f.name}`,
            ...say('fileTooLarge', { size: MiB(f.originalSize), max: MiB(ZIP_LIMITS.fileBytes) })
          });
        total += f.originalSize;
        // Inflate nothing once anything is wrong: the declared sizes bound what is unpacked.
        return issues.length === 0 && entries.length <= ZIP_LIMITS.files && total <= ZIP_LIMITS.totalBytes;
      }
    });
  } catch (e) {
    return refuse(say('unreadable', { detail: (e as Error).message }));
  }
  if (entries.length > ZIP_LIMITS.files)
    return refuse(say('tooManyFiles', { count: entries.length, max: ZIP_LIMITS.files }));
  if (total > ZIP_LIMITS.totalBytes)
    return refuse(say('unpackedTooLarge', { size: MiB(total), max: MiB(ZIP_LIMITS.totalBytes) }));
  if (issues.length) return { issues };
  if (!entries.length) return refuse(say('emptyArchive'));

  const decoder = new TextDecoder('utf-8', { fatal: true });
  const names = Object.keys(raw);
  const tops = new Set(names.map((n) => n.split('/')[0]));
  const strip = !raw[PACK_MANIFEST] && tops.size === 1 && names.every((n) => n.includes('/'));
  const prefix = strip ? `${[...tops][0]}/` : '';
  const files: Record<string, string> = {};
  for (const name of names.sort()) {
    const path = name.slice(prefix.length);
    if (path.split('/').length > 2) {
      issues.push({
        file: `${file}: ${name}`,
        ...say('tooDeep')
      });
      continue;
    }
    try {
      files[path] = decoder.decode(raw[name]);
    } catch {
      issues.push({ file: `${file}: ${name}`, ...say('notUtf8') });
      continue;
    }
    if (files[path].includes('\u0000')) issues.push({ file: `${file}: ${name}`, ...say('nul') });
  }
  return issues.length ? { issues } : { files, issues };
}

/** A fixed date for every entry, so one set of files always gives the same bytes. */
const MTIME = new Date(2026, 0, 1, 0, 0, 0);

/** Zip `files` (path → text), sorted by path, deflated. */
export function writeZip(files: Record<string, string>): Uint8Array {
  const tree: Zippable = {};
  for (const path of Object.keys(files).sort()) {
    const problem = pathProblem(path);
    if (problem) throw new Error(`${path}: ${problem}`);
    tree[path] = [strToU8(files[path]), { mtime: MTIME }];
  }
  return zipSync(tree, { level: 6 });
}
