import { describe, expect, it } from 'vitest';
import { Engine, type RepeatingEvent } from './engine';
import { Random } from './random';
import { parseDuration, formatGoDuration } from './duration';

describe('Engine', () => {
  it('runs events in time order, same-time events in scheduling order', () => {
    const e = new Engine(1);
    const seen: string[] = [];
    e.register('a', (ev) => seen.push(`${ev.at}:${ev.type}`));
    e.schedule(20, 'a', 'late');
    e.schedule(10, 'a', 'first');
    e.schedule(10, 'a', 'second');
    e.runUntil(15);
    expect(seen).toEqual(['10:first', '10:second']);
    expect(e.now).toBe(15);
    e.runUntil(100);
    expect(seen).toEqual(['10:first', '10:second', '20:late']);
  });

  it('a quiet repeating event keeps the times and places a handler rescheduling itself would have', () => {
    // The same story twice: a 'tick' every 10 ms that only counts, and other events, some at the
    // tick's instants, scheduled before and after it. The first engine dispatches every tick; the
    // second lets the tick go quiet between 25 and 75 and reads the last tick from the event.
    const run = (quiet: boolean) => {
      const e = new Engine(1);
      const seen: string[] = [];
      let lastTick = 0;
      let timer: RepeatingEvent | undefined;
      const last = () => (timer ? timer.at - timer.period : lastTick);
      e.register('tick', (ev) => {
        lastTick = ev.at;
        seen.push(`${ev.at}:tick`);
        if (quiet && ev.at >= 20 && ev.at < 70)
          timer = e.scheduleRepeating(10, 'tick', 'tick', undefined, 10);
        else e.schedule(10, 'tick', 'tick');
      });
      e.register('other', (ev) => {
        seen.push(`${ev.at}:${ev.type} last tick ${last()}`);
        if (ev.type === 'wake' && timer) {
          lastTick = last();
          timer.quiet = false;
          timer = undefined;
        }
        if (ev.at < 90) e.schedule(10, 'other', ev.type);
      });
      e.schedule(0, 'other', 'before');
      e.schedule(0, 'tick', 'tick');
      e.schedule(0, 'other', 'after');
      e.schedule(5, 'other', 'between');
      e.scheduleAt(70, 'other', 'wake');
      const processed: number[] = [];
      for (let t = 0; t <= 100; t += 10) {
        e.runUntil(t);
        processed.push(e.processed, e.pendingCount());
      }
      return { seen: seen.filter((l) => quiet || !/^(3|4|5|6)\d:tick$/.test(l)), processed };
    };
    const plain = run(false);
    const quiet = run(true);
    expect(quiet.seen).toEqual(plain.seen);
    expect(quiet.processed).toEqual(plain.processed);
    expect(plain.seen).toContain('40:before last tick 30');
    expect(plain.seen).toContain('40:after last tick 40');
  });

  it('a snapshot holds a quiet repeating event as the plain event of its next pass', () => {
    const e = new Engine(1);
    const seen: number[] = [];
    e.register('t', (ev) => seen.push(ev.at));
    e.runUntil(3);
    const timer = e.scheduleRepeating(5, 't', 'tick', { epoch: 1 }, 5);
    e.runUntil(20);
    expect(seen).toEqual([]);
    const snap = e.snapshot();
    expect(snap.queue).toEqual([{ at: 23, seq: timer.seq, target: 't', type: 'tick', data: { epoch: 1 } }]);
    expect(Object.isFrozen(snap.queue[0])).toBe(true);
    const restored = Engine.fromSnapshot(snap);
    restored.register('t', (ev) => seen.push(ev.at));
    restored.runUntil(30);
    expect(seen).toEqual([23]);
  });

  it('step() jumps to the next event and cancel() drops one', () => {
    const e = new Engine(1);
    const seen: number[] = [];
    e.register('a', (ev) => seen.push(ev.at));
    const id = e.schedule(5, 'a', 'x');
    e.schedule(7, 'a', 'y');
    e.cancel(id);
    expect(e.step()?.at).toBe(7);
    expect(seen).toEqual([7]);
    expect(e.step()).toBeNull();
  });

  it('runs thousands of events in (time, scheduling) order with cancellations and events scheduled while running', () => {
    const e = new Engine(7);
    const r = new Random(99);
    const seen: { at: number; seq: number }[] = [];
    const expected: { at: number; seq: number }[] = [];
    const cancelled = new Set<number>();
    e.register('t', (ev) => {
      seen.push({ at: ev.at, seq: ev.seq });
      // Some handlers schedule more, at the same instant or later.
      if (ev.type === 'spawn') {
        for (const d of [0, r.int(50)]) {
          const seq = e.schedule(d, 't', 'leaf');
          expected.push({ at: ev.at + d, seq });
        }
      }
    });
    for (let i = 0; i < 5000; i++) {
      const at = r.int(2000);
      const seq = e.scheduleAt(at, 't', i % 7 === 0 ? 'spawn' : 'leaf');
      if (i % 5 === 0) {
        e.cancel(seq);
        cancelled.add(seq);
      } else expected.push({ at, seq });
    }
    e.runUntil(10_000);
    expected.sort((a, b) => a.at - b.at || a.seq - b.seq);
    expect(seen).toHaveLength(expected.length);
    expect(seen).toEqual(expected);
    expect(seen.some((s) => cancelled.has(s.seq))).toBe(false);
    expect(e.pendingCount()).toBe(0);
  });

  it('a restored snapshot continues with the same events and random numbers', () => {
    const build = () => {
      const e = new Engine(42);
      const out: string[] = [];
      e.register('t', (ev) => {
        out.push(`${ev.at}:${e.random.int(1000)}`);
        e.schedule(1000 + e.random.int(500), 't', 'tick');
      });
      e.schedule(0, 't', 'tick');
      return { e, out };
    };
    const a = build();
    a.e.runUntil(5000);
    const snap = JSON.parse(JSON.stringify(a.e.snapshot()));
    a.e.runUntil(20_000);
    const restored = Engine.fromSnapshot(snap);
    const out2: string[] = [];
    restored.register('t', (ev) => {
      out2.push(`${ev.at}:${restored.random.int(1000)}`);
      restored.schedule(1000 + restored.random.int(500), 't', 'tick');
    });
    restored.runUntil(20_000);
    const tail = a.out.filter((s) => parseInt(s) > 5000);
    expect(out2).toEqual(tail);
    expect(tail.length).toBeGreaterThan(5);
  });
});

describe('Engine queue keys', () => {
  it('keeps (time, scheduling) order past its first key arrays and through a snapshot', () => {
    const r = new Random(5);
    const e = new Engine(3);
    const seen: number[] = [];
    e.register('t', (ev) => seen.push(ev.seq));
    const expected: { at: number; seq: number }[] = [];
    // 3,000 events (the key arrays start at 1,024 and grow twice), many at the same instant.
    for (let i = 0; i < 3000; i++) {
      const at = r.int(300);
      expected.push({ at, seq: e.scheduleAt(at, 't', 'x') });
    }
    expected.sort((a, b) => a.at - b.at || a.seq - b.seq);
    e.runUntil(99);
    const restored = Engine.fromSnapshot(JSON.parse(JSON.stringify(e.snapshot())));
    const after: number[] = [];
    restored.register('t', (ev) => after.push(ev.seq));
    expect(restored.peekTime()).toBe(e.peekTime());
    e.runUntil(1000);
    restored.runUntil(1000);
    expect(seen).toEqual(expected.map((x) => x.seq));
    expect(after).toEqual(expected.filter((x) => x.at > 99).map((x) => x.seq));
  });
});

describe('durations', () => {
  it('parses Go-style durations', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(() => parseDuration('ten')).toThrow(/invalid duration "ten"/);
  });
  it('formats like Go time.Duration', () => {
    expect(formatGoDuration(300_000)).toBe('5m0s');
    expect(formatGoDuration(3_723_000)).toBe('1h2m3s');
    expect(formatGoDuration(10_000)).toBe('10s');
  });
});

describe('Engine lanes', () => {
  /**
   * One story of periodic passes (some quiet repeating), one-off events at the same instants,
   * cancellations and a step-by-step stretch, on an engine with or without lanes for the periods.
   */
  const story = (lanes: boolean) => {
    const e = new Engine(11);
    const r = new Random(4);
    if (lanes) for (const p of [10, 25, 40]) e.declarePeriod(p);
    const seen: string[] = [];
    const counts: number[] = [];
    const quiet = new Map<string, RepeatingEvent>();
    e.register('t', (ev) => {
      seen.push(`${ev.at}/${ev.seq}:${ev.type}`);
      const [kind, period] = ev.type.split(':');
      if (kind !== 'loop') return;
      // One pass in six goes quiet for a while; another event wakes them.
      if (r.int(6) === 0) quiet.set(ev.type, e.scheduleRepeating(+period, 't', ev.type, undefined, +period));
      else e.schedule(+period, 't', ev.type);
      const id = e.schedule([0, 10, 25, 7][r.int(4)], 't', 'once');
      if (r.int(4) === 0) e.cancel(id);
      if (r.int(2) === 0) {
        const sleeping = [...quiet.values()][0];
        if (sleeping) {
          sleeping.quiet = false;
          quiet.delete(sleeping.type);
        }
      }
    });
    for (const p of [10, 25, 40]) for (let i = 0; i < 30; i++) e.schedule(r.int(p), 't', `loop:${p}`);
    for (let t = 0; t <= 2000; t += 100) {
      e.runUntil(t);
      counts.push(e.pendingCount());
    }
    for (let i = 0; i < 50; i++) e.step();
    return { e, seen, counts, next: e.peekTime(), snap: JSON.stringify(e.snapshot()) };
  };

  it('queue events in the same (time, scheduling) order as the heap alone, with the same counts and snapshots', () => {
    const heap = story(false);
    const lanes = story(true);
    expect(lanes.seen.length).toBeGreaterThan(5000);
    expect(lanes.seen).toEqual(heap.seen);
    expect(lanes.counts).toEqual(heap.counts);
    expect(lanes.next).toBe(heap.next);
    expect(lanes.snap).toBe(heap.snap);
    // A quiet pass in a lane still counts as processed.
    expect(lanes.e.processed).toBe(heap.e.processed);
  });

  it('a cancelled event at a lane head is dropped, not dispatched', () => {
    const e = new Engine(1);
    e.declarePeriod(10);
    const seen: string[] = [];
    e.register('t', (ev) => seen.push(`${ev.at}:${ev.type}`));
    const a = e.schedule(10, 't', 'a');
    e.schedule(10, 't', 'b');
    e.scheduleAt(10, 't', 'c');
    e.cancel(a);
    expect(e.pendingCount()).toBe(3);
    expect(e.peekTime()).toBe(10);
    expect(e.pendingCount()).toBe(2);
    e.runUntil(10);
    expect(seen).toEqual(['10:b', '10:c']);
  });
});

describe('Random.uid', () => {
  it('is the four draws of hex(32) as an RFC 4122 version 4 uid, and leaves the source where hex(32) does', () => {
    for (const seed of [1, 7, 42]) {
      const a = new Random(seed);
      const b = new Random(seed);
      for (let i = 0; i < 100; i++) {
        const h = a.hex(32);
        const want = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
        const uid = b.uid();
        expect(uid).toBe(want);
        expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
      }
      expect(b.next()).toBe(a.next());
    }
  });
});
