/**
 * The session protocol: what the page and the lab session say to each other across the worker
 * boundary. Everything here is plain data (structured-clone safe): commands go in, replies and
 * frames (read models as a first snapshot plus compact diffs) come out. The same messages flow
 * when the session runs in-process (CLI, tests), so a page, a worker and Node see one contract.
 *
 * Types only, plus the constant lists of speeds and commands: importing this file loads no part
 * of the simulation.
 */
import type { EventLogEntry } from '../events/recorder';
import type { TraceResult } from '../network/trace';
import type { ControlPlaneView, NodeView, PodView } from '../observe/cluster-map';
import type { CpModel } from '../observe/controlplane';
import type { NetworkModel, NetworkSubscription } from '../observe/network';
import type { ReadyChange } from '../observe/ready-history';
import type { TrafficModel } from '../observe/traffic';
import type { AlertMark, HealthModel } from '../observe/health';
import type { ObjectSequence } from '../observe/sequence';
import type { MachinesModel } from '../observe/machines';
import type { SchedulingExplanation } from '../observe/scheduling';
import type { AttemptResult, QueuedPodModel, SchedulingQueueModel } from '../observe/schedqueue';
import type { Language, Lesson } from '../../lessons/format';

export type Speed = 1 | 10 | 60 | 600 | 'max';

/**
 * The quiet start a lab plays so it opens on a cluster that is already up (virtual ms): its cap,
 * past which it goes on only while the cluster is still coming up (`session/warmup.ts`).
 */
export const DEFAULT_WARMUP_MS = 60_000;
export const SPEEDS: readonly Speed[] = [1, 10, 60, 600, 'max'];

export type LabActionInput =
  | { kind: 'fault'; action: string; target?: string; mode?: string }
  | { kind: 'console'; line: string }
  | { kind: 'apply'; yaml: string; fileName: string }
  /** `kubectl edit` saved: the text the editor opened and the text saved. */
  | { kind: 'edit'; ref: EditRef; original: string; yaml: string };

export type LabAction = LabActionInput & { t: number };

/** What a save file and a share link hold: enough to rebuild the same cluster at the same time. */
export interface LabRecording {
  scenario: string;
  fileName: string;
  t: number;
  actions: LabAction[];
}

/**
 * What the lab saves when the simulation throws: enough to reproduce the failure headless with
 * `nodeplane run --replay <file>` (the recording runs to the moment of the error).
 */
export interface BugReport {
  format: 'nodeplane.dev/bug-report/v1';
  error: { message: string; stack?: string };
  /** Virtual ms the error happened at; `recording.t` is the same. */
  at: number;
  /** Virtual ms of the last good snapshot the lab went back to. */
  stoppedAt: number;
  seed: number;
  recording: LabRecording;
  /** Added by the page (the build's version name). */
  appVersion?: string;
}

/** The selected object as stored, with the read models that come with it. */
export interface SelectionModel {
  object: unknown;
  /** A pod's scheduling attempts as the scheduler explained them, oldest first. */
  scheduling?: SchedulingExplanation[];
  /** A pod's attempts over time (number, time, result). */
  attempts?: AttemptResult[];
  /** Where a pending pod waits in the scheduling queue (null: it does not). */
  queue?: QueuedPodModel | null;
  /** "Follow this pod" / "follow this node". */
  sequence?: ObjectSequence | null;
  /** The selected node's or pod's lifecycle machines, while subscribed to `machines`. */
  machines?: MachinesModel | null;
}

export type Selection =
  { kind: 'node'; name: string } | { kind: 'pod'; key: string } | { kind: 'component'; name: string };

/** A lesson played on the session's cluster: its checks, setup and solution run next to it. */
export interface LessonInit {
  lesson: Lesson;
  lang: Language;
  /** Event reasons the lesson's watch embeds show. */
  watchReasons: string[];
  /** The lesson shows no fault panel: faults from the page are refused (the solution may use them). */
  faultsHidden: boolean;
  /** Progress restored from storage: answers, hints, solution viewed, ticked tasks. */
  restore?: LessonRestore;
}

export interface LessonRestore {
  answers: Record<string, { value: string | number; correct: boolean }>;
  hints: Record<string, number>;
  solutionViewed: boolean;
  done: string[];
}

export interface SessionInit {
  scenario: string;
  fileName: string;
  /** Named files `kubectl apply -f <name>` can read. */
  files?: Record<string, string>;
  lesson?: LessonInit;
  /** A saved or shared recording replayed before the first frame. */
  recording?: LabRecording;
  /**
   * Virtual ms played quietly before the first frame (and after a reset), until the nodes are
   * Ready and the workloads Running, so the lab opens on a cluster that is already up: the cap,
   * past which the quiet start goes on only while the cluster still comes up. 0 or absent opens at
   * the scenario's start.
   */
  warmupMs?: number;
  /** Start the clock at once (a lesson's lab runs on its own). */
  autoplay?: boolean;
  /** The learner's language at the start (default English); `lang` changes it later. */
  lang?: Language;
}

/** Optional read models: computed only while a view shows them. */
export interface Subscriptions {
  controlPlane?: boolean;
  /** The network view of one node. */
  network?: NetworkSubscription;
  /** The cluster diagram: API traffic (kube-apiserver's request log). */
  traffic?: boolean;
  /** The control-plane health view: Prometheus' series and alerts. */
  health?: boolean;
  /** The scheduling view: kube-scheduler's activeQ, backoffQ and unschedulable pods. */
  schedQueue?: boolean;
  /** The selected node's or pod's lifecycle machines (sent with the selection). */
  machines?: boolean;
}

export type LessonOp =
  | { op: 'answer'; id: string; value: string | number }
  | { op: 'restore'; restore: LessonRestore }
  | { op: 'resetLab' }
  | { op: 'startOver' }
  | { op: 'showSolution' };

export type SessionCommand =
  | { type: 'init'; init: SessionInit }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'speed'; speed: Speed }
  | { type: 'step' }
  | { type: 'advance'; ms: number }
  | { type: 'jump'; t: number }
  | { type: 'reset' }
  | { type: 'load'; recording: LabRecording }
  | { type: 'fault'; action: string; target?: string; mode?: string }
  | { type: 'exec'; line: string }
  | { type: 'interrupt' }
  /** The learner's language: the console's own help and a lesson's task details follow it. */
  | { type: 'lang'; lang: Language }
  | { type: 'complete'; line: string }
  | { type: 'apply'; yaml: string; fileName?: string }
  | { type: 'edit'; yaml: string; ref: EditRef }
  | { type: 'trace'; from: string; to: string }
  | { type: 'clearTrace' }
  | { type: 'select'; selection?: Selection }
  | { type: 'subscribe'; subscriptions: Subscriptions }
  | { type: 'recording' }
  | { type: 'eventLog' }
  | { type: 'lesson'; action: LessonOp };

export type CommandType = SessionCommand['type'];

/** Every command the session accepts; anything else gets an error reply and changes nothing. */
export const COMMAND_TYPES: readonly CommandType[] = [
  'init',
  'play',
  'pause',
  'speed',
  'step',
  'advance',
  'jump',
  'reset',
  'load',
  'fault',
  'exec',
  'interrupt',
  'lang',
  'complete',
  'apply',
  'edit',
  'trace',
  'clearTrace',
  'select',
  'subscribe',
  'recording',
  'eventLog',
  'lesson'
];

/** A page → session message. `id` pairs it with its reply. */
export interface SessionRequest {
  id: number;
  command: SessionCommand;
}

export interface ManifestIssueData {
  file: string;
  line: number;
  column: number;
  path: string;
  message: string;
}

export interface ApplyResult {
  ok: boolean;
  message: string;
  issues: ManifestIssueData[];
}

/** The object `kubectl edit` opened in the editor. */
export interface EditRef {
  kind: string;
  namespace?: string;
  name: string;
}

/** What saving a `kubectl edit` did (its console lines are printed too). */
export interface EditResult {
  /** The object changed. */
  ok: boolean;
  /** Nothing changed: `Edit cancelled, no changes made.` (the editor closes). */
  cancelled: boolean;
  /** What kubectl printed, stdout or stderr, without the trailing newline. */
  message: string;
  /** A YAML syntax error in the saved text: the parser's message and its line. */
  syntax?: { line: number; message: string };
  /** The API server's field errors (`spec.replicas: Invalid value: ...`). */
  causes?: string[];
}

export interface ExecResult {
  exitCode: number;
  /** `kubectl edit`: open this object in the editor. */
  edit?: EditRef & { yaml: string };
}

/** Results per command (commands not listed reply with `null`). */
export interface ResultOf {
  fault: { error?: string };
  apply: ApplyResult;
  edit: EditResult;
  exec: ExecResult;
  complete: string[];
  trace: { error?: string };
  recording: LabRecording;
  eventLog: EventLogEntry[];
  lesson: { correct?: boolean };
}

export type SessionReply =
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };

export interface ConsoleLine {
  id: number;
  kind: 'input' | 'stdout' | 'stderr';
  text: string;
}

export interface LessonTaskStatus {
  id: string;
  done: boolean;
  /** Why it is not done yet, in the lesson's language ('' once done). */
  detail: string;
  /** Virtual ms when the task first held (set once done in this session). */
  doneAt?: number;
}

/** The lesson's state next to the cluster, as the worker evaluates it after each frame. */
export interface LessonStatus {
  tasks: LessonTaskStatus[];
  complete: boolean;
  /** Virtual ms when the last task ticked, once complete. */
  completedAt?: number;
  answers: Record<string, { value: string | number; correct: boolean }>;
  hints: Record<string, number>;
  solutionViewed: boolean;
  solution: { active: boolean; next: number; error: string };
  setupError: string;
  /** Events of the watched reasons so far. */
  watched: EventLogEntry[];
}

/**
 * One frame of read models. The first frame after `init` (and after the cluster is replaced) is
 * full; later ones carry only what changed: nodes by name, appended events and faults, and the
 * other parts when they differ from the last frame sent.
 */
export interface FrameMessage {
  type: 'frame';
  seq: number;
  full: boolean;
  /** Increments when the cluster is replaced (reset, jump back, load). */
  generation: number;
  now: number;
  playing: boolean;
  speed: Speed;
  lagging: boolean;
  /** Names of all nodes in map order, when the set or order changed. */
  nodeOrder?: string[];
  /** NodeViews that changed since the last frame. */
  nodes?: NodeView[];
  /** Nodes whose view changed only in its Lease's renewTime: the new `leaseRenewedAt` (null: none). */
  heartbeats?: Record<string, number | null>;
  pendingPods?: PodView[];
  controlPlane?: ControlPlaneView;
  proxyMode?: string;
  cni?: string;
  podCount?: number;
  /**
   * Events appended at `eventsFrom` (the page's log is cut to that length first). A full frame
   * keeps the page's first `eventsFrom` events too: after a jump back they are the same events.
   */
  eventsFrom?: number;
  events?: EventLogEntry[];
  faultsFrom?: number;
  faults?: { t: number; action: string; target?: string }[];
  readyHistory?: Record<string, ReadyChange[]>;
  snapshotTimes?: number[];
  cp?: CpModel | null;
  /** While subscribed, after each scrape. */
  health?: HealthModel | null;
  /** Alerts' pending/firing/resolved changes for the timeline, after each scrape that changed them. */
  alertMarks?: AlertMark[];
  network?: NetworkModel | null;
  /** Sent in every frame while subscribed: rates change as time passes. */
  traffic?: TrafficModel | null;
  /** While subscribed, when it changed. */
  schedQueue?: SchedulingQueueModel | null;
  selection?: SelectionModel | null;
  lesson?: LessonStatus;
  trace?: TraceResult | null;
  announcement?: string;
  simError?: string;
  /** Set when the simulation threw (null once the cluster is replaced by a reset or a load). */
  bugReport?: BugReport | null;
  prompt?: string;
}

export interface ConsoleMessage {
  type: 'console';
  lines: ConsoleLine[];
  clear?: boolean;
}

/** How far the cluster has come up: what the page shows while the lab starts. */
export interface BootProgress {
  /** Virtual ms since the scenario's start. */
  now: number;
  nodes: number;
  nodesReady: number;
  /** Pods whose phase is Running or Succeeded. */
  podsStarted: number;
  podsPending: number;
  /** Deployments and DaemonSets, and those whose rollout is done (`kubectl rollout status`). */
  workloads: number;
  workloadsRolledOut: number;
}

/**
 * How far the cluster has come up while the lab plays its quiet start (before the first frame and
 * after a reset), at most a few times a second.
 */
export interface BootMessage {
  type: 'boot';
  progress: BootProgress;
}

/** A message the session could not read (not a request): answered without an id. */
export interface ProtocolError {
  type: 'protocol-error';
  error: string;
}

export type SessionMessage = SessionReply | FrameMessage | ConsoleMessage | BootMessage | ProtocolError;
