/**
 * The lab on the page: a client of the lab session, which runs in a dedicated Web Worker. The
 * page sends commands (time control, faults, console lines, YAML, jumps) and receives frames of
 * read models (sim/observe) as a full frame plus diffs, at most about 30 a second; it never holds
 * the cluster. Views read `lab.view`, `lab.clock`, `lab.playing`…; they change the cluster only
 * through `fault()`, `exec()` (the console) and `applyYaml()` (the editor), the learner's doors.
 */
import type {
  ControlPlaneView,
  AlertMark,
  CpModel,
  HealthModel,
  EventLogEntry,
  LabView,
  NetworkModel,
  TrafficModel,
  SchedulingQueueModel,
  NodeView,
  PodView,
  ReadyChange,
  SchedulingExplanation,
  TraceResult
} from '$lib/sim/observe';
import type {
  ApplyResult,
  BootProgress,
  BugReport,
  ConsoleLine,
  EditRef,
  EditResult,
  FrameMessage,
  LabRecording,
  LessonInit,
  LessonOp,
  LessonStatus,
  ResultOf,
  Selection,
  SelectionModel,
  SessionCommand,
  SessionMessage,
  Speed,
  Subscriptions
} from '$lib/sim/session/protocol';
import type { Language } from '$lib/lessons/format';
import { keepUnchanged } from './keep-unchanged';

export type { ConsoleLine, Selection, ApplyResult, EditResult };

/** How the page reaches the session: a Web Worker in the app, the same host in-process in tests. */
export interface SessionTransport {
  post(message: { id: number; command: SessionCommand }): void;
  onmessage?: (message: SessionMessage) => void;
  close(): void;
}

export interface LabOptions {
  scenario: string;
  fileName: string;
  files?: Record<string, string>;
  lesson?: LessonInit;
  /** A saved or shared recording to replay before the first frame. */
  recording?: LabRecording;
  /** Virtual ms to run quietly before the first frame (a cluster that is already up). */
  warmupMs?: number;
  /** Start the clock at once. */
  autoplay?: boolean;
  /** The learner's language (the console's help, a lesson's task details). */
  lang?: Language;
  /** Called after every frame the session publishes. */
  onFrame?: (lab: Lab) => void;
  /** Called while the session plays its quiet start, before the first frame. */
  onBoot?: (progress: BootProgress) => void;
  /** Defaults to the lab's Web Worker. */
  transport?: SessionTransport;
}

const MAX_CONSOLE_LINES = 2000;

function workerTransport(): SessionTransport {
  const worker = new Worker(new URL('../../workers/session.worker.ts', import.meta.url), {
    type: 'module',
    name: 'nodeplane-session'
  });
  const t: SessionTransport = {
    post: (m) => worker.postMessage(m),
    close: () => worker.terminate()
  };
  worker.onmessage = (e: MessageEvent<SessionMessage>) => t.onmessage?.(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    t.onmessage?.({ type: 'protocol-error', error: e.message || 'the lab worker stopped' });
  };
  return t;
}

export class Lab {
  view = $state.raw<LabView | undefined>(undefined);
  /** Virtual time of the last frame. */
  clock = $state(0);
  playing = $state(false);
  speed = $state<Speed>(1);
  selected = $state<Selection | undefined>(undefined);
  consoleLines = $state.raw<ConsoleLine[]>([]);
  prompt = $state('$ ');
  /** Text for the polite live region (NodeNotReady, evictions). */
  announcement = $state('');
  snapshotTimes = $state.raw<number[]>([]);
  lagging = $state(false);
  /** A simulator error that stopped the clock (shown to the learner; the lab stays usable). */
  simError = $state('');
  /** Set when the simulation threw: the report the learner can download (`bugReportJSON`). */
  bugReport = $state<BugReport | undefined>(undefined);
  readyHistory = $state.raw<Record<string, ReadyChange[]>>({});
  /** How far the cluster has come up while a reset plays its quiet start (until the next frame). */
  boot = $state.raw<BootProgress | undefined>(undefined);
  /** The last packet trace (console `nodeplane trace` or the network view), drawn on the map. */
  trace = $state.raw<TraceResult | undefined>(undefined);
  /** Read models of the views that subscribed (control plane, network of one node). */
  controlPlaneModel = $state.raw<CpModel | undefined>(undefined);
  /** The control-plane health view's model, while it is shown. */
  healthModel = $state.raw<HealthModel | undefined>(undefined);
  /** Alerts' pending/firing/resolved changes (the timeline's marks). */
  alertMarks = $state.raw<AlertMark[]>([]);
  networkModel = $state.raw<NetworkModel | undefined>(undefined);
  /** API traffic for the cluster diagram (while it is shown). */
  trafficModel = $state.raw<TrafficModel | undefined>(undefined);
  /** The selected object as stored, and a selected pod's scheduling attempts. */
  selection = $state.raw<SelectionModel | undefined>(undefined);
  /** kube-scheduler's queue for the scheduling view (while it is shown). */
  schedQueueModel = $state.raw<SchedulingQueueModel | undefined>(undefined);
  lesson = $state.raw<LessonStatus | undefined>(undefined);
  /** The object `kubectl edit` opened in the editor, until it is saved or cancelled. */
  editing = $state.raw<(EditRef & { yaml: string; seq: number }) | undefined>(undefined);
  /** Commands entered, oldest first (the console's Up/Down). */
  history: string[] = [];
  private editSeq = 0;
  /** Bumped whenever a frame arrives. */
  frames = $state(0);
  /** Learner actions sent so far (console lines, faults, applied YAML, saved edits): a save point. */
  changes = $state(0);

  private transport: SessionTransport;
  private nextId = 0;
  // Bookkeeping of the protocol, not view state: the views read `view`, rebuilt per frame.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private nodes = new Map<string, NodeView>();
  private order: string[] = [];
  private pendingPods: PodView[] = [];
  private controlPlane?: ControlPlaneView;
  private proxyMode = '';
  private cni = '';
  private podCount = 0;
  private events: EventLogEntry[] = [];
  private faults: { t: number; action: string; target?: string }[] = [];
  private subs: Subscriptions = {};
  private closed = false;
  private readonly onFrame?: (lab: Lab) => void;
  private readonly onBoot?: (progress: BootProgress) => void;

  private constructor(opts: LabOptions) {
    this.onFrame = opts.onFrame;
    this.onBoot = opts.onBoot;
    this.transport = opts.transport ?? workerTransport();
    this.transport.onmessage = (m) => this.receive(m);
  }

  /** Start a session for the scenario; rejects with the scenario's own error. */
  static async create(opts: LabOptions): Promise<Lab> {
    const lab = new Lab(opts);
    try {
      await lab.send({
        type: 'init',
        init: {
          scenario: opts.scenario,
          fileName: opts.fileName,
          ...(opts.files ? { files: $state.snapshot(opts.files) } : {}),
          ...(opts.lesson ? { lesson: $state.snapshot(opts.lesson) as LessonInit } : {}),
          ...(opts.recording ? { recording: $state.snapshot(opts.recording) as LabRecording } : {}),
          ...(opts.warmupMs ? { warmupMs: opts.warmupMs } : {}),
          ...(opts.autoplay ? { autoplay: true } : {}),
          ...(opts.lang ? { lang: opts.lang } : {})
        }
      });
    } catch (e) {
      lab.stop();
      throw e;
    }
    return lab;
  }

  get now(): number {
    return this.clock;
  }

  /** End the session (the worker stops). */
  stop(): void {
    if (this.closed) return;
    this.closed = true;
    this.transport.close();
    for (const p of this.pending.values()) p.reject(new Error('the lab was closed'));
    this.pending.clear();
  }

  togglePlay(): void {
    this.setPlaying(!this.playing);
  }

  setPlaying(on: boolean): void {
    this.playing = on;
    void this.send({ type: on ? 'play' : 'pause' }).catch(() => {});
  }

  setSpeed(s: Speed): void {
    this.speed = s;
    void this.send({ type: 'speed', speed: s }).catch(() => {});
  }

  stepEvent(): Promise<unknown> {
    this.playing = false;
    return this.send({ type: 'step' });
  }

  advanceBy(ms: number): Promise<unknown> {
    return this.send({ type: 'advance', ms });
  }

  jumpTo(t: number): Promise<unknown> {
    return this.send({ type: 'jump', t: Math.max(0, t) });
  }

  reset(): Promise<unknown> {
    this.playing = false;
    return this.send({ type: 'reset' });
  }

  /** Replay a saved or shared recording (its scenario must be the one this lab was built with). */
  load(rec: LabRecording): Promise<unknown> {
    this.playing = false;
    return this.send({ type: 'load', recording: $state.snapshot(rec) as LabRecording });
  }

  recording(): Promise<LabRecording> {
    return this.send({ type: 'recording' }) as Promise<LabRecording>;
  }

  /** The whole event log (for a download or a test); views read `view.events`. */
  eventLog(): Promise<EventLogEntry[]> {
    return this.send({ type: 'eventLog' }) as Promise<EventLogEntry[]>;
  }

  /** Apply a fault; resolves to the error message when the simulator or the lesson refuses it. */
  async fault(action: string, target?: string, mode?: string): Promise<string | undefined> {
    const r = (await this.send({
      type: 'fault',
      action,
      ...(target ? { target } : {}),
      ...(mode ? { mode } : {})
    })) as ResultOf['fault'];
    this.changes++;
    return r.error;
  }

  /** Run a console line; its output arrives in `consoleLines`. */
  exec(line: string): Promise<ResultOf['exec']> {
    if (line.trim()) this.history = [...this.history, line];
    return (this.send({ type: 'exec', line }) as Promise<ResultOf['exec']>).then((r) => {
      if (r.edit) this.editing = { ...r.edit, seq: ++this.editSeq };
      this.changes++;
      return r;
    });
  }

  /**
   * Save the text of the object `kubectl edit` opened; kubectl's lines arrive in the console.
   * The edit stays open on an error, as kubectl reopens the file.
   */
  async saveEdit(yaml: string): Promise<EditResult> {
    const e = this.editing;
    if (!e) throw new Error('no kubectl edit is open');
    const ref: EditRef = { kind: e.kind, ...(e.namespace ? { namespace: e.namespace } : {}), name: e.name };
    const r = (await this.send({ type: 'edit', yaml, ref })) as EditResult;
    if ((r.ok || r.cancelled) && this.editing === e) this.editing = undefined;
    this.changes++;
    return r;
  }

  /** Close the editor unchanged: kubectl prints `Edit cancelled, no changes made.` */
  cancelEdit(): Promise<EditResult> {
    return this.saveEdit(this.editing?.yaml ?? '');
  }

  /** Tab completion for the console line. */
  complete(line: string): Promise<string[]> {
    return this.send({ type: 'complete', line }) as Promise<string[]>;
  }

  /** The learner switched language: the console's help and the lesson's wording follow. */
  setLang(lang: Language): void {
    void this.send({ type: 'lang', lang }).catch(() => {});
  }

  /** Stop `-w` watches (Ctrl+C). */
  interrupt(): void {
    void this.send({ type: 'interrupt' }).catch(() => {});
  }

  /** Trace a connection (the network view's form); resolves to the error when it cannot run. */
  async traceConnection(from: string, to: string): Promise<string | undefined> {
    const r = (await this.send({ type: 'trace', from, to })) as ResultOf['trace'];
    return r.error;
  }

  clearTrace(): void {
    this.trace = undefined;
    void this.send({ type: 'clearTrace' }).catch(() => {});
  }

  /** Apply the editor's YAML through the API, as kubectl apply would. */
  applyYaml(yaml: string, fileName = 'editor.yaml'): Promise<ApplyResult> {
    return (this.send({ type: 'apply', yaml, fileName }) as Promise<ApplyResult>).then((r) => {
      this.changes++;
      return r;
    });
  }

  select(s: Selection | undefined): void {
    this.selected = s;
    this.selection = undefined;
    void this.send({ type: 'select', ...(s ? { selection: $state.snapshot(s) as Selection } : {}) }).catch(
      () => {}
    );
  }

  /** The stored object for the selection (what `kubectl get -o yaml` shows). */
  selectedObject(): unknown {
    return this.selection?.object ?? undefined;
  }

  /** The scheduler's recorded attempts for the selected pod, oldest first. */
  schedulingHistory(): SchedulingExplanation[] {
    return this.selection?.scheduling ?? [];
  }

  /** Ask for a view's read model while it is shown (`undefined` stops it). */
  subscribe(part: keyof Subscriptions, value: Subscriptions[keyof Subscriptions] | undefined): void {
    const next = { ...this.subs };
    if (value === undefined || value === false) delete next[part];
    else (next as Record<string, unknown>)[part] = $state.snapshot(value);
    if (JSON.stringify(next) === JSON.stringify(this.subs)) return;
    this.subs = next;
    if (!next.controlPlane) this.controlPlaneModel = undefined;
    if (!next.health) this.healthModel = undefined;
    if (!next.network) this.networkModel = undefined;
    if (!next.traffic) this.trafficModel = undefined;
    if (!next.schedQueue) this.schedQueueModel = undefined;
    void this.send({ type: 'subscribe', subscriptions: next }).catch(() => {});
  }

  /** A lesson operation in the session (answer, hint, reset, solution). */
  lessonOp(action: LessonOp): Promise<ResultOf['lesson']> {
    return this.send({ type: 'lesson', action }) as Promise<ResultOf['lesson']>;
  }

  private send(command: SessionCommand): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the lab was closed'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.transport.post({ id, command });
    });
  }

  private receive(m: SessionMessage): void {
    switch (m.type) {
      case 'reply': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result);
        else p.reject(new Error(m.error));
        return;
      }
      case 'console': {
        const lines = m.clear ? m.lines : [...this.consoleLines, ...m.lines];
        this.consoleLines = lines.length > MAX_CONSOLE_LINES ? lines.slice(-MAX_CONSOLE_LINES) : lines;
        return;
      }
      case 'protocol-error':
        this.simError = m.error;
        return;
      case 'boot':
        this.boot = m.progress;
        this.onBoot?.(m.progress);
        return;
      case 'frame':
        this.boot = undefined;
        this.applyFrame(m);
        this.onFrame?.(this);
        return;
    }
  }

  private applyFrame(f: FrameMessage): void {
    // After a jump or a reset the full frame is matched against the old views too: the nodes and
    // pods that are the same at the restored time keep their objects and their DOM.
    const before = this.nodes;
    const pendingBefore = this.pendingPods;
    if (f.full) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      this.nodes = new Map();
      this.order = [];
      this.pendingPods = [];
      // A jump back keeps the events up to the restored snapshot (the session sends the rest).
      if (!f.eventsFrom) this.events = [];
      this.faults = [];
    }
    let nodesChanged = f.full;
    if (f.nodeOrder) {
      this.order = f.nodeOrder;
      for (const name of [...this.nodes.keys()]) if (!this.order.includes(name)) this.nodes.delete(name);
      nodesChanged = true;
    }
    // A node's diff is its whole NodeView, cloned across the worker boundary: keep the parts that
    // did not change (its pods, bars, taints) so only the chips and bars that did re-render.
    for (const n of f.nodes ?? []) {
      const kept = keepUnchanged(n, before.get(n.name));
      if (kept === this.nodes.get(n.name)) continue;
      this.nodes.set(n.name, kept);
      nodesChanged = true;
    }
    for (const [name, t] of Object.entries(f.heartbeats ?? {})) {
      const cur = this.nodes.get(name);
      if (!cur) continue;
      this.nodes.set(name, { ...cur, leaseRenewedAt: t ?? undefined });
      nodesChanged = true;
    }
    if (f.pendingPods) this.pendingPods = keepUnchanged(f.pendingPods, pendingBefore);
    if (f.controlPlane) this.controlPlane = f.controlPlane;
    if (f.proxyMode !== undefined) this.proxyMode = f.proxyMode;
    if (f.cni !== undefined) this.cni = f.cni;
    if (f.podCount !== undefined) this.podCount = f.podCount;
    if (f.events) this.events = [...this.events.slice(0, f.eventsFrom ?? 0), ...f.events];
    if (f.faults) this.faults = [...this.faults.slice(0, f.faultsFrom ?? 0), ...f.faults];
    const prev = this.view;
    const nodes =
      nodesChanged || !prev ? this.order.map((n) => this.nodes.get(n)!).filter(Boolean) : prev.nodes;
    this.view = {
      now: f.now,
      nodes,
      pendingPods: this.pendingPods,
      controlPlane: this.controlPlane!,
      proxyMode: this.proxyMode,
      cni: this.cni,
      events: f.events || !prev ? this.events : prev.events,
      faults: f.faults || !prev ? this.faults : prev.faults,
      podCount: this.podCount
    };
    this.clock = f.now;
    this.playing = f.playing;
    this.speed = f.speed;
    this.lagging = f.lagging;
    if (f.readyHistory) this.readyHistory = f.readyHistory;
    if (f.snapshotTimes) this.snapshotTimes = f.snapshotTimes;
    if (f.cp !== undefined) this.controlPlaneModel = f.cp ?? undefined;
    if (f.health !== undefined) this.healthModel = f.health ?? undefined;
    if (f.alertMarks !== undefined) this.alertMarks = f.alertMarks;
    if (f.traffic !== undefined) this.trafficModel = f.traffic ?? undefined;
    if (f.network !== undefined) this.networkModel = f.network ?? undefined;
    if (f.selection !== undefined) this.selection = f.selection ?? undefined;
    if (f.schedQueue !== undefined) this.schedQueueModel = f.schedQueue ?? undefined;
    if (f.lesson) this.lesson = f.lesson;
    if (f.trace !== undefined) this.trace = f.trace ?? undefined;
    if (f.announcement !== undefined) this.announcement = f.announcement;
    if (f.simError !== undefined) this.simError = f.simError;
    if (f.bugReport !== undefined) this.bugReport = f.bugReport ?? undefined;
    if (f.prompt !== undefined) this.prompt = f.prompt;
    this.frames++;
  }

  /** The bug report as a file, with the app's version; `nodeplane run --replay <file>` reproduces it. */
  bugReportJSON(appVersion: string): string | undefined {
    return this.bugReport && JSON.stringify({ ...this.bugReport, appVersion }, null, 2);
  }
}
