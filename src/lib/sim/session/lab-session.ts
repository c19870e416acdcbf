/**
 * A lab session: one simulated cluster driven by wall-clock frames, with time travel.
 *
 * Plain TypeScript (no DOM, no runes): the session host runs it in the lab's Web Worker, and tests
 * and the CLI run it in-process. The host calls `frame(wallDeltaMs)` once per tick; the session maps wall time to virtual time at the
 * chosen speed, keeps snapshots in a bounded ring (considered every `snapshotEvery` virtual ms),
 * and records every learner action (fault, console line, applied YAML) with its virtual time.
 * Jumping back restores the nearest snapshot at or before the target and replays the recorded
 * actions up to it; the same recording, replayed from the start, is what save files and share
 * links carry.
 *
 * Snapshots cost wall time in proportion to the cluster's size, so they are taken only when they
 * pay for themselves: at a boundary, when the simulation run since the last snapshot (what a jump
 * back would replay) cost at least as much as a snapshot. While playing, a snapshot that would not
 * fit in a frame is put off (`snapshotDue`) and taken by `idle()` (the page calls it from
 * `requestIdleCallback`) once the clock pauses or an idle period is long enough, or inline when
 * the replay it saves has grown to `forceAfter` times its cost.
 */
import { Cluster, type ClusterSnapshot } from '../cluster';
import type { SimEvent } from '../engine/engine';

import type { EditRef, LabAction, LabActionInput, LabRecording, Speed } from './protocol';

export { SPEEDS } from './protocol';
export type { LabAction, LabActionInput, LabRecording, Speed } from './protocol';

export interface LabPerformers {
  /** Run one console line against `cluster` (replays discard the output). */
  console(cluster: Cluster, line: string): void;
  /** Apply YAML through the manifests module and the API; throws on any error. */
  apply(cluster: Cluster, yaml: string, fileName: string): void;
  /** Save a `kubectl edit`; throws when the save changed nothing or failed. */
  edit?(cluster: Cluster, ref: EditRef, original: string, yaml: string): void;
}

export interface LabSessionOptions {
  createCluster: () => Cluster;
  performers: LabPerformers;
  /** Wall clock in ms (performance.now in the page; a fake in tests). */
  wallClock: () => number;
  snapshotEvery?: number;
  maxSnapshots?: number;
  /** Work allowed per frame before the sim yields, so frames stay under ~16 ms. */
  frameBudgetMs?: number;
  /** Longest wall gap a frame accounts for (a background tab must not jump hours ahead). */
  maxFrameGapMs?: number;
  /** A snapshot measured to cost at most this many wall ms is taken inside a playing frame. */
  inlineSnapshotMs?: number;
  /** While playing, a put-off snapshot is taken anyway once the replay it saves costs this many times more. */
  forceSnapshotAfter?: number;
  /**
   * `prepareJump()` restores a spare cluster ahead only when a snapshot costs at least this many
   * wall ms (a small cluster restores in a few ms: no spare, no memory held for it).
   */
  spareAboveMs?: number;
}

/** Virtual ms a spare is kept while the clock plays on past its snapshot. */
const SPARE_KEPT_MS = 5 * 60_000;

interface StoredSnapshot {
  t: number;
  actionCount: number;
  snap: ClusterSnapshot;
}

export class LabSession {
  cluster: Cluster;
  actions: LabAction[] = [];
  playing = false;
  speed: Speed = 1;
  /** Increments whenever `cluster` is replaced (restore, reset), so views re-subscribe. */
  generation = 0;
  /** True when the last frame ran out of budget before reaching the wall-clock target. */
  lagging = false;
  /** A snapshot boundary passed while playing and the snapshot was put off until `idle()`. */
  snapshotDue = false;
  /** Wall ms the last snapshot took. */
  snapshotCost = 0;
  /** Wall ms the last restore took (a jump back's fixed cost before its replay). */
  restoreCost = 0;
  private snapshots: StoredSnapshot[] = [];
  private readonly every: number;
  private readonly maxSnapshots: number;
  private readonly budget: number;
  private readonly maxGap: number;
  private readonly inlineMs: number;
  private readonly forceAfter: number;
  /** Virtual time of the next snapshot boundary. */
  private nextAt = 0;
  /** Wall ms spent simulating since the last snapshot: what a jump back to it would replay. */
  private runSince = 0;
  /** Recent wall ms per virtual ms of simulation (what a replay costs). */
  private wallPerVirtual = 0;
  private readonly spareAbove: number;
  /**
   * A cluster restored ahead from a kept snapshot and never run: the next jump back at or after
   * that snapshot takes it instead of restoring (a restore is the same state every time).
   */
  private spare?: { from: StoredSnapshot; cluster: Cluster };

  constructor(private readonly opts: LabSessionOptions) {
    this.every = opts.snapshotEvery ?? 10_000;
    this.maxSnapshots = opts.maxSnapshots ?? 360;
    this.budget = opts.frameBudgetMs ?? 12;
    this.maxGap = opts.maxFrameGapMs ?? 250;
    this.inlineMs = opts.inlineSnapshotMs ?? 4;
    this.forceAfter = opts.forceSnapshotAfter ?? 10;
    this.spareAbove = opts.spareAboveMs ?? 40;
    this.cluster = opts.createCluster();
    this.takeSnapshot();
  }

  get now(): number {
    return this.cluster.now;
  }

  /** Virtual times of the kept snapshots (oldest first). */
  snapshotTimes(): number[] {
    return this.snapshots.map((s) => s.t);
  }

  /** Advance for one animation frame that lasted `wallDeltaMs`. Returns whether the clock moved. */
  frame(wallDeltaMs: number): boolean {
    if (!this.playing) return false;
    const before = this.cluster.now;
    const deadline = this.opts.wallClock() + this.budget;
    const target =
      this.speed === 'max'
        ? Number.POSITIVE_INFINITY
        : before + Math.min(Math.max(0, wallDeltaMs), this.maxGap) * this.speed;
    this.lagging = !this.runTo(target, deadline) && this.speed !== 'max';
    // Played far past it, the spare would cost more to replay from than a restore: free it.
    if (this.spare && this.cluster.now - this.spare.from.t > SPARE_KEPT_MS) this.spare = undefined;
    return this.cluster.now !== before;
  }

  /**
   * Idle time: take a put-off snapshot when the clock is paused, or when `remainingMs` (the idle
   * period left) covers what the last snapshot cost. Returns whether one was taken.
   */
  idle(remainingMs: number): boolean {
    if (!this.snapshotDue) return false;
    if (this.playing && this.snapshotCost > remainingMs) return false;
    this.takeSnapshot();
    return true;
  }

  /** Process the next pending event (moving the clock to it). */
  step(): SimEvent | null {
    const next = this.cluster.engine.peekTime();
    if (next === undefined) return null;
    this.runTo(next - 1);
    return this.cluster.step() ?? null;
  }

  /** Run `ms` of virtual time now, without a frame budget ("jump to +1 min"). */
  advanceBy(ms: number): void {
    this.runTo(this.cluster.now + ms);
  }

  /** Perform a learner action now and record it. Errors propagate and nothing is recorded. */
  perform(a: LabActionInput): void {
    const action: LabAction = { ...a, t: this.cluster.now };
    this.apply(action);
    this.actions.push(action);
  }

  /** Record an action that already happened (a console line run through the page's own session). */
  record(a: LabActionInput): void {
    this.actions.push({ ...a, t: this.cluster.now });
  }

  /** Jump to virtual time `t`: forward by running, backward by restoring and replaying. */
  jumpTo(t: number): void {
    const target = Math.max(0, Math.round(t));
    if (target >= this.cluster.now) {
      this.runTo(target);
      return;
    }
    let i = this.snapshots.length - 1;
    while (i > 0 && this.snapshots[i].t > target) i--;
    // A spare restored ahead from this snapshot, or from an earlier one when replaying the
    // difference costs less than a restore, saves the restore.
    const spare = this.spare;
    this.spare = undefined;
    const j = spare ? this.snapshots.indexOf(spare.from) : -1;
    const useSpare =
      spare !== undefined &&
      j >= 0 &&
      j <= i &&
      (j === i || (this.snapshots[i].t - spare.from.t) * this.wallPerVirtual < this.restoreCost);
    if (useSpare) i = j;
    const base = this.snapshots[i];
    this.snapshots.length = i + 1;
    const pending = this.actions.slice(base.actionCount).filter((a) => a.t <= target);
    this.actions.length = base.actionCount;
    this.replaceCluster(useSpare ? spare.cluster : this.restore(base));
    this.snapshotDue = false;
    this.runSince = 0;
    this.nextAt = base.t + this.every;
    this.replay(pending, target);
  }

  /**
   * Idle time while paused: restore ahead the snapshot a jump back of `backMs` (the timeline's
   * Shift+←) would start from, so that jump, and any later one up to now, skips the restore.
   * Returns whether it restored one. Only for clusters whose snapshots are costly.
   */
  prepareJump(backMs = 60_000): boolean {
    if (this.playing || this.snapshotCost < this.spareAbove) return false;
    const target = this.cluster.now - backMs;
    let i = this.snapshots.length - 1;
    while (i > 0 && this.snapshots[i].t > target) i--;
    const from = this.snapshots[i];
    if (!from || from.t >= this.cluster.now) return false;
    if (this.spare?.from === from) return false;
    this.spare = { from, cluster: this.restore(from) };
    return true;
  }

  /** Back to the scenario's start; recorded actions are dropped. */
  reset(): void {
    this.spare = undefined;
    this.actions = [];
    this.snapshots = [];
    this.replaceCluster(this.opts.createCluster());
    this.snapshotDue = false;
    this.nextAt = 0;
    this.takeSnapshot();
  }

  /** Replay a recording's actions from a fresh cluster and stop at its time. */
  load(actions: readonly LabAction[], t: number): void {
    this.reset();
    this.replay(actions, t);
  }

  recording(scenario: string, fileName: string): LabRecording {
    return { scenario, fileName, t: this.cluster.now, actions: this.actions.map((a) => ({ ...a })) };
  }

  private replay(actions: readonly LabAction[], t: number): void {
    for (const a of [...actions].sort((x, y) => x.t - y.t)) {
      this.runTo(a.t);
      try {
        this.apply(a);
      } catch {
        // An action that failed when recorded was not recorded; one that fails on replay is skipped.
        continue;
      }
      this.actions.push({ ...a });
    }
    this.runTo(t);
  }

  private apply(a: LabAction): void {
    if (a.kind === 'fault')
      this.cluster.applyFault(a.action, {
        ...(a.target ? { target: a.target } : {}),
        ...(a.mode ? { mode: a.mode } : {})
      });
    else if (a.kind === 'console') this.opts.performers.console(this.cluster, a.line);
    else if (a.kind === 'edit') {
      if (!this.opts.performers.edit) throw new Error('this session cannot replay kubectl edit');
      this.opts.performers.edit(this.cluster, a.ref, a.original, a.yaml);
    } else this.opts.performers.apply(this.cluster, a.yaml, a.fileName);
  }

  private restore(s: StoredSnapshot): Cluster {
    const started = this.opts.wallClock();
    const c = Cluster.restore(s.snap);
    this.restoreCost = this.opts.wallClock() - started;
    return c;
  }

  private replaceCluster(c: Cluster): void {
    this.cluster = c;
    this.generation++;
  }

  /**
   * Run to `target`, considering a snapshot at each boundary. With a wall `deadline` (a playing
   * frame) the run yields when the budget is spent (the clock then stays at the last processed
   * event) and returns false.
   */
  private runTo(target: number, deadline?: number): boolean {
    const engine = this.cluster.engine;
    const clock = this.opts.wallClock;
    // Outside a frame (a jump, +1 min, a replay) nothing waits for the page: take a put-off one now.
    if (deadline === undefined && this.snapshotDue) this.takeSnapshot();
    for (;;) {
      const boundary = this.snapshotDue ? Number.POSITIVE_INFINITY : this.nextAt;
      const stop = Math.min(target, boundary);
      const started = clock();
      const from = engine.now;
      let yielded = false;
      if (deadline === undefined) {
        engine.runUntil(stop);
      } else {
        let n = 0;
        for (;;) {
          const next = engine.peekTime();
          if (next === undefined || next > stop) break;
          engine.step();
          if ((++n & 15) === 0 && clock() >= deadline) {
            yielded = true;
            break;
          }
        }
        if (!yielded) engine.runUntil(stop);
      }
      const spent = clock() - started;
      this.runSince += spent;
      const ran = engine.now - from;
      if (ran > 0) this.wallPerVirtual = spent / ran;
      if (yielded) return false;
      if (stop === boundary) this.atBoundary(deadline !== undefined);
      if (
        deadline !== undefined &&
        this.snapshotDue &&
        this.runSince >= this.forceAfter * Math.max(this.snapshotCost, this.budget)
      )
        this.takeSnapshot();
      if (stop >= target) return true;
      if (deadline !== undefined && clock() >= deadline) return false;
    }
  }

  /** A snapshot boundary: take one if it pays for itself; in a frame, put a costly one off. */
  private atBoundary(inFrame: boolean): void {
    this.nextAt += this.every;
    if (this.runSince < this.snapshotCost) return;
    if (inFrame && this.snapshotCost > this.inlineMs) this.snapshotDue = true;
    else this.takeSnapshot();
  }

  private takeSnapshot(): void {
    const started = this.opts.wallClock();
    this.snapshots.push({
      t: this.cluster.now,
      actionCount: this.actions.length,
      snap: this.cluster.snapshot()
    });
    this.snapshotCost = this.opts.wallClock() - started;
    this.runSince = 0;
    this.snapshotDue = false;
    if (this.nextAt <= this.cluster.now)
      this.nextAt = this.cluster.now - (this.cluster.now % this.every) + this.every;
    // The scenario's start is always kept, so "back to the start" works however long the run.
    if (this.snapshots.length > this.maxSnapshots) {
      const [dropped] = this.snapshots.splice(1, 1);
      if (this.spare?.from === dropped) this.spare = undefined;
    }
  }
}
