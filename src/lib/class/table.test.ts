import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';
import type { ResultLesson, Results } from './results';
import { classCsv, filterRows, mergeResults, sortRows, type ClassRow } from './table';

const lesson = (over: Partial<ResultLesson>): ResultLesson => ({
  slug: '01-cluster-anatomy',
  pack: null,
  title: 'Cluster anatomy',
  status: 'completed',
  tasks: [
    { id: 'predict', done: true, virtualMs: 3000, hints: 0 },
    { id: 'bind', done: true, virtualMs: 31_000, hints: 1 }
  ],
  answers: [{ question: 'no-scheduler', value: 'pending', correct: true, tries: 2 }],
  hintsUsed: 1,
  solutionShown: false,
  virtualMs: 31_000,
  timeSpentMs: 125_400,
  challenge: null,
  score: null,
  startedAt: '2026-12-03T09:00:00.000Z',
  updatedAt: '2026-12-03T09:05:00.000Z',
  completedAt: '2026-12-03T09:05:00.000Z',
  ...over
});
const file = (
  student: string,
  lessons: ResultLesson[],
  exportedAt = '2026-12-03T10:00:00.000Z'
): Results => ({
  schema: 'nodeplane.results/v1',
  app: { version: '0.1.0' },
  student,
  exportedAt,
  lessons
});

describe('CSV (RFC 4180)', () => {
  it('quotes commas, quotes and line breaks, doubles quotes, ends lines with CRLF', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(true)).toBe('yes');
    expect(toCsv(['a', 'b'], [['x', 1]])).toBe('a,b\r\nx,1\r\n');
  });

  it('guards text cells against formula injection with a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a=b')).toBe('a=b');
    // Numbers stay numbers.
    expect(csvCell(-1)).toBe('-1');
  });

  it('writes one row per student and lesson with the exact header', () => {
    const { rows } = mergeResults([
      { name: 'ana.json', results: file('Ana, "the first"', [lesson({})]) },
      {
        name: 'bo.json',
        results: file('=cmd|calc', [
          lesson({
            status: 'started',
            tasks: [
              { id: 'predict', done: true, virtualMs: null, hints: 2 },
              { id: 'bind', done: false, virtualMs: null, hints: 0 }
            ],
            answers: [{ question: 'no-scheduler', value: 'rejected', correct: false, tries: 1 }],
            hintsUsed: 2,
            solutionShown: true,
            virtualMs: null,
            timeSpentMs: 59_499,
            completedAt: null
          }),
          lesson({
            slug: '12-troubleshooting',
            title: 'Troubleshooting, hands on',
            pack: { id: 'acme', version: '1.0.0' },
            challenge: { variant: 'kubelet-stopped', seed: 42 },
            score: 90,
            virtualMs: 120_500.5
          })
        ])
      }
    ]);
    expect(classCsv(rows)).toBe(
      [
        'student,lesson,title,pack,pack_version,status,tasks_done,tasks_total,score,hints_used,solution_shown,virtual_time_s,time_spent_s,challenge_seed,answers_correct,answers_given,updated_at',
        '"Ana, ""the first""",01-cluster-anatomy,Cluster anatomy,,,completed,2,2,,1,no,31,125,,1,1,2026-12-03T09:05:00.000Z',
        "'=cmd|calc,01-cluster-anatomy,Cluster anatomy,,,started,1,2,,2,yes,,59,,0,1,2026-12-03T09:05:00.000Z",
        '\'=cmd|calc,12-troubleshooting,"Troubleshooting, hands on",acme,1.0.0,completed,2,2,90,1,no,120.501,125,42,1,1,2026-12-03T09:05:00.000Z',
        ''
      ].join('\r\n')
    );
  });
});

describe('class table', () => {
  it('keeps the newest result for the same student and lesson and says which file was replaced', () => {
    const older = lesson({ updatedAt: '2026-12-03T09:05:00.000Z', hintsUsed: 3 });
    const newer = lesson({ updatedAt: '2026-12-03T09:30:00.000Z', hintsUsed: 0 });
    const { rows, replaced } = mergeResults([
      { name: 'new.json', results: file('Ana', [newer]) },
      { name: 'old.json', results: file(' ana ', [older]) },
      { name: 'pack.json', results: file('Ana', [lesson({ pack: { id: 'acme', version: '2' } })]) }
    ]);
    expect(rows.map((r) => [r.student, r.lessonKey, r.file, r.lesson.hintsUsed])).toEqual([
      ['Ana', '01-cluster-anatomy', 'new.json', 0],
      ['Ana', 'pack:acme/01-cluster-anatomy', 'pack.json', 1]
    ]);
    expect(replaced).toEqual([
      {
        student: 'Ana',
        lessonKey: '01-cluster-anatomy',
        title: 'Cluster anatomy',
        kept: 'new.json',
        dropped: 'old.json'
      }
    ]);
  });

  it('sorts by any column with empty values last, and filters by student and lesson', () => {
    const { rows } = mergeResults([
      {
        name: 'a',
        results: file('Ana', [
          lesson({ score: 70, virtualMs: 50_000 }),
          lesson({ slug: 'x', score: null, virtualMs: null })
        ])
      },
      { name: 'b', results: file('bo', [lesson({ score: 95, virtualMs: 20_000, hintsUsed: 4 })]) },
      { name: 'c', results: file('Cy', [lesson({ score: 10, virtualMs: 90_000, hintsUsed: 0 })]) }
    ]);
    const order = (r: ClassRow) => (r.lesson.slug === 'x' ? 2 : 1);
    const names = (rs: ClassRow[]) => rs.map((r) => `${r.student}/${r.lesson.slug}`);
    expect(names(sortRows(rows, 'score', 'descending', order))).toEqual([
      'bo/01-cluster-anatomy',
      'Ana/01-cluster-anatomy',
      'Cy/01-cluster-anatomy',
      'Ana/x'
    ]);
    expect(names(sortRows(rows, 'time', 'ascending', order))).toEqual([
      'bo/01-cluster-anatomy',
      'Ana/01-cluster-anatomy',
      'Cy/01-cluster-anatomy',
      'Ana/x'
    ]);
    expect(names(sortRows(rows, 'student', 'descending', order))).toEqual([
      'Cy/01-cluster-anatomy',
      'bo/01-cluster-anatomy',
      'Ana/01-cluster-anatomy',
      'Ana/x'
    ]);
    expect(names(sortRows(rows, 'hints', 'ascending', order))[0]).toBe('Cy/01-cluster-anatomy');
    expect(names(filterRows(rows, 'AN', ''))).toEqual(['Ana/01-cluster-anatomy', 'Ana/x']);
    expect(names(filterRows(rows, '', 'x'))).toEqual(['Ana/x']);
    expect(names(filterRows(rows, 'bo', 'x'))).toEqual([]);
  });
});
