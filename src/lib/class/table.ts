/**
 * The class view's model: result files merged into one row per student and lesson (the newest
 * wins, and the view says which were replaced), sorted and filtered, and written out as CSV.
 */
import { toCsv, type Cell } from './csv';
import type { ResultLesson, Results } from './results';

export interface ClassRow {
  /** Student and lesson, the row's identity. */
  key: string;
  student: string;
  /** `slug` for a built-in lesson, `pack:<id>/<slug>` for a pack lesson (the progress key). */
  lessonKey: string;
  lesson: ResultLesson;
  file: string;
  /** The app build that wrote the file. */
  appVersion: string;
}

export interface Replaced {
  student: string;
  lessonKey: string;
  title: string;
  kept: string;
  dropped: string;
}

export const lessonKey = (l: Pick<ResultLesson, 'slug' | 'pack'>): string =>
  l.pack ? `pack:${l.pack.id}/${l.slug}` : l.slug;

/** One student is one name, whatever its case or Unicode form. */
export const studentKey = (name: string): string => name.trim().normalize('NFC').toLocaleLowerCase();

/**
 * Merge files (in import order) into rows. For the same student and lesson the one updated last
 * wins; on a tie the file exported last, then the file imported last.
 */
export function mergeResults(files: { name: string; results: Results }[]): {
  rows: ClassRow[];
  replaced: Replaced[];
} {
  const byKey = new Map<string, ClassRow & { exportedAt: string }>();
  const replaced: Replaced[] = [];
  for (const f of files) {
    for (const lesson of f.results.lessons) {
      const lk = lessonKey(lesson);
      const key = `${studentKey(f.results.student)}\u0000${lk}`;
      const row = {
        key,
        student: f.results.student,
        lessonKey: lk,
        lesson,
        file: f.name,
        appVersion: f.results.app.version,
        exportedAt: f.results.exportedAt
      };
      const old = byKey.get(key);
      if (!old) {
        byKey.set(key, row);
        continue;
      }
      const newer =
        lesson.updatedAt > old.lesson.updatedAt ||
        (lesson.updatedAt === old.lesson.updatedAt && f.results.exportedAt >= old.exportedAt);
      const [kept, dropped] = newer ? [row, old] : [old, row];
      byKey.set(key, kept);
      replaced.push({
        student: kept.student,
        lessonKey: lk,
        title: kept.lesson.title,
        kept: kept.file,
        dropped: dropped.file
      });
    }
  }
  const rows = [...byKey.values()].map(({ exportedAt: _, ...r }) => r);
  return { rows, replaced };
}

export const tasksDone = (l: ResultLesson): number => l.tasks.filter((t) => t.done).length;

export type Column = 'student' | 'lesson' | 'completion' | 'score' | 'hints' | 'time';
export type Direction = 'ascending' | 'descending';

/**
 * Rows sorted by a column; `lessonOrder` gives a lesson's place (its roadmap order, or its title
 * for a lesson the app does not know). Empty values (no score, not complete) sort last either way;
 * ties fall back to student, then lesson.
 */
export function sortRows(
  rows: ClassRow[],
  column: Column,
  direction: Direction,
  lessonOrder: (row: ClassRow) => number | string
): ClassRow[] {
  const value = (r: ClassRow): number | string | null => {
    switch (column) {
      case 'student':
        return studentKey(r.student);
      case 'lesson':
        return lessonOrder(r);
      case 'completion':
        return r.lesson.tasks.length ? tasksDone(r.lesson) / r.lesson.tasks.length : 0;
      case 'score':
        return r.lesson.score;
      case 'hints':
        return r.lesson.hintsUsed;
      case 'time':
        return r.lesson.virtualMs;
    }
  };
  const cmp = (a: number | string, b: number | string) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else {
      const c = cmp(va, vb);
      if (c) return sign * c;
    }
    return cmp(studentKey(a.student), studentKey(b.student)) || cmp(lessonOrder(a), lessonOrder(b));
  });
}

/** Rows whose student name contains `student` (any case) and, when given, of one lesson. */
export function filterRows(rows: ClassRow[], student: string, lesson: string): ClassRow[] {
  const s = studentKey(student);
  return rows.filter((r) => (!s || studentKey(r.student).includes(s)) && (!lesson || r.lessonKey === lesson));
}

export const CSV_HEADER = [
  'student',
  'lesson',
  'title',
  'pack',
  'pack_version',
  'status',
  'tasks_done',
  'tasks_total',
  'score',
  'hints_used',
  'solution_shown',
  'virtual_time_s',
  'time_spent_s',
  'challenge_seed',
  'answers_correct',
  'answers_given',
  'updated_at'
];

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.round(ms) / 1000);

/** The CSV of these rows, one per student and lesson, in their order. */
export function classCsv(rows: ClassRow[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r): Cell[] => {
      const l = r.lesson;
      return [
        r.student,
        l.slug,
        l.title,
        l.pack?.id ?? null,
        l.pack?.version ?? null,
        l.status,
        tasksDone(l),
        l.tasks.length,
        l.score,
        l.hintsUsed,
        l.solutionShown,
        seconds(l.virtualMs),
        Math.round(l.timeSpentMs / 1000),
        l.challenge?.seed ?? null,
        l.answers.filter((a) => a.correct).length,
        l.answers.length,
        l.updatedAt
      ];
    })
  );
}
