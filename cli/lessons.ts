/**
 * `nodeplane lessons check [path]`: validate lessons as CI does. For every lesson and language:
 * the files are valid, both languages define the same tasks and questions, the starting state
 * fails every task check, and replaying the reference solution passes every check within the
 * lesson's time budget. `path` is the lessons folder (default `lessons`) or one lesson's folder.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { formatIssue } from '../src/lib/lessons/format';
import { loadLessons } from '../src/lib/lessons/loader';
import { simRuntime } from '../src/lib/lessons/runtime';
import { playableLessons, replaySolution, startingStateFailures } from '../src/lib/lessons/session';
import { formatClock } from '../src/lib/sim/engine/duration';

export interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

function collect(path: string): Record<string, string> {
  const files: Record<string, string> = {};
  const single = existsSync(join(path, 'lesson.yaml'));
  const dirs = single
    ? [path]
    : readdirSync(path)
        .map((d) => join(path, d))
        .filter((d) => statSync(d).isDirectory());
  for (const dir of dirs) {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isFile()) files[relative(process.cwd(), p) || basename(p)] = readFileSync(p, 'utf8');
    }
  }
  return files;
}

export function runLessonsCheck(argv: string[], out: Out): number {
  const path = argv.find((a) => !a.startsWith('-')) ?? 'lessons';
  if (!existsSync(path)) {
    out.stderr(`error: ${path}: no such folder\n`);
    return 2;
  }
  const { lessons, errors } = loadLessons(collect(path));
  let failed = errors.length;
  for (const e of errors) for (const i of e.issues) out.stderr(`${formatIssue(i)}\n`);
  for (const lesson of lessons) {
    const problems: string[] = [];
    const doneAt: number[] = [];
    // A challenge replays the reference solution of every variant.
    for (const played of playableLessons(lesson)) {
      try {
        problems.push(...startingStateFailures(played, simRuntime));
        const r = replaySolution(played, simRuntime);
        problems.push(...r.failures);
        if (r.completedAt !== undefined) doneAt.push(r.completedAt);
      } catch (e) {
        const v = played.variant ? `variant "${played.variant.id}": ` : '';
        problems.push(`${lesson.paths.dir}: ${v}${(e as Error).message}`);
      }
    }
    const variants = lesson.spec.spec.challenge?.variants.length;
    const done = !doneAt.length
      ? ''
      : variants
        ? `, ${variants} variants — solutions done by t=${formatClock(Math.max(...doneAt))} (budget ${lesson.spec.spec.timeBudget})`
        : ` — solution done at t=${formatClock(doneAt[0])} (budget ${lesson.spec.spec.timeBudget})`;
    if (problems.length) {
      failed++;
      out.stdout(`FAIL ${lesson.slug}\n`);
      for (const p of problems) out.stderr(`  ${p}\n`);
    } else {
      out.stdout(
        `ok   ${lesson.slug}: ${lesson.spec.spec.tasks.length} tasks, ${lesson.spec.spec.questions?.length ?? 0} questions, en+ru${done}\n`
      );
    }
  }
  const total = lessons.length + errors.length;
  if (total === 0) out.stdout(`no lessons found in ${path}\n`);
  out.stdout(`lessons: ${total - failed} passed, ${failed} failed\n`);
  return failed ? 1 : 0;
}
