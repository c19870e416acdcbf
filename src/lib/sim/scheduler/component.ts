/**
 * The kube-scheduler component (kind and id `kube-scheduler`): watches Pods and Nodes through the
 * API, keeps its cache and queue, and schedules one pod per engine event with the profile named
 * by the pod's `spec.schedulerName`. Binding sets spec.nodeName and the PodScheduled condition;
 * failures record FailedScheduling and PodScheduled=False with FitError's text.
 */
import { ApiError, ConnectionError } from '../api/errors';
import { clone, copySharingFrozen, type KubeObject, type RequestContext } from '../api/types';
import { FaultError, defineComponent, defineFault, type Cluster, type Component } from '../cluster';
import { minorVersion } from '../config';
import type { SimEvent } from '../engine/engine';
import { SchedulerCache } from './cache';
import { resolveConfig, type SchedulerConfig } from './config';
import { materializeAttempt, recordedNodes, type AttemptRecord } from './explanation';
import { Framework } from './framework';
import { newPodInfo, podPriority } from './nodeinfo';
import {
  isPodWorthRequeuing,
  nodeUpdateEvents,
  registeredEvents,
  type ClusterEventLabel,
  type RegisteredEvent
} from './events';
import {
  MAX_IN_UNSCHEDULABLE_MS,
  SchedulingQueue,
  UNSCHEDULABLE_FLUSH_PERIOD_MS,
  type QueuedPod,
  type QueueState
} from './queue';
import { scheduleOne } from './schedule-one';
import type { Handle, SchedulingAttempt } from './types';

export const SCHEDULER_ID = 'kube-scheduler';
export const SCHEDULER_KIND = 'kube-scheduler';
/** Attempts kept per pod for the UI and `kubectl describe`. */
export const HISTORY_LIMIT = 20;
/**
 * Node verdicts (one per node per attempt) the kept histories may hold in all: the pods attempted
 * longest ago lose their history first. A lab cluster never reaches it (600 pods on 20 nodes are
 * 12,000); 30,000 pods on 1,000 nodes would otherwise keep gigabytes of explanations.
 */
export const HISTORY_NODE_BUDGET = 200_000;
/** Attempts a snapshot keeps per still-waiting pod (see getState); a bound pod keeps its last one. */
export const SNAPSHOT_HISTORY_LIMIT = 3;
/**
 * Node verdicts a snapshot keeps in all: the most recently attempted pods first. A lab cluster
 * (600 pods on 20 nodes are 12,000) keeps every pod's last attempt across a time-travel jump.
 */
export const SNAPSHOT_NODE_BUDGET = 25_000;
/** Virtual time one scheduling cycle takes. */
export const CYCLE_MS = 1;

export interface SchedulerArgs {
  /** A KubeSchedulerConfiguration object (already parsed from YAML). */
  config?: unknown;
}

export interface SchedulerLogEntry {
  t: number;
  message: string;
}

interface SchedulerState {
  running: boolean;
  queue: QueueState;
  nextStartNodeIndex: number;
  /** Kept attempts per pod, oldest first (compact records: `explanation.ts`). */
  history: Record<string, AttemptRecord[]>;
  cycleAt: number | null;
  flushAt: number | null;
  errors: SchedulerLogEntry[];
  /** scheduler_schedule_attempts_total by "<result> <profile>" (scheduled, unschedulable, error). */
  attempts?: Record<string, number>;
}

const MAX_ERRORS = 200;

/** The scheduling queue as kube-scheduler holds it, for the queue view (copies, never its state). */
export interface SchedulingQueueStatus {
  running: boolean;
  /** podInitialBackoffSeconds and podMaxBackoffSeconds (ms). */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** podMaxInUnschedulablePodsDuration and the leftover flush's period (ms). */
  maxInUnschedulableMs: number;
  flushPeriodMs: number;
  pods: QueuedPod[];
}

export class KubeScheduler implements Component {
  readonly id = SCHEDULER_ID;
  readonly kind = SCHEDULER_KIND;
  readonly ctx: RequestContext = { component: 'kube-scheduler' };
  readonly config: SchedulerConfig;
  readonly frameworks = new Map<string, Framework>();
  readonly cache: SchedulerCache;
  private state: SchedulerState = {
    running: true,
    queue: { pods: {} },
    nextStartNodeIndex: 0,
    history: {},
    cycleAt: null,
    flushAt: null,
    errors: []
  };
  /** Indexes over `state.queue` (rebuilt from it on restore). */
  private queue = new SchedulingQueue(this.state.queue);
  private unwatch: (() => void)[] = [];
  private readonly minor: number;
  /** Node verdicts in state.history (derived: recounted on restore). */
  private explained = 0;
  /**
   * The keys of state.history, least recently attempted first (derived: rebuilt on restore). The
   * history record is in that order too, but a `for…in` over a record of thousands of keys lists
   * them all (and sorts them) before its first step, once per scheduling cycle.
   */
  private historyOrder = new Map<string, true>();
  /**
   * True while the constructor fills the cache from the API. A restored scheduler is built the
   * same way and then given its state: its queue, its pending cycle and flush (already in the
   * restored engine queue) and its request counts come from the snapshot, so building it must
   * not schedule or count anything. A new one lists and kicks in start().
   */
  private building = true;

  constructor(
    readonly cluster: Cluster,
    readonly args: SchedulerArgs = {}
  ) {
    this.minor = minorVersion(cluster.config.kubernetesVersion);
    this.config = resolveConfig(args.config ?? {});
    for (const p of this.config.profiles) this.frameworks.set(p.schedulerName, new Framework(p, this.minor));
    this.cache = new SchedulerCache({ minor: this.minor });
    this.fill();
    this.building = false;
    this.unwatch.push(
      cluster.api.watch('Node', (type, obj, old) => this.onNode(type, obj, old)),
      cluster.api.watch('Pod', (type, obj, old) => this.onPod(type, obj, old)),
      // The listers' readers use a Service's or ReplicaSet's selector and a Namespace's labels: an
      // update that keeps those (a status write) leaves what they read as it was.
      cluster.api.watch('Service', (type, obj, old) => {
        if (type !== 'MODIFIED' || !old || old.spec?.selector !== obj.spec?.selector) this.refreshSources();
      }),
      cluster.api.watch('ReplicaSet', (type, obj, old) => {
        if (type !== 'MODIFIED' || !old || old.spec?.selector !== obj.spec?.selector) this.refreshSources();
      }),
      cluster.api.watch('Namespace', (type, obj, old) => {
        if (type !== 'MODIFIED' || !old || old.metadata.labels !== obj.metadata.labels) this.refreshSources();
      })
    );
  }

  get running(): boolean {
    return this.state.running;
  }

  get errors(): readonly SchedulerLogEntry[] {
    return this.state.errors;
  }

  history(podKey: string): SchedulingAttempt[] {
    return (this.state.history[podKey] ?? []).map(readAttempt);
  }

  /** How many attempts are kept for a pod (without building them). */
  historyLength(podKey: string): number {
    return this.state.history[podKey]?.length ?? 0;
  }

  /** Scheduling attempts so far by "<result> <profile>". */
  attemptCounts(): Record<string, number> {
    return { ...(this.state.attempts ?? {}) };
  }

  /** Pods waiting in the queue, by where they wait. */
  queued(): { key: string; where: string; attempts: number }[] {
    return Object.values(this.state.queue.pods).map((p) => ({
      key: p.key,
      where: p.where,
      attempts: p.attempts
    }));
  }

  /** The queued pods (copies) and the queue's timings. */
  queueStatus(): SchedulingQueueStatus {
    return {
      running: this.state.running,
      initialBackoffMs: this.config.podInitialBackoffSeconds * 1000,
      maxBackoffMs: this.config.podMaxBackoffSeconds * 1000,
      maxInUnschedulableMs: MAX_IN_UNSCHEDULABLE_MS,
      flushPeriodMs: UNSCHEDULABLE_FLUSH_PERIOD_MS,
      pods: Object.values(this.state.queue.pods).map((p) => ({
        ...p,
        plugins: [...p.plugins],
        moves: (p.moves ?? []).map((m) => ({ ...m }))
      }))
    };
  }

  /**
   * The cluster events registered by the plugins that rejected a queued pod, in its profile's
   * queueing hint map (what may move it back from unschedulable pods).
   */
  registeredEvents(p: Pick<QueuedPod, 'key' | 'plugins'>): RegisteredEvent[] {
    const fw = this.frameworkOf(this.podOf(p.key));
    return fw ? registeredEvents(fw.queueingHints, p.plugins) : [];
  }

  /** One queued pod (a copy), or undefined when it is not waiting in the queue. */
  queuedPod(key: string): QueuedPod | undefined {
    const p = this.queue.get(key);
    return p && { ...p, plugins: [...p.plugins], moves: (p.moves ?? []).map((m) => ({ ...m })) };
  }

  start(): void {
    this.countLists();
    this.kick();
  }

  getState(): unknown {
    // Attempt histories are explanations, not inputs: scheduling never reads them. A snapshot keeps
    // the last attempts of pods still waiting and the last attempt of every other pod (so a bound
    // pod is still explained after a time-travel jump), newest first within SNAPSHOT_NODE_BUDGET,
    // or the scheduler alone would make up most of a snapshot. Deleted pods have no history.
    const keys = Object.keys(this.state.history);
    const kept: [string, AttemptRecord[]][] = [];
    let budget = SNAPSHOT_NODE_BUDGET;
    for (let i = keys.length - 1; i >= 0; i--) {
      const all = this.state.history[keys[i]];
      const attempts = all.slice(this.queue.get(keys[i]) ? -SNAPSHOT_HISTORY_LIMIT : -1);
      const cost = explainedNodes(attempts);
      if (cost > budget) continue;
      budget -= cost;
      kept.push([keys[i], attempts]);
    }
    const history: Record<string, AttemptRecord[]> = {};
    for (let i = kept.length - 1; i >= 0; i--) history[kept[i][0]] = kept[i][1];
    return { ...this.state, history };
  }

  setState(s: unknown): void {
    this.state = copySharingFrozen(s as SchedulerState);
    this.queue = new SchedulingQueue(this.state.queue);
    this.explained = 0;
    this.historyOrder = new Map();
    for (const [key, attempts] of Object.entries(this.state.history)) {
      this.explained += explainedNodes(attempts);
      this.historyOrder.set(key, true);
    }
  }

  dispose(): void {
    for (const u of this.unwatch) u();
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'cycle') {
      this.state.cycleAt = null;
      if (!this.state.running) return;
      this.runCycle();
    } else if (ev.type === 'flush') {
      this.state.flushAt = null;
      if (!this.state.running) return;
      this.flushQueue();
    }
  }

  stop(): void {
    this.state.running = false;
  }

  /** Start again: a fresh list of nodes and pods, as a restarted process would do. */
  restart(): void {
    this.state.running = true;
    this.resync();
    this.kick();
  }

  // ---- informers -----------------------------------------------------------------------------

  private refreshSources(): void {
    const api = this.cluster.api;
    this.cache.sourcesChanged(() => ({
      services: api.list('Service'),
      replicaSets: api.list('ReplicaSet'),
      namespaces: api.list('Namespace')
    }));
  }

  private resync(): void {
    this.countLists();
    this.fill();
  }

  /** The informers' initial lists of Nodes and Pods, as the API server counts them. */
  private countLists(): void {
    this.cluster.api.countRead('list', 'Node', this.ctx);
    this.cluster.api.countRead('list', 'Pod', this.ctx);
  }

  private fill(): void {
    const api = this.cluster.api;
    this.refreshSources();
    for (const n of api.list('Node')) this.cache.upsertNode(n);
    for (const p of api.list('Pod')) this.onPod('ADDED', p, undefined);
  }

  private responsible(pod: KubeObject): boolean {
    return this.frameworks.has(pod.spec?.schedulerName ?? 'default-scheduler');
  }

  private onNode(type: string, node: KubeObject, old: KubeObject | undefined): void {
    if (type === 'DELETED') {
      this.cache.removeNode(node.metadata.name);
      if (this.moveOnEvent('NodeDelete', node, undefined)) this.kick();
      return;
    }
    // Heartbeats (conditions, lastHeartbeatTime) change nothing a plugin looks at.
    const update = type === 'MODIFIED' && old;
    const events: ClusterEventLabel[] = update ? nodeUpdateEvents(old, node) : ['NodeAdd'];
    this.cache.upsertNode(node);
    let moved = 0;
    for (const e of events) moved += this.moveOnEvent(e, update ? old : undefined, node);
    if (moved) this.kick();
  }

  private podOf(key: string): KubeObject | undefined {
    const [ns, name] = key.split('/');
    return this.cluster.api.tryGet<KubeObject>('Pod', ns, name);
  }

  private frameworkOf(pod: KubeObject | undefined): Framework | undefined {
    return pod && this.frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler');
  }

  /**
   * MoveAllToActiveOrBackoffQueue: nothing when no plugin of any profile registered the event
   * (isEventOfInterest); otherwise each unschedulable pod its rejecting plugins' queueing hints
   * say the event may help (isPodWorthRequeuing). The others stay for the next event or the flush.
   */
  private moveOnEvent(
    event: ClusterEventLabel,
    oldObj: KubeObject | undefined,
    newObj: KubeObject | undefined
  ): number {
    const plugins = new Set<string>();
    let interested = false;
    for (const fw of this.frameworks.values()) {
      const fns = fw.queueingHints.get(event);
      if (!fns?.length) continue;
      interested = true;
      for (const f of fns) plugins.add(f.plugin);
    }
    if (!interested) return 0;
    let h: Handle | undefined;
    return this.queue.moveOnEvent(this.cluster.now, event, [...plugins], (p) => {
      const pod = this.podOf(p.key);
      const fw = this.frameworkOf(pod);
      if (!pod || !fw) return true;
      return isPodWorthRequeuing(
        fw.queueingHints,
        p.plugins,
        event,
        pod,
        oldObj,
        newObj,
        (h ??= this.cache.handle)
      );
    });
  }

  private onPod(type: string, pod: KubeObject, old: KubeObject | undefined): void {
    const key = `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
    const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    if (pod.spec?.nodeName) {
      this.queue.remove(key);
      if (type === 'DELETED' || terminal) {
        if (this.cache.nodeOfPod(key) !== undefined) {
          this.cache.removePod(key);
          if (this.moveOnEvent('AssignedPodDelete', pod, undefined)) this.kick();
        }
        if (type === 'DELETED') this.dropHistory(key);
        return;
      }
      const wasAssigned = this.cache.nodeOfPod(key) !== undefined;
      this.cache.addPod(pod, pod.spec.nodeName);
      const relabelled =
        wasAssigned &&
        old &&
        old.metadata.labels !== pod.metadata.labels &&
        JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
      if (
        !wasAssigned
          ? this.moveOnEvent('AssignedPodAdd', undefined, pod)
          : relabelled && this.moveOnEvent('AssignedPodUpdatePodLabel', old, pod)
      )
        this.kick();
      return;
    }
    if (type === 'DELETED' || pod.metadata.deletionTimestamp || terminal || !this.responsible(pod)) {
      this.queue.remove(key);
      if (type === 'DELETED') this.dropHistory(key);
      return;
    }
    // SchedulingGates (PreEnqueue): gated pods stay out of the queue.
    if (pod.spec?.schedulingGates?.length) return;
    const q = this.queue.get(key);
    this.queue.enqueue(key, podPriority(pod), this.cluster.now);
    // An update to an unschedulable pod may have fixed it. New tolerations are UpdatePodToleration,
    // which the plugins' hints judge; the API server keeps the rest of a pending pod's spec as it
    // was upstream, so any other spec change here moves the pod as well.
    if (q && q.where === 'unschedulable' && old && JSON.stringify(old.spec) !== JSON.stringify(pod.spec)) {
      const tolerations =
        JSON.stringify(old.spec?.tolerations ?? []) !== JSON.stringify(pod.spec?.tolerations ?? []);
      const { tolerations: _a, ...restOld } = old.spec ?? {};
      const { tolerations: _b, ...restNew } = pod.spec ?? {};
      const fw = this.frameworkOf(pod);
      const worth =
        JSON.stringify(restOld) !== JSON.stringify(restNew) ||
        (tolerations &&
          !!fw &&
          isPodWorthRequeuing(
            fw.queueingHints,
            q.plugins,
            'UnschedulablePodUpdate',
            pod,
            old,
            pod,
            this.cache.handle
          ));
      if (worth) this.queue.activate(key, this.cluster.now, 'UnschedulablePodUpdate');
    }
    this.kick();
  }

  // ---- scheduling ----------------------------------------------------------------------------

  private kick(): void {
    if (!this.state.running || this.building) return;
    if (this.state.cycleAt === null && this.queue.hasActive()) {
      this.state.cycleAt = this.cluster.now + CYCLE_MS;
      this.cluster.engine.schedule(CYCLE_MS, this.id, 'cycle');
    }
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    const next = this.queue.flush(this.cluster.now);
    if (next !== Infinity && (this.state.flushAt === null || next < this.state.flushAt)) {
      this.state.flushAt = next;
      this.cluster.engine.scheduleAt(next, this.id, 'flush');
    }
  }

  private flushQueue(): void {
    this.queue.flush(this.cluster.now);
    this.kick();
  }

  private logError(message: string): void {
    this.state.errors.push({ t: this.cluster.now, message });
    if (this.state.errors.length > MAX_ERRORS) this.state.errors.shift();
  }

  private runCycle(): void {
    const entry = this.queue.peekActive();
    if (!entry) return;
    const [ns, name] = entry.key.split('/');
    const api = this.cluster.api;
    const pod = api.tryGet<KubeObject>('Pod', ns, name);
    if (!pod || pod.spec?.nodeName || pod.metadata.deletionTimestamp) {
      this.queue.remove(entry.key);
      this.kick();
      return;
    }
    const fw = this.frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler')!;
    const engine = this.cluster.engine;
    const r = scheduleOne(fw, this.cache.handle, newPodInfo(pod), {
      nextStartNodeIndex: this.state.nextStartNodeIndex,
      percentageOfNodesToScore: this.config.percentageOfNodesToScore,
      minor: this.minor,
      randomInt: (n) => engine.random.int(n),
      explain: true,
      now: this.cluster.now,
      bind: (pi, node) => this.bind(pi.pod, node, fw.name)
    });
    this.state.nextStartNodeIndex = r.nextStartNodeIndex;
    const result = `${r.selectedNode ? 'scheduled' : r.error ? 'error' : 'unschedulable'} ${fw.name}`;
    const attempts = (this.state.attempts ??= {});
    attempts[result] = (attempts[result] ?? 0) + 1;
    if (r.record) this.recordAttempt(entry.key, r.record);
    if (r.selectedNode) {
      this.queue.remove(entry.key);
    } else {
      const opts = {
        initialMs: this.config.podInitialBackoffSeconds * 1000,
        maxMs: this.config.podMaxBackoffSeconds * 1000,
        plugins: r.unschedulablePlugins
      };
      if (r.error) {
        this.logError(`Error scheduling pod ${entry.key}: ${r.error}`);
        this.queue.requeueAfterFailure(entry.key, this.cluster.now, {
          ...opts,
          unschedulable: false,
          moveRequested: false
        });
      } else {
        this.recordFailure(pod, r.message, fw.name, r.nominatedNodeName, r.victims?.map((v) => v.key) ?? []);
        // A successful preemption retries soon: the victims' deletion events will move it anyway.
        this.queue.requeueAfterFailure(entry.key, this.cluster.now, {
          ...opts,
          unschedulable: true,
          moveRequested: !!r.nominatedNodeName
        });
      }
    }
    this.kick();
  }

  /** Keep the attempt for explanations; the pod becomes the most recent one in the history. */
  private recordAttempt(key: string, attempt: AttemptRecord): void {
    const hist = this.state.history;
    const h = hist[key] ?? [];
    delete hist[key];
    hist[key] = h;
    this.historyOrder.delete(key);
    this.historyOrder.set(key, true);
    // Frozen when recorded and never changed after, so snapshots share it, not copy it.
    h.push(attempt);
    this.explained += explainedNodes([attempt]);
    if (h.length > HISTORY_LIMIT) this.explained -= explainedNodes([h.shift()!]);
    for (const oldest of this.historyOrder.keys()) {
      if (this.explained <= HISTORY_NODE_BUDGET || oldest === key) break;
      this.dropHistory(oldest);
    }
  }

  private dropHistory(key: string): void {
    const h = this.state.history[key];
    if (!h) return;
    this.explained -= explainedNodes(h);
    delete this.state.history[key];
    this.historyOrder.delete(key);
  }

  private bind(pod: KubeObject, node: string, schedulerName: string): string | null {
    const api = this.cluster.api;
    const { namespace, name } = pod.metadata;
    try {
      api.patch('Pod', namespace, name, { spec: { nodeName: node } }, this.ctx);
    } catch (e) {
      return errorText(e);
    }
    // The bound pod is in the cache. The watch has already added it, from the stored version just
    // written, unless it did not deliver the binding: only then is it added here (the status write
    // below replaces the entry with the next version).
    if (this.cache.nodeOfPod(`${namespace ?? 'default'}/${name}`) !== node)
      this.cache.addPod({ ...pod, spec: { ...pod.spec, nodeName: node } }, node);
    try {
      const cur = withOwnStatus(api.get<KubeObject>('Pod', namespace, name));
      setCondition(cur, {
        type: 'PodScheduled',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: api.timestamp()
      });
      if (cur.status?.nominatedNodeName) delete cur.status.nominatedNodeName;
      api.update(cur, this.ctx, { subresource: 'status', handOver: true });
    } catch (e) {
      this.logError(`Error updating pod ${namespace}/${name}: ${errorText(e)}`);
    }
    this.cluster.recorder.event(
      pod,
      'Normal',
      'Scheduled',
      `Successfully assigned ${namespace}/${name} to ${node}`,
      { component: schedulerName },
      this.ctx
    );
    return null;
  }

  private recordFailure(
    pod: KubeObject,
    message: string,
    schedulerName: string,
    nominated: string | undefined,
    victims: string[]
  ): void {
    const api = this.cluster.api;
    const { namespace, name } = pod.metadata;
    this.cluster.recorder.event(
      pod,
      'Warning',
      'FailedScheduling',
      message,
      { component: schedulerName },
      this.ctx
    );
    try {
      const cur = withOwnStatus(api.get<KubeObject>('Pod', namespace, name));
      cur.status = cur.status ?? {};
      setCondition(cur, {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message,
        lastProbeTime: null,
        lastTransitionTime: api.timestamp()
      });
      if (nominated) cur.status.nominatedNodeName = nominated;
      else if (nominated === '') delete cur.status.nominatedNodeName;
      api.update(cur, this.ctx, { subresource: 'status', handOver: true });
    } catch (e) {
      this.logError(`Error updating pod ${namespace}/${name}: ${errorText(e)}`);
    }
    if (nominated) this.evict(pod, nominated, victims, schedulerName);
  }

  /** Preemption: mark each victim DisruptionTarget, delete it gracefully, tell it who preempted it. */
  private evict(preemptor: KubeObject, node: string, victims: string[], schedulerName: string): void {
    const api = this.cluster.api;
    for (const key of victims) {
      const [ns, name] = key.split('/');
      try {
        const v = api.tryGet<KubeObject>('Pod', ns, name);
        if (!v || v.metadata.deletionTimestamp) continue;
        const cur = clone(v);
        cur.status = cur.status ?? {};
        setCondition(cur, {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'PreemptionByScheduler',
          message: `${schedulerName}: preempting to accommodate a higher priority pod`,
          lastProbeTime: null,
          lastTransitionTime: api.timestamp()
        });
        api.update(cur, this.ctx, { subresource: 'status' });
        api.delete('Pod', ns, name, {}, this.ctx);
        this.cluster.recorder.event(
          v,
          'Normal',
          'Preempted',
          `Preempted by pod ${preemptor.metadata.uid} on node ${node}`,
          { component: schedulerName },
          this.ctx
        );
      } catch (e) {
        this.logError(`Error preempting pod ${key}: ${errorText(e)}`);
      }
    }
  }
}

function explainedNodes(attempts: readonly AttemptRecord[]): number {
  let n = 0;
  for (const a of attempts) n += recordedNodes(a);
  return n;
}

/**
 * The attempts read last, built once each: the lab reads the selected pod's attempts on every
 * frame. A few, so the built attempts never add up to what the compact records save.
 */
const READ_CACHE = 64;
const readCache = new Map<AttemptRecord, SchedulingAttempt>();

function readAttempt(r: AttemptRecord): SchedulingAttempt {
  let a = readCache.get(r);
  if (a) {
    readCache.delete(r);
  } else {
    a = materializeAttempt(r);
    if (readCache.size >= READ_CACHE) readCache.delete(readCache.keys().next().value!);
  }
  readCache.set(r, a);
  return a;
}

function errorText(e: unknown): string {
  if (e instanceof ApiError || e instanceof ConnectionError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/**
 * A status write's request from the stored pod: the pod and its status are new objects and the
 * condition list a new array (setCondition and the callers change those), everything else is the
 * stored version's (frozen). The status is made for the write, so it is handed over.
 */
function withOwnStatus(stored: KubeObject): KubeObject {
  const pod: KubeObject = { ...stored };
  if (stored.status) {
    pod.status = { ...stored.status };
    if (stored.status.conditions) pod.status.conditions = [...stored.status.conditions];
  }
  return pod;
}

function setCondition(pod: KubeObject, cond: Record<string, unknown>): void {
  pod.status = pod.status ?? {};
  const list = (pod.status.conditions ?? []) as Record<string, unknown>[];
  const i = list.findIndex((c) => c.type === cond.type);
  if (i >= 0) {
    // lastTransitionTime changes only when the status does.
    if (list[i].status === cond.status) cond.lastTransitionTime = list[i].lastTransitionTime;
    list[i] = cond;
  } else list.push(cond);
  pod.status.conditions = list;
}

/** The recorded attempts for a pod (`<namespace>/<name>`), oldest first; at most HISTORY_LIMIT. */
export function getSchedulingHistory(cluster: Cluster, podKey: string): SchedulingAttempt[] {
  return cluster.component<KubeScheduler>(SCHEDULER_ID)?.history(podKey) ?? [];
}

export const kubeSchedulerComponent = defineComponent(
  SCHEDULER_KIND,
  (cluster, args: SchedulerArgs) => new KubeScheduler(cluster, args)
);

function scheduler(cluster: Cluster): KubeScheduler {
  const s = cluster.component<KubeScheduler>(SCHEDULER_ID);
  if (!s) throw new FaultError('kube-scheduler is not part of this cluster');
  return s;
}

export const faultStopScheduler = defineFault(
  'StopScheduler',
  'Stop kube-scheduler: pending pods stay Pending',
  (cluster) => scheduler(cluster).stop()
);
export const faultStartScheduler = defineFault('StartScheduler', 'Start kube-scheduler again', (cluster) =>
  scheduler(cluster).restart()
);
