import { describe, expect, it } from 'vitest';
import { describeMachine } from '$lib/sim/observe/machines';
import { layoutMachine } from './machine-layout';

describe('machine layout', () => {
  it('places every state of each machine inside the drawing, with no two leaf boxes overlapping', () => {
    for (const id of ['nodeHealth', 'container', 'kubelet', 'etcdMember', 'nodeGroup'] as const) {
      const def = describeMachine(id);
      const lay = layoutMachine(def, []);
      const leaves = lay.boxes.filter((b) => !b.compound);
      for (const s of def.states)
        expect(
          lay.boxes.some((b) => b.id === s.id),
          `${id} ${s.id}`
        ).toBe(true);
      for (const b of lay.boxes) {
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.w).toBeLessThanOrEqual(lay.width);
        expect(b.y + b.h).toBeLessThanOrEqual(lay.height);
      }
      for (const a of leaves)
        for (const b of leaves)
          if (a !== b) {
            const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
            expect(apart, `${a.id} / ${b.id}`).toBe(true);
          }
    }
  });

  it('draws a guarded fan-out to every terminated reason as one edge to the compound state', () => {
    const lay = layoutMachine(describeMachine('container'), []);
    const fromRunning = lay.edges.filter((e) => e.source === 'running').map((e) => [e.target, e.events]);
    expect(fromRunning).toEqual([
      ['terminated', ['EXITED']],
      ['waiting.CrashLoopBackOff', ['CRASH_BACK_OFF']]
    ]);
  });

  it('draws STARTED once from the waiting group: every waiting reason can start the container', () => {
    const lay = layoutMachine(describeMachine('container'), []);
    const started = lay.edges
      .filter((e) => e.events.includes('STARTED'))
      .map((e) => `${e.source}→${e.target}`);
    expect(started.sort()).toEqual(['terminated→running', 'waiting→running']);
  });

  it('marks the edges the path took, including one from "any state"', () => {
    const lay = layoutMachine(describeMachine('nodeHealth'), [
      { value: 'registered', at: 0 },
      { value: 'ready', event: 'OBSERVED', at: 5_000 },
      { value: 'unknown', event: 'GRACE_EXPIRED', at: 60_000 }
    ]);
    const taken = lay.edges.filter((e) => e.taken).map((e) => `${e.source}→${e.target}`);
    expect(taken.sort()).toEqual(['*→ready', 'ready→unknown']);
  });
});
