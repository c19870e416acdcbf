import { describe, expect, it } from 'vitest';
import { english, packZip, readPackFolder } from '../../../tests/fixtures/packs/read';
import { importPack, type ImportProgress } from './import';
import { replayLesson } from './replay';
import type { PackInput } from '../persist';
import { writeZip } from './zip';

const replay = async (l: Parameters<typeof replayLesson>[0]) => replayLesson(l);

describe('importPack', () => {
  it('reads, validates, replays each lesson and only then saves', async () => {
    const saved: PackInput[] = [];
    const stages: ImportProgress[] = [];
    const out = await importPack(packZip('valid'), 'night-shift.zip', {
      replay,
      save: async (p) => (saved.push(p), {}),
      onProgress: (p) => stages.push(p)
    });
    expect(out.ok).toBe(true);
    expect(english(out.issues)).toEqual([]);
    expect(out.replays.map((r) => r.ok)).toEqual([true]);
    expect(saved).toEqual([{ manifest: out.manifest, files: readPackFolder('valid') }]);
    expect(stages).toEqual([
      { stage: 'reading' },
      { stage: 'validating' },
      { stage: 'replaying', done: 0, total: 1, lesson: '01-cordon' },
      { stage: 'saving' }
    ]);
  });

  it('refuses a pack whose lesson fails the replay, naming file, line and task, and saves nothing', async () => {
    const files = readPackFolder('valid');
    // The task is already done at the start: worker-1 is not cordoned before the learner acts.
    files['01-cordon/lesson.yaml'] = files['01-cordon/lesson.yaml'].replace(
      'check: { node: { name: worker-1, unschedulable: true } }',
      'check: { not: { node: { name: worker-1, unschedulable: true } } }'
    );
    let saves = 0;
    const out = await importPack(writeZip(files), 'p.zip', { replay, save: async () => (saves++, {}) });
    expect(out.ok).toBe(false);
    expect(saves).toBe(0);
    expect(english(out.issues)).toEqual([
      {
        file: '01-cordon/lesson.yaml',
        line: 15,
        field: 'spec.tasks[0] (cordon)',
        message: 'task "cordon" already holds in the starting state: the learner would have nothing to do'
      }
    ]);
  });

  it('refuses a zip with a path that climbs out before looking at any lesson', async () => {
    const files = { ...readPackFolder('valid'), '../../evil': 'x' };
    const { zipSync, strToU8 } = await import('fflate');
    const bytes = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
    const out = await importPack(bytes, 'evil.zip', { replay, save: async () => ({}) });
    expect(out).toEqual({
      ok: false,
      issues: [
        {
          file: 'evil.zip: ../../evil',
          message: 'a path that climbs out of the pack (..) is not allowed',
          code: 'pathClimbs'
        }
      ],
      replays: []
    });
  });

  it('reports an older version refused by the store as a pack.yaml version issue', async () => {
    const out = await importPack(packZip('valid'), 'p.zip', {
      replay,
      save: async () => {
        throw new Error('pack "night-shift" version 1.0.0 is older than the installed version 2.0.0');
      }
    });
    expect(out.ok).toBe(false);
    expect(english(out.issues)).toEqual([
      {
        file: 'pack.yaml',
        field: 'version',
        message: 'pack "night-shift" version 1.0.0 is older than the installed version 2.0.0'
      }
    ]);
  });
});
