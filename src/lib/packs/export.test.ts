import { describe, expect, it } from 'vitest';
import { bundledLessons, lessonFolder } from '../lessons/bundle';
import { lessonPackFiles, lessonPackZip } from './export';
import { replayLesson } from './replay';
import { validatePack } from './validate';
import { readPackZip } from './zip';

describe('exporting a built-in lesson as a pack', () => {
  const lesson = bundledLessons().lessons.find((l) => l.slug === '05-scheduler')!;

  it('holds pack.yaml and the lesson folder byte for byte', () => {
    const folder = lessonFolder('05-scheduler');
    expect(Object.keys(folder).sort()).toEqual([
      'lesson.en.md',
      'lesson.ru.md',
      'lesson.yaml',
      'scenario.yaml'
    ]);
    const files = lessonPackFiles(lesson, folder);
    expect(files['pack.yaml']).toBe(
      [
        'id: scheduler',
        'title:',
        `  en: ${lesson.text.en.title}`,
        `  ru: ${lesson.text.ru.title}`,
        'author: Nodeplane',
        'languages:',
        '  - en',
        '  - ru',
        'version: 1.0.0',
        ''
      ].join('\n')
    );
    expect(files['05-scheduler/lesson.yaml']).toBe(folder['lesson.yaml']);
  });

  it('imports back: it validates and its replay passes', () => {
    const { files } = readPackZip(lessonPackZip(lesson, lessonFolder('05-scheduler')));
    const { pack, issues } = validatePack(files!);
    expect(issues).toEqual([]);
    expect(pack!.lessons.map((l) => l.slug)).toEqual(['pack:scheduler/scheduler']);
    const r = replayLesson(pack!.lessons[0]);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
