/**
 * The lab controller: owns one LabSession (cluster + clock + time travel), runs it from
 * requestAnimationFrame, and publishes a reactive view model at most once per frame. Views read
 * `lab.view`, `lab.now`, `lab.playing`...; they change the cluster only through `fault()`,
 * `exec()` (the console) and `applyYaml()` (the editor), the same doors a learner has.
 */
import type { Cluster } from '$lib/sim/cluster';
import { ConsoleSession, type ConsoleOptions, type WatchHandle } from '$lib/sim/kubectl/console';
import { applyManifests, parseManifests, type ManifestIssue } from '$lib/sim/manifests';
import { getSchedulingHistory } from '$lib/sim/scheduler/component';
import type { SchedulingAttempt } from '$lib/sim/scheduler/types';
import { loadComponentKinds, placeholderCluster, PLACEHOLDER_FILE } from './dev-cluster';
import { loadBootstrap } from './integrations';
import { LabSession, type LabRecording, type Speed } from './session';
import { ViewBuilder, type LabView } from './viewmodel';
import { recordReady, type ReadyChange } from './history';
import { checkResizable, nodeResizes, RESIZE_FAULT } from './resize';
import { trace as traceConnection, type TraceResult } from '$lib/sim/network/trace';

export interface ConsoleLine {
  id: number;
  kind: 'input' | 'stdout' | 'stderr';
  text: string;
}

export type Selection =
  { kind: 'node'; name: string } | { kind: 'pod'; key: string } | { kind: 'component'; name: string };

export interface LabOptions {
  scenario: string;
  fileName: string;
  console?: Pick<ConsoleOptions, 'disabled' | 'files'>;
  /** Called after every frame in which the clock moved or the learner acted. */
  onFrame?: (cluster: Cluster) => void;
}

export interface ApplyResult {
  ok: boolean;
  message: string;
  issues: ManifestIssue[];
}

const ANNOUNCED = new Set([
  'NodeNotReady',
  'TaintManagerEviction',
  'Evicted',
  'FailedScheduling',
  'Preempted'
]);
const MAX_CONSOLE_LINES = 2000;
/**
 * While the clock runs, the view model is published at most this often (wall ms), or sooner once
 * PUBLISH_EVERY_VIRTUAL_MS of virtual time went by (fast speeds skip no state a learner must see);
 * the clock itself moves every frame. Rendering 20 node cards and 600 pods 60 times a second costs
 * more than a frame has; at 60× this publishes about 12 times a second.
 */
export const PUBLISH_EVERY_MS = 100;
export const PUBLISH_EVERY_VIRTUAL_MS = 5_000;

export class Lab {
  view = $state.raw<LabView | undefined>(undefined);
  /** Virtual time, updated every frame (the view model may lag it by up to PUBLISH_EVERY_MS). */
  clock = $state(0);
  playing = $state(false);
  speed = $state<Speed>(1);
  selected = $state<Selection | undefined>(undefined);
  consoleLines = $state<ConsoleLine[]>([]);
  /** Text for the polite live region (NodeNotReady, evictions). */
  announcement = $state('');
  /** The bootstrap module is missing from this build: a static placeholder cluster is shown. */
  placeholder = $state(false);
  snapshotTimes = $state.raw<number[]>([]);
  lagging = $state(false);
  /** A simulator error that stopped the clock (shown to the learner; the lab stays usable). */
  simError = $state('');
  readyHistory = $state.raw<Record<string, ReadyChange[]>>({});
  /** The last packet trace (console `nodeplane trace` or the network view), drawn on the map. */
  trace = $state.raw<TraceResult | undefined>(undefined);

  session!: LabSession;
  console!: ConsoleSession;

  private opts: LabOptions;
  private raf = 0;
  private idleHandle = 0;
  private builder?: ViewBuilder;
  private lastWall = 0;
  private dirty = true;
  /** The learner acted (or the cluster was replaced): publish in this frame, whatever the throttle. */
  private urgent = true;
  private lastPublish = Number.NEGATIVE_INFINITY;
  private generation = -1;
  private announcedUpTo = 0;
  private watches: WatchHandle[] = [];
  private lineId = 0;
  private uiTraces = 0;

  private constructor(opts: LabOptions) {
    this.opts = opts;
  }

  static async create(opts: LabOptions): Promise<Lab> {
    const lab = new Lab(opts);
    const [createCluster] = await Promise.all([loadBootstrap(), loadComponentKinds()]);
    lab.placeholder = !createCluster;
    const make = createCluster
      ? () => createCluster(opts.scenario, { fileName: opts.fileName }).cluster
      : () => placeholderCluster();
    lab.session = new LabSession({
      createCluster: make,
      wallClock: () => performance.now(),
      // Simulation per frame; with rendering (up to ~10 ms for a 20-node map) a frame stays short.
      frameBudgetMs: 8,
      performers: {
        console: (cluster, line) => {
          const r = new ConsoleSession(cluster, lab.consoleOptions()).exec(line);
          r.watch?.stop();
        },
        apply: (cluster, yaml, fileName) => lab.applyTo(cluster, yaml, fileName)
      }
    });
    lab.syncCluster();
    return lab;
  }

  get cluster(): Cluster {
    return this.session.cluster;
  }

  get now(): number {
    return this.clock;
  }

  get scenarioFile(): string {
    return this.placeholder ? PLACEHOLDER_FILE : this.opts.fileName;
  }

  /** Start the animation-frame loop (browser only). */
  start(): void {
    if (this.raf) return;
    this.lastWall = performance.now();
    const tick = (wall: number) => {
      const delta = wall - this.lastWall;
      this.lastWall = wall;
      this.guard(() => {
        if (this.session.frame(delta)) this.dirty = true;
      });
      this.lagging = this.session.lagging;
      this.flush();
      if (this.session.snapshotDue) this.whenIdle();
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  /** Take the time-travel snapshot the session put off, in the browser's idle time. */
  private whenIdle(): void {
    if (this.idleHandle) return;
    const run = (remaining: number) => {
      this.idleHandle = 0;
      if (!this.raf) return;
      this.guard(() => {
        if (this.session.idle(remaining)) this.snapshotTimes = this.session.snapshotTimes();
      });
    };
    this.idleHandle =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback((d) => run(d.timeRemaining()), { timeout: 60_000 })
        : window.setTimeout(() => run(0), 250);
  }

  stop(): void {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    if (this.idleHandle) {
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(this.idleHandle);
      else clearTimeout(this.idleHandle);
      this.idleHandle = 0;
    }
    for (const w of this.watches) w.stop();
    this.watches = [];
  }

  togglePlay(): void {
    this.setPlaying(!this.playing);
  }

  setPlaying(on: boolean): void {
    this.playing = on;
    this.session.playing = on;
  }

  setSpeed(s: Speed): void {
    this.speed = s;
    this.session.speed = s;
  }

  stepEvent(): void {
    this.setPlaying(false);
    this.guard(() => this.session.step());
    this.touch();
  }

  advanceBy(ms: number): void {
    this.guard(() => this.session.advanceBy(ms));
    this.touch();
  }

  jumpTo(t: number): void {
    this.guard(() => this.session.jumpTo(t));
    this.touch();
  }

  /** Run simulator work; an exception pauses the clock and is reported instead of breaking the page. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.setPlaying(false);
      this.simError = e instanceof Error ? e.message : String(e);
      console.error(e);
    }
  }

  reset(): void {
    this.setPlaying(false);
    this.session.reset();
    this.consoleLines = [];
    this.touch();
  }

  /** Replay a saved or shared recording (its scenario must be the one this lab was built with). */
  load(rec: LabRecording): void {
    this.setPlaying(false);
    this.session.load(rec.actions, rec.t);
    this.touch();
  }

  recording(): LabRecording {
    return this.session.recording(this.opts.scenario, this.opts.fileName);
  }

  /** Apply a fault; returns the error message when the simulator refuses it. */
  fault(action: string, target?: string): string | undefined {
    try {
      this.session.perform({ kind: 'fault', action, ...(target ? { target } : {}) });
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    } finally {
      this.touch();
    }
    return undefined;
  }

  /** Run a console line, print its output, and record it for replay. */
  exec(line: string): void {
    this.print('input', this.console.prompt + line);
    const r = this.console.exec(line);
    if (r.trace) this.trace = r.trace;
    if (r.action?.type === 'clear') this.consoleLines = [];
    if (r.stdout) this.print('stdout', r.stdout);
    if (r.stderr) this.print('stderr', r.stderr);
    if (r.watch) this.watches.push(r.watch);
    if (line.trim()) this.session.record({ kind: 'console', line });
    this.touch();
  }

  /**
   * Trace a connection (the network view's form) and show it on the map. Read-only: the cluster's
   * random sequence is untouched. Returns the error message when the trace cannot run.
   */
  traceConnection(from: string, to: string): string | undefined {
    try {
      this.trace = traceConnection(this.cluster, from, to, {
        seed: this.cluster.config.seed + 1000 + ++this.uiTraces
      });
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  clearTrace(): void {
    this.trace = undefined;
  }

  /** Stop `-w` watches (Ctrl+C). */
  interrupt(): void {
    for (const w of this.watches) w.stop();
    this.watches = [];
    this.print('input', '^C');
  }

  /** Apply the editor's YAML through the manifests module and the API, as kubectl apply would. */
  applyYaml(yaml: string, fileName = 'editor.yaml'): ApplyResult {
    try {
      this.session.perform({ kind: 'apply', yaml, fileName });
      return { ok: true, message: '', issues: [] };
    } catch (e) {
      const issues: ManifestIssue[] = (e as { issues?: ManifestIssue[] }).issues ?? [];
      const message = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        message: issues.length ? issues.map((i) => i.message).join('; ') : message,
        issues: issues.length ? issues : [{ file: fileName, line: 1, column: 1, path: '', message }]
      };
    } finally {
      this.touch();
    }
  }

  select(s: Selection | undefined): void {
    this.selected = s;
  }

  /** The stored object for the selection (what `kubectl get -o yaml` shows). */
  selectedObject(): unknown {
    const s = this.selected;
    if (!s) return undefined;
    if (s.kind === 'node') return this.cluster.api.tryGet('Node', undefined, s.name);
    if (s.kind === 'pod') {
      const [ns, name] = s.key.split('/');
      return this.cluster.api.tryGet('Pod', ns, name);
    }
    return undefined;
  }

  consoleOptions(): ConsoleOptions {
    return { ...this.opts.console };
  }

  /** The scheduler's recorded attempts for a pod (`namespace/name`), oldest first. */
  schedulingHistory(podKey: string): SchedulingAttempt[] {
    return getSchedulingHistory(this.cluster, podKey);
  }

  private applyTo(cluster: Cluster, yaml: string, fileName: string): void {
    const { objects } = parseManifests(yaml, fileName);
    const resizes = nodeResizes(cluster, objects);
    checkResizable(objects, resizes);
    applyManifests(cluster, objects, { component: 'kubectl' });
    for (const r of resizes) cluster.applyFault(RESIZE_FAULT, { target: r.target, capacity: r.capacity });
  }

  private print(kind: ConsoleLine['kind'], text: string): void {
    const lines = [...this.consoleLines, { id: ++this.lineId, kind, text: text.replace(/\n$/, '') }];
    this.consoleLines = lines.length > MAX_CONSOLE_LINES ? lines.slice(-MAX_CONSOLE_LINES) : lines;
  }

  private touch(): void {
    this.dirty = true;
    this.urgent = true;
    if (!this.raf) this.flush();
  }

  private syncCluster(): void {
    if (this.generation === this.session.generation) return;
    this.generation = this.session.generation;
    this.simError = '';
    const history = this.console?.history ?? [];
    this.console = new ConsoleSession(this.session.cluster, this.consoleOptions());
    this.console.history = history;
    for (const w of this.watches) w.stop();
    this.watches = [];
    this.trace = undefined;
    this.announcedUpTo = Math.min(this.announcedUpTo, this.session.cluster.eventLog.length);
    this.dirty = true;
    this.urgent = true;
  }

  private flush(): void {
    this.syncCluster();
    if (!this.dirty) return;
    this.clock = this.cluster.now;
    const wall = performance.now();
    if (
      !this.urgent &&
      this.playing &&
      wall - this.lastPublish < PUBLISH_EVERY_MS &&
      this.cluster.now - (this.view?.now ?? 0) < PUBLISH_EVERY_VIRTUAL_MS
    )
      return;
    this.lastPublish = wall;
    this.dirty = false;
    this.urgent = false;
    for (const w of this.watches) {
      const out = w.poll();
      if (out) this.print('stdout', out);
    }
    if (this.builder?.cluster !== this.cluster) this.builder = new ViewBuilder(this.cluster);
    const view = this.builder.build();
    this.view = view;
    this.readyHistory = recordReady(this.readyHistory, view);
    this.snapshotTimes = this.session.snapshotTimes();
    this.announce();
    this.opts.onFrame?.(this.cluster);
  }

  private announce(): void {
    const log = this.cluster.eventLog;
    for (let i = this.announcedUpTo; i < log.length; i++) {
      const e = log[i];
      if (ANNOUNCED.has(e.reason)) this.announcement = `${e.reason} ${e.object}: ${e.message}`;
    }
    this.announcedUpTo = log.length;
  }
}
