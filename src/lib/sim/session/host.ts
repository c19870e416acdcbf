/**
 * The session host: the lab session (engine, cluster, time travel), its console and the lesson
 * running next to it, behind the session protocol. The app runs it in a dedicated Web Worker
 * (src/lib/workers/session.worker.ts); tests and the CLI run it in-process with the same messages.
 *
 * The page sends commands; the host replies to each and publishes frames of read models from
 * `sim/observe` — a full frame first, then diffs — at most `publishEveryMs` apart while the clock
 * runs, and at once after a command. Nothing of the live cluster crosses the boundary: frames and
 * replies are plain data.
 *
 * The host has no timers of its own: whoever hosts it calls `tick()` (the worker, from its loop),
 * so the simulation stays on the virtual clock and the host stays deterministic in tests.
 */
import { Cluster } from '../cluster';
import type { EventLogEntry } from '../events/recorder';
import { ConsoleSession, type WatchHandle } from '../kubectl/console';
import { applyManifests, parseManifests, type ManifestIssue } from '../manifests';
import { trace as traceConnection, type TraceResult } from '../network/trace';
import { getSchedulingHistory } from '../scheduler/component';
import { schedulingExplanations } from '../observe/scheduling';
import { formatClock } from '../engine/duration';
import { createCluster } from '../scenario/bootstrap';
import { LessonRunner } from '../../lessons/runner';
import { buildCpModel, type CpModel } from '../observe/controlplane';
import { alertMarks, healthModel } from '../observe/health';
import { prometheus } from '../monitoring/prometheus';
import { ViewBuilder, onlyHeartbeatChanged, type LabView, type NodeView } from '../observe/cluster-map';
import { networkModel, type NetworkModel } from '../observe/network';
import { enableTraffic, trafficModel } from '../observe/traffic';
import { nodeSequence, podSequence, type ObjectSequence } from '../observe/sequence';
import { attemptResults, queuedPodModel, schedulingQueueModel } from '../observe/schedqueue';
import { machinesModel, type MachinesModel } from '../observe/machines';
import { recordReady, type ReadyChange } from '../observe/ready-history';
import { LabSession } from './lab-session';
import { checkResizable, nodeResizes, RESIZE_FAULT, type NodeResize } from './resize';
import { saveEdit, type EditOutcome } from '../kubectl/commands/edit';
import {
  COMMAND_TYPES,
  SPEEDS,
  type ApplyResult,
  type BugReport,
  type ConsoleLine,
  type EditRef,
  type FrameMessage,
  type LabActionInput,
  type LabRecording,
  type LessonOp,
  type LessonStatus,
  type ResultOf,
  type Selection,
  type SessionCommand,
  type SessionInit,
  type SessionMessage,
  type Subscriptions
} from './protocol';
import type { Language } from '../../lessons/format';
import { checkCommand } from './validate';
import { WARMUP_WALL_MS, warmUp } from './warmup';

export interface HostOptions {
  post(message: SessionMessage): void;
  /** Wall clock in ms (performance.now in a worker; a fake in tests). */
  wallClock(): number;
  /** Simulation per tick before the host yields to messages. */
  frameBudgetMs?: number;
  /** Frames are published at most this often while the clock runs (30 per second). */
  publishEveryMs?: number;
  /** Or sooner, once this much virtual time went by (fast speeds skip no state). */
  publishEveryVirtualMs?: number;
}

/** Wall ms between two messages of the quiet start's progress. */
const BOOT_EVERY_MS = 250;

/** Event reasons read out by the page's polite live region. */
const ANNOUNCED = new Set([
  'NodeNotReady',
  'TaintManagerEviction',
  'Evicted',
  'FailedScheduling',
  'Preempted'
]);

/** What the last frame carried, to send only what changed. */
interface Sent {
  generation: number;
  nodes: Map<string, NodeView>;
  order: string;
  pending?: unknown;
  controlPlane?: unknown;
  proxyMode?: string;
  cni?: string;
  podCount?: number;
  events: number;
  eventLog?: readonly EventLogEntry[];
  faults: number;
  readyHistory?: unknown;
  snapshots: string;
  cp: string;
  /** Last scrape time and alert transitions the health model and the alert marks were built from. */
  health: string;
  alertMarks: string;
  network: string;
  /** The request log the traffic dots were read from, and the last record sent. */
  trafficLog?: unknown;
  trafficSeq: number;
  /** The queue model last sent, as JSON ('' while not subscribed). */
  schedQueue: string;
  selection?: {
    object: unknown;
    attempts: number;
    key: string;
    steps: number;
    queue: string;
    machines?: string;
  };
  lesson: string;
  watched: number;
  trace?: TraceResult | null;
  announcement: string;
  simError: string;
  bugReport: BugReport | null;
  prompt: string;
}

const freshSent = (): Sent => ({
  generation: -1,
  nodes: new Map(),
  order: '',
  events: 0,
  faults: 0,
  snapshots: '',
  cp: '',
  health: '',
  alertMarks: '',
  network: '',
  schedQueue: '',
  trafficSeq: 0,
  lesson: '',
  watched: -1,
  announcement: '',
  simError: '',
  bugReport: null,
  prompt: ''
});

/** How many of `log`'s first entries are the very objects the page was sent (`sent[0..count)`). */
function sharedPrefix(
  log: readonly EventLogEntry[],
  sent: readonly EventLogEntry[] | undefined,
  count: number
): number {
  if (!sent) return 0;
  const n = Math.min(log.length, count, sent.length);
  let i = 0;
  while (i < n && log[i] === sent[i]) i++;
  return i;
}

export class SessionHost {
  private lab?: LabSession;
  private console?: ConsoleSession;
  private runner?: LessonRunner;
  private builder?: ViewBuilder;
  private init?: SessionInit;
  /** The learner's language: the console's own help and the lesson's wording. */
  private lang: Language = 'en';
  private subs: Subscriptions = {};
  private selection?: Selection;
  private sent: Sent = freshSent();
  private seq = 0;
  private lineId = 0;
  private generation = -1;
  private lastWall?: number;
  private lastPublish = Number.NEGATIVE_INFINITY;
  private lastPublishedNow = 0;
  private dirty = true;
  private urgent = true;
  private readyHistory: Record<string, ReadyChange[]> = {};
  private announcedUpTo = 0;
  private announcement = '';
  private simError = '';
  private bugReport: BugReport | null = null;
  /** The cluster generation the lab went back to after an error; its message stays while it lasts. */
  private crashGeneration = -1;
  private trace: TraceResult | undefined;
  private uiTraces = 0;
  private watches: WatchHandle[] = [];
  /** Objects `kubectl edit` opened, by kind/namespace/name: the text the editor was given. */
  private edits = new Map<string, string>();
  private readonly budget: number;
  private readonly publishEvery: number;
  private readonly publishEveryVirtual: number;

  constructor(private readonly opts: HostOptions) {
    this.budget = opts.frameBudgetMs ?? 25;
    this.publishEvery = opts.publishEveryMs ?? 33;
    this.publishEveryVirtual = opts.publishEveryVirtualMs ?? 5_000;
  }

  /** The cluster, for in-process hosts' own tests; the page never sees it. */
  get cluster(): Cluster | undefined {
    return this.lab?.cluster;
  }

  get playing(): boolean {
    return this.lab?.playing ?? false;
  }

  /** The last tick ran out of its budget before the clock reached the requested speed. */
  get lagging(): boolean {
    return this.lab?.lagging ?? false;
  }

  /** Take one message from the page: reply to it, then publish what it changed. */
  receive(data: unknown): void {
    const id =
      typeof data === 'object' && data !== null && Number.isInteger((data as { id?: unknown }).id)
        ? (data as { id: number }).id
        : undefined;
    const problem = checkCommand(data);
    if (problem !== undefined) {
      if (id === undefined) this.opts.post({ type: 'protocol-error', error: problem });
      else this.opts.post({ type: 'reply', id, ok: false, error: problem });
      return;
    }
    const command = (data as { command: SessionCommand }).command;
    let result: unknown;
    try {
      result = this.handle(command);
    } catch (e) {
      this.opts.post({
        type: 'reply',
        id: id!,
        ok: false,
        error: e instanceof Error ? e.message : String(e)
      });
      this.touch();
      this.publish();
      return;
    }
    this.opts.post({ type: 'reply', id: id!, ok: true, result: result ?? null });
    this.touch();
    this.publish();
  }

  /**
   * One turn of the host's loop: advance the clock for the wall time since the last tick at the
   * chosen speed (within the frame budget), take a put-off snapshot when there is time, publish
   * when due.
   */
  tick(): void {
    const lab = this.lab;
    if (!lab) return;
    const wall = this.opts.wallClock();
    const delta = this.lastWall === undefined ? 0 : wall - this.lastWall;
    this.lastWall = wall;
    this.guard(() => {
      if (lab.frame(delta)) this.dirty = true;
      if (lab.snapshotDue) lab.idle(lab.playing ? this.budget : Number.POSITIVE_INFINITY);
    });
    this.publish();
  }

  /**
   * Idle work while the clock is paused (the worker calls it a moment after the last message):
   * restore ahead the snapshot a jump back would start from, so a large cluster's jump skips the
   * restore. Publishes nothing (no state the page sees changes). Returns whether it did any.
   */
  idle(): boolean {
    const lab = this.lab;
    if (!lab || lab.playing) return false;
    let did = false;
    this.guard(() => {
      did = lab.prepareJump();
    });
    return did;
  }

  private handle(c: SessionCommand): unknown {
    if (c.type === 'init') return this.start(c.init);
    const lab = this.lab;
    if (!lab) throw new Error(`session not started: send "init" before "${c.type}"`);
    switch (c.type) {
      case 'play':
        return this.setPlaying(true);
      case 'pause':
        return this.setPlaying(false);
      case 'speed':
        lab.speed = c.speed;
        return null;
      case 'step':
        this.setPlaying(false);
        this.guard(() => lab.step());
        return null;
      case 'advance':
        this.guard(() => lab.advanceBy(c.ms));
        return null;
      case 'jump':
        this.guard(() => lab.jumpTo(c.t));
        return null;
      case 'reset':
        return this.reset();
      case 'load':
        this.setPlaying(false);
        lab.load(c.recording.actions, c.recording.t);
        this.runner?.resume();
        this.runner?.frame();
        return null;
      case 'fault':
        return this.learnerFault(c.action, c.target, c.mode);
      case 'exec':
        return this.exec(c.line);
      case 'lang':
        this.lang = c.lang;
        this.runner?.setLang(c.lang);
        return null;
      case 'interrupt':
        for (const w of this.watches) w.stop();
        this.watches = [];
        this.print([{ kind: 'input', text: '^C' }]);
        return null;
      case 'complete':
        return this.console!.complete(c.line) satisfies ResultOf['complete'];
      case 'apply':
        return this.apply(c.yaml, c.fileName ?? 'editor.yaml');
      case 'edit':
        return this.saveEdit(c.ref, c.yaml);
      case 'trace':
        return this.traceConnection(c.from, c.to);
      case 'clearTrace':
        this.trace = undefined;
        return null;
      case 'select':
        this.selection = c.selection;
        return null;
      case 'subscribe':
        this.subs = structuredClone(c.subscriptions);
        return null;
      case 'recording':
        return lab.recording(this.init!.scenario, this.init!.fileName) satisfies ResultOf['recording'];
      case 'eventLog':
        return lab.cluster.eventLog.map((e) => ({ ...e })) satisfies ResultOf['eventLog'];
      case 'lesson':
        return this.lessonOp(c.action);
    }
  }

  private start(init: SessionInit): null {
    if (this.lab) throw new Error('session already started: a session hosts one scenario');
    this.init = structuredClone(init);
    this.lang = init.lang ?? init.lesson?.lang ?? 'en';
    const scenario = init.scenario;
    const fileName = init.fileName;
    // Fail here, with the scenario's own message, rather than inside the first frame.
    const first = createCluster(scenario, { fileName }).cluster;
    // The request log runs from the start: "follow this pod" tells a pod's whole life.
    enableTraffic(first);
    let made = false;
    const lab = new LabSession({
      createCluster: () => {
        if (!made) {
          made = true;
          return first;
        }
        const c = createCluster(scenario, { fileName }).cluster;
        enableTraffic(c);
        return c;
      },
      wallClock: () => this.opts.wallClock(),
      frameBudgetMs: this.budget,
      // No page waits on the worker's snapshots: take them when due.
      inlineSnapshotMs: 50,
      performers: {
        console: (cluster, line) => {
          const r = new ConsoleSession(cluster, this.consoleOptions()).exec(line);
          r.watch?.stop();
        },
        apply: (cluster, yaml, file) => applyTo(cluster, yaml, file),
        edit: (cluster, ref, original, yaml) => {
          const r = editTo(cluster, ref, original, yaml);
          if (!r.changed) throw new Error(r.stderr.trim() || 'kubectl edit changed nothing');
        }
      }
    });
    this.lab = lab;
    if (init.lesson) {
      this.runner = new LessonRunner(init.lesson, {
        get cluster() {
          return lab.cluster;
        },
        exec: (line) => void this.exec(line),
        apply: (yaml, file) => this.apply(yaml, file),
        fault: (action, target, mode) => this.fault(action, target, mode),
        perform: (a: LabActionInput) => lab.perform(a),
        reset: () => this.resetCluster(),
        setPlaying: (on) => void this.setPlaying(on)
      });
    }
    this.syncCluster();
    if (init.recording) {
      lab.load(init.recording.actions, init.recording.t);
      this.runner?.resume();
    } else this.warmUp();
    this.runner?.frame();
    if (init.autoplay) this.setPlaying(true);
    return null;
  }

  /** Open on a cluster that is already up (the init's `warmupMs` caps the quiet start). */
  private warmUp(): void {
    const cap = this.init?.warmupMs ?? 0;
    if (!cap) return;
    const lab = this.lab!;
    const began = this.opts.wallClock();
    let told = -Infinity;
    warmUp(
      (ms) => lab.advanceBy(ms),
      () => lab.cluster,
      cap,
      {
        afterStep: () => this.runner?.frame(),
        outOfTime: () => this.opts.wallClock() - began > WARMUP_WALL_MS,
        progress: (progress) => {
          const wall = this.opts.wallClock();
          if (wall - told < BOOT_EVERY_MS) return;
          told = wall;
          this.opts.post({ type: 'boot', progress });
        }
      }
    );
  }

  private consoleOptions() {
    const runner = () => this.runner;
    return {
      files: { ...(this.init?.files ?? {}), ...(this.init?.lesson?.lesson.spec.spec.files ?? {}) },
      disabled: (argv: string[]) => runner()?.disabledReason(argv),
      lang: () => this.lang
    };
  }

  private setPlaying(on: boolean): null {
    this.lab!.playing = on;
    this.lastWall = undefined;
    return null;
  }

  private resetCluster(): void {
    this.setPlaying(false);
    this.lab!.reset();
    this.print([], true);
  }

  private reset(): null {
    if (this.runner) this.runner.resetLab();
    else this.resetCluster();
    this.warmUp();
    this.runner?.frame();
    return null;
  }

  /** A fault from the page: the lesson may refuse it. */
  private learnerFault(action: string, target?: string, mode?: string): ResultOf['fault'] {
    const refused = this.runner?.faultRefusal(action);
    if (refused) return { error: refused };
    const error = this.fault(action, target, mode);
    return error ? { error } : {};
  }

  private fault(action: string, target?: string, mode?: string): string | undefined {
    try {
      this.lab!.perform({ kind: 'fault', action, ...(target ? { target } : {}), ...(mode ? { mode } : {}) });
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  private exec(line: string): ResultOf['exec'] {
    // Several lines (a lesson's command block) run one after another, each with its prompt.
    if (line.includes('\n')) {
      let result: ResultOf['exec'] = { exitCode: 0 };
      for (const l of line.split(/\r?\n/)) if (l.trim()) result = this.exec(l);
      return result;
    }
    const lab = this.lab!;
    const con = this.console!;
    const lines: Omit<ConsoleLine, 'id'>[] = [{ kind: 'input', text: con.prompt + line }];
    const r = con.exec(line);
    let clear = false;
    if (r.trace) this.trace = r.trace;
    if (r.action?.type === 'clear') clear = true;
    if (r.stdout) lines.push({ kind: 'stdout', text: r.stdout });
    if (r.stderr) lines.push({ kind: 'stderr', text: r.stderr });
    if (r.watch) this.watches.push(r.watch);
    if (line.trim()) lab.record({ kind: 'console', line });
    this.print(clear ? lines.slice(1) : lines, clear);
    if (r.action?.type === 'edit' && r.action.ref && r.action.yaml !== undefined) {
      const ref = { ...r.action.ref };
      this.edits.set(editKey(ref), r.action.yaml);
      return { exitCode: r.exitCode, edit: { ...ref, yaml: r.action.yaml } };
    }
    return { exitCode: r.exitCode };
  }

  /**
   * Save the text of an object `kubectl edit` opened: kubectl's patch from the opened text to the
   * saved one, its console lines, and the action recorded when the object changed.
   */
  private saveEdit(ref: EditRef, yaml: string): ResultOf['edit'] {
    const lab = this.lab!;
    const target = { kind: ref.kind, ...(ref.namespace ? { namespace: ref.namespace } : {}), name: ref.name };
    const original = this.edits.get(editKey(target));
    if (original === undefined) {
      throw new Error(
        `no kubectl edit is open for ${target.kind} ${target.namespace ? target.namespace + '/' : ''}${target.name}: run kubectl edit first`
      );
    }
    let r: EditOutcome | undefined;
    this.guard(() => {
      r = editTo(lab.cluster, target, original, yaml);
    });
    if (!r) return { ok: false, cancelled: false, message: this.simError };
    const lines: Omit<ConsoleLine, 'id'>[] = [];
    if (r.stdout) lines.push({ kind: 'stdout', text: r.stdout });
    if (r.stderr) lines.push({ kind: 'stderr', text: r.stderr });
    this.print(lines);
    const cancelled = !r.changed && r.exitCode === 0;
    if (r.changed) {
      lab.record({ kind: 'edit', ref: target, original, yaml });
      this.edits.delete(editKey(target));
    } else if (cancelled) this.edits.delete(editKey(target));
    return {
      ok: r.changed,
      cancelled,
      message: (r.stdout || r.stderr).replace(/\n$/, ''),
      ...(r.syntax ? { syntax: { ...r.syntax } } : {}),
      ...(r.causes ? { causes: [...r.causes] } : {})
    };
  }

  private apply(yaml: string, fileName: string): ApplyResult {
    try {
      this.lab!.perform({ kind: 'apply', yaml, fileName });
      return { ok: true, message: '', issues: [] };
    } catch (e) {
      const issues: ManifestIssue[] = (e as { issues?: ManifestIssue[] }).issues ?? [];
      const message = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        message: issues.length ? issues.map((i) => i.message).join('; ') : message,
        issues: issues.length
          ? issues.map((i) => ({ ...i }))
          : [{ file: fileName, line: 1, column: 1, path: '', message }]
      };
    }
  }

  /** Read-only: the cluster's random sequence is untouched (the trace has its own seed). */
  private traceConnection(from: string, to: string): ResultOf['trace'] {
    const cluster = this.lab!.cluster;
    try {
      this.trace = traceConnection(cluster, from, to, { seed: cluster.config.seed + 1000 + ++this.uiTraces });
      return {};
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }

  private lessonOp(op: LessonOp): ResultOf['lesson'] {
    const r = this.runner;
    if (!r) throw new Error('no lesson in this session');
    switch (op.op) {
      case 'answer':
        return { correct: r.answer(op.id, op.value) };
      case 'restore':
        r.restore(op.restore);
        r.frame();
        return {};
      case 'resetLab':
        r.resetLab();
        this.warmUp();
        r.frame();
        return {};
      case 'startOver':
        r.startOver();
        this.warmUp();
        r.frame();
        this.setPlaying(true);
        return {};
      case 'showSolution':
        // The reference solution plays from the scenario's start, as `lessons check` replays it.
        r.showSolution();
        return {};
    }
  }

  /**
   * Run simulator work. An exception (a bug in the simulator) pauses the clock, keeps a bug report
   * (scenario, seed, the actions up to that moment, the error) and takes the lab back to the last
   * good snapshot before it, so the learner is never left on a half-processed cluster.
   */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.crashed(e);
    }
  }

  private crashed(e: unknown): void {
    const lab = this.lab!;
    lab.playing = false;
    const message = e instanceof Error ? e.message : String(e);
    const at = lab.cluster.now;
    const recording = { ...lab.recording(this.init!.scenario, this.init!.fileName), t: at };
    const good = lab.snapshotTimes().filter((t) => t < at);
    const stoppedAt = good.length ? good[good.length - 1] : 0;
    this.bugReport = {
      format: 'nodeplane.dev/bug-report/v1',
      error: { message, ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) },
      at,
      stoppedAt,
      seed: lab.cluster.config.seed,
      recording
    };
    let where = `the lab went back to ${formatClock(stoppedAt)}, the last good snapshot`;
    try {
      lab.jumpTo(stoppedAt);
    } catch {
      where = `the lab stopped at ${formatClock(lab.cluster.now)}`;
    }
    this.crashGeneration = lab.generation;
    this.simError = `${message} (at ${formatClock(at)}; ${where})`;
  }

  private print(lines: Omit<ConsoleLine, 'id'>[], clear = false): void {
    if (!lines.length && !clear) return;
    this.opts.post({
      type: 'console',
      lines: lines.map((l) => ({ id: ++this.lineId, kind: l.kind, text: l.text.replace(/\n$/, '') })),
      ...(clear ? { clear: true } : {})
    });
  }

  private touch(): void {
    this.dirty = true;
    this.urgent = true;
  }

  /** Follow a replaced cluster (reset, jump back, load): a new console and a full frame. */
  private syncCluster(): void {
    const lab = this.lab!;
    if (this.generation === lab.generation) return;
    this.generation = lab.generation;
    if (lab.generation !== this.crashGeneration) {
      this.simError = '';
      this.bugReport = null;
    }
    const history = this.console?.history ?? [];
    this.console = new ConsoleSession(lab.cluster, this.consoleOptions());
    this.console.history = history;
    for (const w of this.watches) w.stop();
    this.watches = [];
    this.trace = undefined;
    this.builder = new ViewBuilder(lab.cluster);
    this.announcedUpTo = Math.min(this.announcedUpTo, lab.cluster.eventLog.length);
    this.touch();
  }

  private publish(): void {
    const lab = this.lab;
    if (!lab) return;
    this.syncCluster();
    if (!this.dirty) return;
    const wall = this.opts.wallClock();
    if (
      !this.urgent &&
      lab.playing &&
      wall - this.lastPublish < this.publishEvery &&
      lab.cluster.now - this.lastPublishedNow < this.publishEveryVirtual
    )
      return;
    this.lastPublish = wall;
    this.lastPublishedNow = lab.cluster.now;
    this.dirty = false;
    this.urgent = false;
    this.guard(() => {
      this.runner?.frame();
      const out: Omit<ConsoleLine, 'id'>[] = [];
      for (const w of this.watches) {
        const text = w.poll();
        if (text) out.push({ kind: 'stdout', text });
      }
      this.print(out);
    });
    this.opts.post(this.frame());
  }

  private frame(): FrameMessage {
    const lab = this.lab!;
    const cluster = lab.cluster;
    const view: LabView = this.builder!.build();
    this.readyHistory = recordReady(this.readyHistory, view);
    this.announce(cluster);
    const full = this.sent.generation !== this.generation;
    // What the page holds of the log before a full frame (its entries are frozen and shared).
    const pageLog = this.sent.eventLog;
    const pageEvents = this.sent.events;
    if (full) this.sent = { ...freshSent(), generation: this.generation };
    const sent = this.sent;
    const msg: FrameMessage = {
      type: 'frame',
      seq: ++this.seq,
      full,
      generation: this.generation,
      now: cluster.now,
      playing: lab.playing,
      speed: lab.speed,
      lagging: lab.lagging
    };
    const order = view.nodes.map((n) => n.name).join('\n');
    if (order !== sent.order) {
      msg.nodeOrder = view.nodes.map((n) => n.name);
      sent.order = order;
    }
    const changed: NodeView[] = [];
    const heartbeats: Record<string, number | null> = {};
    let beats = 0;
    const names = new Set<string>();
    for (const n of view.nodes) {
      names.add(n.name);
      const was = sent.nodes.get(n.name);
      if (was !== n) {
        // A renewed Lease alone goes as its time, not as the node's whole view with its pods.
        if (was && onlyHeartbeatChanged(was, n)) {
          heartbeats[n.name] = n.leaseRenewedAt ?? null;
          beats++;
        } else changed.push(n);
        sent.nodes.set(n.name, n);
      }
    }
    for (const name of [...sent.nodes.keys()]) if (!names.has(name)) sent.nodes.delete(name);
    if (changed.length) msg.nodes = changed;
    if (beats) msg.heartbeats = heartbeats;
    if (view.pendingPods !== sent.pending) msg.pendingPods = sent.pending = view.pendingPods as never;
    if (view.controlPlane !== sent.controlPlane)
      msg.controlPlane = sent.controlPlane = view.controlPlane as never;
    if (view.proxyMode !== sent.proxyMode) msg.proxyMode = sent.proxyMode = view.proxyMode;
    if (view.cni !== sent.cni) msg.cni = sent.cni = view.cni;
    if (view.podCount !== sent.podCount) msg.podCount = sent.podCount = view.podCount;
    const log = view.events;
    if (full) {
      // A restored cluster's log starts with the same (frozen, shared) entries the page already
      // has, up to the snapshot it was restored from: only the rest is sent.
      const from = sharedPrefix(log, pageLog, pageEvents);
      msg.eventsFrom = from;
      msg.events = log.slice(from);
    } else if (log !== sent.eventLog || log.length < sent.events) {
      // A different log (after a restore) is sent whole.
      msg.eventsFrom = 0;
      msg.events = log.slice();
    } else if (log.length > sent.events) {
      msg.eventsFrom = sent.events;
      msg.events = log.slice(sent.events);
    }
    sent.eventLog = log;
    sent.events = log.length;
    const faults = view.faults;
    if (faults.length !== sent.faults || full) {
      const from = faults.length < sent.faults || full ? 0 : sent.faults;
      msg.faultsFrom = from;
      msg.faults = faults
        .slice(from)
        .map((f) => ({ t: f.t, action: f.action, ...(f.target ? { target: f.target } : {}) }));
      sent.faults = faults.length;
    }
    if (this.readyHistory !== sent.readyHistory) msg.readyHistory = sent.readyHistory = this.readyHistory;
    const snaps = lab.snapshotTimes();
    const snapKey = snaps.join(',');
    if (snapKey !== sent.snapshots) {
      msg.snapshotTimes = snaps;
      sent.snapshots = snapKey;
    }
    this.optionalModels(msg, cluster);
    if (this.runner) {
      const status: LessonStatus = this.runner.status();
      const { watched, ...rest } = status;
      const key = JSON.stringify(rest);
      if (key !== sent.lesson || watched.length !== sent.watched || full) {
        msg.lesson = status;
        sent.lesson = key;
        sent.watched = watched.length;
      }
    }
    if ((this.trace ?? null) !== (sent.trace ?? null) || full) msg.trace = sent.trace = this.trace ?? null;
    if (this.announcement !== sent.announcement) msg.announcement = sent.announcement = this.announcement;
    if (this.simError !== sent.simError || full) msg.simError = sent.simError = this.simError;
    if (this.bugReport !== sent.bugReport || full) msg.bugReport = sent.bugReport = this.bugReport;
    const prompt = this.console!.prompt;
    if (prompt !== sent.prompt) msg.prompt = sent.prompt = prompt;
    return msg;
  }

  /** The read models only some views need, computed while they are shown. */
  private optionalModels(msg: FrameMessage, cluster: Cluster): void {
    const sent = this.sent;
    const cp: CpModel | null = this.subs.controlPlane ? buildCpModel(cluster) : null;
    const cpKey = cp ? JSON.stringify(cp) : '';
    if (cpKey !== sent.cp) {
      msg.cp = cp;
      sent.cp = cpKey;
    }
    // Prometheus' data change only at a scrape: rebuild the health model and the marks then.
    const prom = prometheus(cluster);
    const promKey = prom
      ? `${prom.scrapes[prom.scrapes.length - 1]?.t ?? -1}:${prom.transitions.length}`
      : '';
    const healthKey = this.subs.health ? promKey : '';
    if (healthKey !== sent.health) {
      msg.health = this.subs.health ? healthModel(cluster) : null;
      sent.health = healthKey;
    }
    if (promKey !== sent.alertMarks) {
      msg.alertMarks = alertMarks(cluster);
      sent.alertMarks = promKey;
    }
    const net: NetworkModel | null = this.subs.network ? networkModel(cluster, this.subs.network) : null;
    const netKey = net ? JSON.stringify(net) : '';
    if (netKey !== sent.network) {
      msg.network = net;
      sent.network = netKey;
    }
    const queue = this.subs.schedQueue ? schedulingQueueModel(cluster) : null;
    const queueKey = queue ? JSON.stringify(queue) : '';
    if (queueKey !== sent.schedQueue) {
      msg.schedQueue = queue;
      sent.schedQueue = queueKey;
    }
    // The request log is always on in the lab: "follow this pod" needs the pod's history.
    enableTraffic(cluster);
    if (this.subs.traffic) {
      const log = cluster.api.requestLog;
      if (log !== sent.trafficLog) sent.trafficSeq = 0;
      const traffic = trafficModel(cluster, sent.trafficSeq);
      sent.trafficLog = log;
      sent.trafficSeq = traffic?.lastSeq ?? 0;
      msg.traffic = traffic;
    } else if (sent.trafficLog) {
      msg.traffic = null;
      sent.trafficLog = undefined;
    }
    const s = this.selection;
    if (!s || s.kind === 'component') {
      if (sent.selection) msg.selection = null;
      sent.selection = undefined;
      return;
    }
    const key = s.kind === 'node' ? `node/${s.name}` : `pod/${s.key}`;
    let object: unknown;
    let attempts = 0;
    let sequence: ObjectSequence | null;
    let queued = '';
    if (s.kind === 'node') {
      object = cluster.api.tryGet('Node', undefined, s.name);
      sequence = nodeSequence(cluster, s.name);
    } else {
      const [ns, name] = s.key.split('/');
      object = cluster.api.tryGet('Pod', ns, name);
      attempts = getSchedulingHistory(cluster, s.key).length;
      sequence = podSequence(cluster, ns, name);
      queued = JSON.stringify(queuedPodModel(cluster, s.key));
    }
    // Folded renewals grow a step's count, not the number of steps.
    let steps = 0;
    for (const st of sequence?.steps ?? []) steps += st.count ?? 1;
    const machines: MachinesModel | null = this.subs.machines
      ? machinesModel(
          cluster,
          s.kind === 'node' ? { kind: 'node', name: s.name } : { kind: 'pod', key: s.key }
        )
      : null;
    const machineKey = machines ? JSON.stringify(machines.instances) : '';
    const prev = sent.selection;
    if (
      prev &&
      prev.key === key &&
      prev.object === object &&
      prev.attempts === attempts &&
      prev.steps === steps &&
      prev.queue === queued &&
      prev.machines === machineKey
    )
      return;
    sent.selection = { key, object, attempts, steps, queue: queued, machines: machineKey };
    msg.selection = {
      object: object ?? null,
      ...(s.kind === 'pod'
        ? {
            scheduling: schedulingExplanations(cluster, s.key),
            attempts: attemptResults(cluster, s.key),
            queue: queuedPodModel(cluster, s.key),
            sequence
          }
        : { sequence }),
      ...(this.subs.machines ? { machines } : {})
    };
  }

  private announce(cluster: Cluster): void {
    const log = cluster.eventLog;
    for (let i = this.announcedUpTo; i < log.length; i++) {
      const e = log[i];
      if (ANNOUNCED.has(e.reason)) this.announcement = `${e.reason} ${e.object}: ${e.message}`;
    }
    this.announcedUpTo = log.length;
  }
}

function editKey(ref: EditRef): string {
  return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/** Save a `kubectl edit`; a Node's capacity change reconfigures its kubelet, as in applyTo. */
function editTo(cluster: Cluster, ref: EditRef, original: string, yaml: string): EditOutcome {
  let resizes: NodeResize[] = [];
  if (ref.kind === 'Node') {
    try {
      const { objects } = parseManifests(yaml.replace(/^\s*#.*$/gm, ''), 'edit.yaml');
      resizes = nodeResizes(cluster, objects);
      checkResizable(objects, resizes);
    } catch {
      // The edit reports a syntax error itself; a refused resize leaves capacity to the kubelet.
      resizes = [];
    }
  }
  const r = saveEdit(cluster, ref, original, yaml);
  if (r.changed)
    for (const x of resizes) cluster.applyFault(RESIZE_FAULT, { target: x.target, capacity: x.capacity });
  return r;
}

/**
 * Replay a recording (a lab file or a bug report's) headless, as the lab does: the same
 * performers, the actions at their times, up to `recording.t`. Throws whatever the simulator
 * throws on the way, so a bug report's error reproduces.
 */
export function replayRecording(recording: LabRecording): LabSession {
  const lab = new LabSession({
    createCluster: () => createCluster(recording.scenario, { fileName: recording.fileName }).cluster,
    wallClock: () => 0,
    performers: {
      console: (cluster, line) => new ConsoleSession(cluster).exec(line).watch?.stop(),
      apply: (cluster, yaml, file) => applyTo(cluster, yaml, file)
    }
  });
  lab.load(recording.actions, recording.t);
  return lab;
}

/** Apply YAML as `kubectl apply` would; a Node's capacity change reconfigures its kubelet. */
function applyTo(cluster: Cluster, yaml: string, fileName: string): void {
  const { objects } = parseManifests(yaml, fileName);
  const resizes = nodeResizes(cluster, objects);
  checkResizable(objects, resizes);
  applyManifests(cluster, objects, { component: 'kubectl' });
  for (const r of resizes) cluster.applyFault(RESIZE_FAULT, { target: r.target, capacity: r.capacity });
}

export { SPEEDS, COMMAND_TYPES };
export type { LabRecording };
