import { describe, expect, it } from 'vitest';
import {
  addExtra,
  dirProblem,
  fileOrder,
  packPaths,
  removeExtra,
  renameExtra,
  templateLesson
} from './files';

describe("a lesson draft's files", () => {
  const files = templateLesson().files;

  it('lists the four lesson files first, then the extra files by name', () => {
    const f = addExtra(addExtra(files, 'web.yaml').files!, 'api.yaml').files!;
    expect(fileOrder(f)).toEqual([
      'lesson.yaml',
      'lesson.en.md',
      'lesson.ru.md',
      'scenario.yaml',
      'api.yaml',
      'web.yaml'
    ]);
  });

  it('adds, renames and removes extra files, never the lesson files', () => {
    const added = addExtra(files, 'web.yaml', 'kind: Pod\n').files!;
    expect(added['web.yaml']).toBe('kind: Pod\n');
    const renamed = renameExtra(added, 'web.yaml', 'pod.yaml').files!;
    expect(renamed['pod.yaml']).toBe('kind: Pod\n');
    expect('web.yaml' in renamed).toBe(false);
    expect(removeExtra(renamed, 'pod.yaml').files).toEqual(files);
    expect(renameExtra(files, 'lesson.yaml', 'x.yaml').problem).toBe(
      'lesson.yaml: every lesson needs this file; it cannot be renamed'
    );
    expect(removeExtra(files, 'scenario.yaml').problem).toBe(
      'scenario.yaml: every lesson needs this file; it cannot be removed'
    );
  });

  it('refuses a bad name with the reason and changes nothing', () => {
    expect(addExtra(files, '../evil.yaml')).toEqual({
      problem:
        'name "../evil.yaml": letters, digits, dots, dashes and underscores only, no folders (at most 64)'
    });
    expect(addExtra(files, 'lesson.en.md').problem).toBe(
      'name "lesson.en.md": every lesson has this file already'
    );
    const f = addExtra(files, 'a.yaml').files!;
    expect(renameExtra(f, 'a.yaml', 'lesson.ru.md').problem).toBe(
      'name "lesson.ru.md": every lesson has this file already'
    );
    expect(addExtra(f, 'a.yaml').problem).toBe('name "a.yaml": the lesson has a file with this name');
    expect(addExtra(files, '').problem).toBe('name: a file needs a name');
  });

  it('keys the files like a pack and checks the folder name', () => {
    expect(Object.keys(packPaths({ dir: '90-x', files: { 'lesson.yaml': 'a' } }))).toEqual([
      '90-x/lesson.yaml'
    ]);
    expect(dirProblem('90-my-first-lesson')).toBeUndefined();
    expect(dirProblem('my-lesson')).toBe('a lesson folder is named NN-slug, e.g. 90-my-first-lesson');
  });
});
