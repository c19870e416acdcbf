/**
 * Importing a pack in the app: read the `.zip`, validate every file, replay every lesson in the
 * replay worker, and only then save it. Any problem refuses the whole pack and nothing is stored.
 * Replay problems are reported like validation problems: file, line and field (the task).
 */
import type { LessonIssue } from '../lessons/format';
import { say } from '../lessons/issue-text';
import { lineOf, parseYaml } from '../lessons/loader';
import { PackVersionError, savePack, type PackInput } from '../persist';
import type { PackManifest } from './format';
import type { LessonReplay } from './replay';
import { replayWording } from './replay-wording';
import { replayInWorker } from './replay-client';
import { validatePack } from './validate';
import { archiveTooLarge, readPackZip } from './zip';

export type ImportProgress =
  | { stage: 'reading' }
  | { stage: 'validating' }
  | { stage: 'replaying'; done: number; total: number; lesson: string }
  | { stage: 'saving' };

export interface ImportOutcome {
  ok: boolean;
  manifest?: PackManifest;
  /** The version this import replaced. */
  replaced?: string;
  issues: LessonIssue[];
  /** Per lesson and task, when the pack got as far as the replay. */
  replays: LessonReplay[];
}

export interface ImportOptions {
  onProgress?: (p: ImportProgress) => void;
  replay?: (lesson: Parameters<typeof replayInWorker>[0]) => Promise<LessonReplay>;
  save?: (input: PackInput) => Promise<{ replaced?: string }>;
}

/** A failed replay as issues: one per failing task, then the steps that failed. */
export function replayIssues(r: LessonReplay, files: Record<string, string>): LessonIssue[] {
  const file = `${r.dir}/lesson.yaml`;
  const p = files[file] !== undefined ? parseYaml<unknown>(files[file], file) : undefined;
  const line = (path: (string | number)[]) => (p?.doc && p.lc ? lineOf(p.doc, p.lc, path, 0) : undefined);
  const out: LessonIssue[] = [];
  r.tasks.forEach((t, i) => {
    if (!t.passesAtStart && t.solutionPassedAt !== undefined) return;
    const reason = (t.reason ?? '').replace(`${file}: `, '');
    out.push({
      file,
      line: line(['spec', 'tasks', i, 'check']),
      field: `spec.tasks[${i}] (${t.id})`,
      ...replayWording(reason)
    });
  });
  for (const problem of r.problems) {
    const message = problem.startsWith(`${file}: `) ? problem.slice(file.length + 2) : problem;
    // Task verdicts are listed above; the rest are steps of the solution that failed.
    if (/task "[^"]+" (already holds|is done at|is not done)/.test(message)) continue;
    if (out.some((o) => o.message === message)) continue;
    const step = /^(?:variant "[^"]+": )?(spec\.[\w.[\]]+): (.*)$/.exec(message);
    out.push(step ? { file, field: step[1], message: step[2] } : { file, message });
  }
  return out;
}

/** Let the page paint the progress before the next synchronous stage. */
const paint = () => new Promise<void>((r) => setTimeout(r, 0));

/** Import a pack from a file the learner chose or dropped; too large a file is not even read. */
export async function importPackFile(file: File, options: ImportOptions = {}): Promise<ImportOutcome> {
  const tooLarge = archiveTooLarge(file.size, file.name);
  if (tooLarge) return { ok: false, issues: [tooLarge], replays: [] };
  return importPack(new Uint8Array(await file.arrayBuffer()), file.name, options);
}

export async function importPack(
  bytes: Uint8Array,
  fileName: string,
  options: ImportOptions = {}
): Promise<ImportOutcome> {
  const progress = options.onProgress ?? (() => {});
  const replay = options.replay ?? replayInWorker;
  const save = options.save ?? savePack;
  progress({ stage: 'reading' });
  await paint();
  const zip = readPackZip(bytes, fileName);
  if (!zip.files) return { ok: false, issues: zip.issues, replays: [] };
  progress({ stage: 'validating' });
  await paint();
  const { pack, issues } = validatePack(zip.files);
  if (!pack) return { ok: false, issues, replays: [] };
  const replays: LessonReplay[] = [];
  for (const [i, lesson] of pack.lessons.entries()) {
    progress({ stage: 'replaying', done: i, total: pack.lessons.length, lesson: lesson.paths.dir });
    const r = await replay(lesson);
    replays.push(r);
    if (!r.ok) issues.push(...replayIssues(r, zip.files));
  }
  if (issues.length) return { ok: false, manifest: pack.manifest, issues, replays };
  progress({ stage: 'saving' });
  try {
    const { replaced } = await save({ manifest: pack.manifest, files: zip.files });
    return { ok: true, manifest: pack.manifest, ...(replaced ? { replaced } : {}), issues: [], replays };
  } catch (e) {
    const said =
      e instanceof PackVersionError
        ? say('olderVersion', { id: e.id, offered: e.offered, installed: e.installed })
        : { message: e instanceof Error ? e.message : String(e) };
    return {
      ok: false,
      manifest: pack.manifest,
      issues: [{ file: 'pack.yaml', field: 'version', ...said }],
      replays
    };
  }
}
