import { describe, expect, it } from 'vitest';
import { Cluster, addTestComponent, addTestFault, type Component } from '$lib/sim/cluster';
import type { SimEvent } from '$lib/sim/engine/engine';
import { LabSession, type LabPerformers } from './lab-session';

/** A component that ticks every second and counts; a fault pauses it. */
class Ticker implements Component {
  readonly id = 'ticker';
  readonly kind = 'test-ticker';
  readonly args = {};
  state = { ticks: 0, paused: false };
  constructor(private c: Cluster) {}
  start() {
    this.c.engine.schedule(1000, this.id, 'tick');
  }
  handle(ev: SimEvent) {
    if (ev.type !== 'tick') return;
    if (!this.state.paused) this.state.ticks++;
    this.c.engine.schedule(1000, this.id, 'tick');
  }
  getState() {
    return this.state;
  }
  setState(s: unknown) {
    this.state = structuredClone(s) as Ticker['state'];
  }
}
addTestComponent('test-ticker', (c) => new Ticker(c));

/** The wall clock of the costly-snapshot tests: each snapshot of this component takes 30 ms. */
const heavyWall = { now: 0 };
class Heavy implements Component {
  readonly id = 'heavy';
  readonly kind = 'test-heavy';
  readonly args = {};
  start() {}
  handle() {}
  getState() {
    heavyWall.now += 30;
    return {};
  }
  setState() {}
}
addTestComponent('test-heavy', () => new Heavy());
addTestFault('TestPause', 'pause the ticker', (c) => (c.component<Ticker>('ticker')!.state.paused = true));
addTestFault('TestResume', 'resume the ticker', (c) => (c.component<Ticker>('ticker')!.state.paused = false));

const ticks = (s: LabSession) => s.cluster.component<Ticker>('ticker')!.state.ticks;

function makeSession(wall = { now: 0 }, performers?: Partial<LabPerformers>) {
  return new LabSession({
    createCluster: () => {
      const c = new Cluster();
      c.addComponent('test-ticker', {});
      return c;
    },
    wallClock: () => wall.now,
    performers: { console: () => {}, apply: () => {}, ...performers }
  });
}

describe('LabSession', () => {
  it('maps wall time to virtual time at the chosen speed and does nothing while paused', () => {
    const s = makeSession();
    expect(s.frame(16)).toBe(false);
    s.playing = true;
    s.speed = 60;
    s.frame(100);
    expect(s.now).toBe(6000);
    expect(ticks(s)).toBe(6);
    s.speed = 1;
    s.frame(200);
    expect(s.now).toBe(6200);
  });

  it('caps a long wall gap (a background tab) at 250 ms of wall time', () => {
    const s = makeSession();
    s.playing = true;
    s.speed = 600;
    s.frame(10_000);
    expect(s.now).toBe(150_000);
  });

  it('at max speed runs until the frame budget is spent and keeps the clock on the last event', () => {
    const wall = { now: 0 };
    let steps = 0;
    const s = makeSession(wall);
    s.cluster.engine.onEvent(() => {
      if (++steps % 16 === 0) wall.now += 1;
    });
    s.playing = true;
    s.speed = 'max';
    s.frame(16);
    // 12 ms budget at 1 ms per 16 events is spent at event 192; the budget is checked at each
    // 10 s snapshot boundary (one tick per second), so the frame yields after event 200.
    expect(ticks(s)).toBe(200);
    expect(s.now).toBe(200_000);
  });

  it('steps to the next pending event', () => {
    const s = makeSession();
    const ev = s.step();
    expect(ev?.type).toBe('tick');
    expect(s.now).toBe(1000);
    expect(ticks(s)).toBe(1);
  });

  it('keeps a snapshot every 10 virtual seconds in a bounded ring that always keeps t=0', () => {
    const s = new LabSession({
      createCluster: () => {
        const c = new Cluster();
        c.addComponent('test-ticker', {});
        return c;
      },
      wallClock: () => 0,
      performers: { console: () => {}, apply: () => {} },
      maxSnapshots: 5
    });
    s.advanceBy(35_000);
    expect(s.snapshotTimes()).toEqual([0, 10_000, 20_000, 30_000]);
    s.advanceBy(30_000);
    expect(s.snapshotTimes()).toEqual([0, 30_000, 40_000, 50_000, 60_000]);
  });

  it('jumps back by restoring the nearest snapshot and replaying recorded actions', () => {
    const s = makeSession();
    s.advanceBy(15_000);
    s.perform({ kind: 'fault', action: 'TestPause' });
    s.advanceBy(10_000);
    s.perform({ kind: 'fault', action: 'TestResume' });
    s.advanceBy(10_000);
    expect(ticks(s)).toBe(25);
    const gen = s.generation;

    s.jumpTo(20_000);
    expect(s.generation).toBe(gen + 1);
    expect(s.now).toBe(20_000);
    expect(ticks(s)).toBe(15);
    expect(s.actions.map((a) => [a.t, a.kind === 'fault' && a.action])).toEqual([[15_000, 'TestPause']]);

    s.jumpTo(5_000);
    expect(ticks(s)).toBe(5);
    expect(s.actions).toEqual([]);
  });

  it('replays a recording to the same state and time', () => {
    const a = makeSession();
    a.advanceBy(12_000);
    a.perform({ kind: 'fault', action: 'TestPause' });
    a.advanceBy(8_000);
    const rec = a.recording('scenario text', 's.yaml');
    expect(rec).toEqual({
      scenario: 'scenario text',
      fileName: 's.yaml',
      t: 20_000,
      actions: [{ kind: 'fault', action: 'TestPause', t: 12_000 }]
    });
    const b = makeSession();
    b.load(rec.actions, rec.t);
    expect(b.now).toBe(20_000);
    expect(ticks(b)).toBe(12);
    expect(b.cluster.snapshot().components).toEqual(a.cluster.snapshot().components);
  });

  it('does not record a fault the simulator refuses', () => {
    const s = makeSession();
    expect(() => s.perform({ kind: 'fault', action: 'NoSuchFault' })).toThrow(
      /unknown fault action "NoSuchFault"/
    );
    expect(s.actions).toEqual([]);
  });

  it('replays console lines and applied YAML through the performers', () => {
    const seen: string[] = [];
    const s = makeSession(undefined, {
      console: (c, line) => seen.push(`${c.now} console ${line}`),
      apply: (c, yaml, file) => seen.push(`${c.now} apply ${file} ${yaml}`)
    });
    s.advanceBy(3_000);
    s.perform({ kind: 'console', line: 'kubectl cordon worker-1' });
    s.advanceBy(20_000);
    s.perform({ kind: 'apply', yaml: 'kind: Node', fileName: 'editor.yaml' });
    s.jumpTo(5_000);
    expect(seen).toEqual([
      '3000 console kubectl cordon worker-1',
      '23000 apply editor.yaml kind: Node',
      '3000 console kubectl cordon worker-1'
    ]);
  });

  describe('with snapshots that cost more than a frame allows (30 ms each, 1 ms per event)', () => {
    function heavySession(opts: { forceSnapshotAfter?: number } = {}) {
      heavyWall.now = 0;
      const s = new LabSession({
        createCluster: () => {
          const c = new Cluster();
          c.addComponent('test-ticker', {});
          c.addComponent('test-heavy', {});
          c.engine.onEvent(() => (heavyWall.now += 1));
          return c;
        },
        wallClock: () => heavyWall.now,
        performers: { console: () => {}, apply: () => {} },
        ...opts
      });
      s.playing = true;
      s.speed = 60;
      return s;
    }
    const play = (s: LabSession, frames: number) => {
      for (let i = 0; i < frames; i++) s.frame(100);
    };

    it('skips boundaries until the run since the last snapshot cost as much, then puts it off to idle time', () => {
      const s = heavySession();
      expect(s.snapshotCost).toBe(30);
      play(s, 4); // t = 24 s: boundaries at 10 s and 20 s saw 10 and 20 ms of replay, under 30 ms
      expect(s.snapshotTimes()).toEqual([0]);
      expect(s.snapshotDue).toBe(false);
      play(s, 2); // the 30 s boundary: worth it, but 30 ms does not fit in a frame
      expect(s.now).toBe(36_000);
      expect(s.snapshotDue).toBe(true);
      expect(s.snapshotTimes()).toEqual([0]);
      expect(s.idle(16)).toBe(false); // a short idle period while playing
      expect(s.idle(45)).toBe(true);
      expect(s.snapshotTimes()).toEqual([0, 36_000]);
      expect(s.snapshotDue).toBe(false);
    });

    it('takes a put-off snapshot at once when paused, or before running outside a frame', () => {
      const s = heavySession();
      play(s, 6);
      s.playing = false;
      expect(s.idle(0)).toBe(true);
      expect(s.snapshotTimes()).toEqual([0, 36_000]);
      s.playing = true;
      play(s, 6); // the 70 s boundary is due (36 ms of replay since 36 s)
      expect(s.snapshotDue).toBe(true);
      s.advanceBy(1_000);
      expect(s.snapshotTimes()).toEqual([0, 36_000, 72_000]);
    });

    it('takes it inside a frame once the replay it saves costs forceSnapshotAfter times more', () => {
      const s = heavySession({ forceSnapshotAfter: 2 });
      play(s, 5);
      expect(s.snapshotDue).toBe(true); // due at 30 s with 30 ms of replay
      play(s, 5); // 60 ms of replay (2 × 30 ms) is reached at 60 s
      expect(s.snapshotTimes()).toEqual([0, 60_000]);
      expect(s.snapshotDue).toBe(false);
    });

    it('a jump back replays from the nearest kept snapshot', () => {
      const s = heavySession();
      play(s, 6);
      s.idle(45);
      play(s, 4);
      s.jumpTo(40_000);
      expect(s.now).toBe(40_000);
      expect(ticks(s)).toBe(40);
      expect(s.snapshotTimes()).toEqual([0, 36_000]);
    });
  });

  describe('a spare restored ahead in idle time', () => {
    /** A session whose snapshots count as costly (the spare is kept for any cost here). */
    function spareSession() {
      const wall = { now: 0 };
      const s = new LabSession({
        createCluster: () => {
          const c = new Cluster();
          c.addComponent('test-ticker', {});
          return c;
        },
        wallClock: () => wall.now,
        performers: { console: () => {}, apply: () => {} },
        spareAboveMs: 0
      });
      return s;
    }
    function countRestores<T>(fn: () => T): { result: T; restores: number } {
      const restore = Cluster.restore;
      let restores = 0;
      Cluster.restore = (snap) => {
        restores++;
        return restore(snap);
      };
      try {
        return { result: fn(), restores };
      } finally {
        Cluster.restore = restore;
      }
    }

    it('restores the snapshot a minute back while paused, and the jump back takes it', () => {
      const s = spareSession();
      s.advanceBy(15_000);
      s.perform({ kind: 'fault', action: 'TestPause' });
      s.advanceBy(65_000);
      expect(s.now).toBe(80_000);
      expect(countRestores(() => s.prepareJump()).restores).toBe(1); // the snapshot at 20 s
      expect(countRestores(() => s.prepareJump()).restores).toBe(0); // already there
      const { restores } = countRestores(() => s.jumpTo(25_000));
      expect(restores).toBe(0);
      expect(s.now).toBe(25_000);
      expect(ticks(s)).toBe(15); // paused at 15 s, as recorded
      expect(s.actions.map((a) => a.t)).toEqual([15_000]);

      // The same jump without a spare gives the same cluster.
      const b = spareSession();
      b.advanceBy(15_000);
      b.perform({ kind: 'fault', action: 'TestPause' });
      b.advanceBy(65_000);
      expect(countRestores(() => b.jumpTo(25_000)).restores).toBe(1);
      expect(b.cluster.snapshot()).toEqual(s.cluster.snapshot());
    });

    it('is not made while playing or for a cluster whose snapshots are cheap', () => {
      const s = spareSession();
      s.advanceBy(80_000);
      s.playing = true;
      expect(s.prepareJump()).toBe(false);
      const cheap = makeSession();
      cheap.advanceBy(80_000);
      expect(cheap.prepareJump()).toBe(false); // snapshots cost 0 ms, under the 40 ms default
    });

    it('is not taken once its snapshot was dropped by a jump further back, or after a reset', () => {
      const s = spareSession();
      s.advanceBy(80_000);
      expect(s.prepareJump()).toBe(true); // from 20 s
      s.jumpTo(5_000); // restores the start: the 20 s snapshot is gone
      expect(s.snapshotTimes()).toEqual([0]);
      s.advanceBy(10_000);
      expect(countRestores(() => s.jumpTo(12_000)).restores).toBe(1);
      expect(ticks(s)).toBe(12);

      s.advanceBy(70_000);
      expect(s.prepareJump()).toBe(true);
      s.reset();
      s.advanceBy(30_000);
      expect(countRestores(() => s.jumpTo(25_000)).restores).toBe(1);
      expect(ticks(s)).toBe(25);
    });
  });
});
