import { describe, expect, it } from 'vitest';
import { frontmatterPlace, hoverDoc, specIds, suggestions } from './frontmatter';
import { templateLesson } from './files';

describe('lesson text front matter help', () => {
  const { files } = templateLesson();
  const md = files['lesson.en.md'];
  const lineOf = (s: string) => md.split('\n').findIndex((l) => l.startsWith(s)) + 1;

  it("knows where a line sits: top level, a task's fields, outside the front matter", () => {
    expect(frontmatterPlace(md, lineOf('title:'))).toEqual({ path: [], key: 'title' });
    expect(frontmatterPlace(md, lineOf('    title: Answer'))).toEqual({
      path: ['tasks', 'run-hello'],
      key: 'title'
    });
    expect(frontmatterPlace(md, lineOf('## A pod'))).toBeUndefined();
  });

  it('suggests the schema fields at the top and lesson.yaml ids below tasks and questions', () => {
    expect(suggestions({ path: [] }, files['lesson.yaml']).map((s) => s.label)).toEqual([
      'title',
      'summary',
      'minutes',
      'objectives',
      'tasks',
      'questions',
      'disabled',
      'learned',
      'variants'
    ]);
    expect(suggestions({ path: ['tasks'] }, files['lesson.yaml']).map((s) => s.label)).toEqual(['run-hello']);
    expect(suggestions({ path: ['tasks', 'run-hello'] }, files['lesson.yaml']).map((s) => s.label)).toEqual([
      'title',
      'hints'
    ]);
    expect(
      suggestions({ path: ['questions', 'who-places', 'options'] }, files['lesson.yaml']).map((s) => s.label)
    ).toEqual(['kubelet', 'scheduler', 'apiserver']);
  });

  it('reads the ids from lesson.yaml and shows a hover for fields only', () => {
    expect(specIds(files['lesson.yaml']).tasks).toEqual(['run-hello']);
    expect(specIds('not: [valid').tasks).toEqual([]);
    expect(hoverDoc(md, lineOf('learned:'))).toBe('Facts learned, shown in the end-of-lesson summary.');
    expect(hoverDoc(md, lineOf('  run-hello:'))).toBeUndefined();
  });
});
