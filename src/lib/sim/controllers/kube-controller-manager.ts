/**
 * kube-controller-manager: one process hosting the controllers, as upstream does. Each controller
 * gets a work queue and a JSON state slice; engine events addressed to `kube-controller-manager`
 * are routed to a controller by the `<controller>:<type>` prefix.
 *
 * StopControllerManager stops every controller at once: watches still record keys (the queues keep
 * them) but no event is processed; the events that come due meanwhile are held and replayed when
 * StartControllerManager brings the process back, after a resync of every controller's keys.
 */
import { FaultError, defineComponent, defineFault, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import type { RequestContext } from '../api/types';
import {
  backoffDelay,
  errorMessage,
  newWorkQueue,
  type Controller,
  type ControllerHost,
  type WorkQueueState
} from './controller';
import { NodeLifecycleController } from './nodelifecycle/node_lifecycle_controller';
import { TaintEvictionController } from './tainteviction/taint_eviction';
import { ReplicaSetController } from './replicaset/replica_set';
import { DeploymentController } from './deployment/deployment_controller';
import { DaemonSetsController } from './daemon/daemon_controller';
import { PodGCController } from './podgc/gc_controller';
import { GarbageCollector } from './garbagecollector/garbagecollector';
import { NodeIpamController } from './nodeipam/node_ipam_controller';
import { DisruptionController } from './disruption/disruption';
import { EndpointSliceKcmController } from './endpointslice/controller';
import { EndpointsController } from './endpoint/endpoints_controller';

export const KCM_ID = 'kube-controller-manager';
export const KCM_KIND = 'kube-controller-manager';

export interface ControllerError {
  t: number;
  controller: string;
  message: string;
}

interface ManagerState {
  running: boolean;
  /** Events that came due while stopped, replayed on start. */
  held: { type: string; data?: unknown }[];
  queues: Record<string, WorkQueueState>;
  controllers: Record<string, unknown>;
  errors: ControllerError[];
  /** workqueue_adds_total by controller: keys added that were not already waiting. */
  adds?: Record<string, number>;
  /**
   * By controller and key: the delaying queue's waiting entry (client-go's waitingForQueue keeps
   * one per key), the time it is added to the queue and the id of its engine event.
   */
  waiting?: Record<string, Record<string, { at: number; id: number }>>;
  /**
   * By engine event id: the keys a requeue event adds, in order, when it adds more than its own
   * (requeues of one instant scheduled one after the other share an event; see enqueueAfter).
   */
  batches?: Record<string, string[]>;
}

const MAX_ERRORS = 200;

export class KubeControllerManager implements Component {
  readonly id = KCM_ID;
  readonly kind = KCM_KIND;
  readonly args: Record<string, never> = {};
  readonly ctx: RequestContext = { component: 'kube-controller-manager' };
  readonly controllers: Controller[];
  private state: ManagerState = { running: true, held: [], queues: {}, controllers: {}, errors: [] };
  private unwatch: (() => void)[] = [];
  /**
   * The keys of each waiting queue as a set, by controller, with the key list it was built from
   * (derived from the queue's keys, not state: a drain or a restore gives the queue a new list).
   */
  private dirty = new Map<string, { keys: string[]; set: Set<string> }>();
  /** The controllers by name. */
  private byName = new Map<string, Controller>();
  /** Each engine event type seen, split once into its controller and the controller's own type. */
  private routes = new Map<string, { c: Controller | undefined; type: string }>();
  /**
   * The requeue event scheduled last, and the engine's event count and queue length just after it
   * (or after the last key joined it): while both are unchanged, nothing else has been scheduled.
   */
  private lastRequeue:
    { name: string; key: string; at: number; id: number; processed: number; pending: number } | undefined;

  constructor(readonly cluster: Cluster) {
    this.controllers = [
      new NodeIpamController(this.host('node-ipam-controller')),
      new NodeLifecycleController(this.host('node-lifecycle-controller')),
      new TaintEvictionController(this.host('taint-eviction-controller')),
      new ReplicaSetController(this.host('replicaset-controller')),
      new DeploymentController(this.host('deployment-controller')),
      new DaemonSetsController(this.host('daemonset-controller')),
      new PodGCController(this.host('pod-garbage-collector-controller')),
      new GarbageCollector(this.host('garbage-collector-controller')),
      new DisruptionController(this.host('disruption-controller')),
      new EndpointsController(this.host('endpoints-controller')),
      new EndpointSliceKcmController(this.host('endpointslice-controller'))
    ];
    for (const c of this.controllers) this.byName.set(c.name, c);
    for (const c of this.controllers) this.state.queues[c.name] = newWorkQueue();
    for (const c of this.controllers) this.unwatch.push(...c.watch());
  }

  get running(): boolean {
    return this.state.running;
  }

  /** Recent API failures, newest last (what the process would log). */
  get errors(): readonly ControllerError[] {
    return this.state.errors;
  }

  controller<T extends Controller>(name: string): T {
    const c = this.byName.get(name);
    if (!c) throw new Error(`no controller ${name}`);
    return c as T;
  }

  start(): void {
    for (const c of this.controllers) c.start?.();
    for (const c of this.controllers) for (const k of c.resyncKeys?.() ?? []) this.enqueue(c.name, k);
  }

  stop(): void {
    this.state.running = false;
  }

  resume(): void {
    if (this.state.running) return;
    this.state.running = true;
    for (const c of this.controllers) c.onRestart?.();
    for (const c of this.controllers) for (const k of c.resyncKeys?.() ?? []) this.enqueue(c.name, k);
    const held = this.state.held;
    this.state.held = [];
    for (const h of held) this.cluster.engine.schedule(0, this.id, h.type, h.data);
  }

  handle(ev: SimEvent): void {
    if (!this.state.running) {
      const keys = this.requeuedKeys(ev);
      if (keys) {
        // A held requeue is replayed as new events, one per key: the keys no longer wait on this one.
        for (const key of keys) this.state.held.push({ type: ev.type, data: key });
        return;
      }
      this.state.held.push(ev.data === undefined ? { type: ev.type } : { type: ev.type, data: ev.data });
      return;
    }
    let route = this.routes.get(ev.type);
    if (!route) {
      const sep = ev.type.indexOf(':');
      route = { c: this.byName.get(ev.type.slice(0, sep)), type: ev.type.slice(sep + 1) };
      this.routes.set(ev.type, route);
    }
    const { c, type } = route;
    if (!c) return;
    if (type === 'sync') this.drain(c);
    else if (type === 'requeue') {
      for (const key of this.requeuedKeys(ev)!) this.enqueue(c.name, key);
    } else c.handle?.(type, ev.data);
  }

  /**
   * The keys a requeue event that came due adds, in order; they no longer wait on it. Undefined
   * for any other event.
   */
  private requeuedKeys(ev: SimEvent): string[] | undefined {
    const sep = ev.type.indexOf(':');
    if (ev.type.slice(sep + 1) !== 'requeue') return undefined;
    const waiting = this.state.waiting?.[ev.type.slice(0, sep)];
    const batch = this.state.batches?.[ev.seq];
    if (batch) delete this.state.batches![ev.seq];
    const keys = batch ?? [ev.data as string];
    for (const key of keys) if (waiting?.[key]?.id === ev.seq) delete waiting[key];
    return keys;
  }

  /**
   * client-go's delaying queue AddAfter (one waiting entry per key, the earliest). Requeues for
   * the same instant scheduled one right after the other, with no other engine event scheduled in
   * between (a run of ReplicaSets that wait for the same client token), share one engine event
   * that adds their keys in the order they came: separate events would have had consecutive ids
   * and fired one after the other with nothing between them.
   */
  private enqueueAfter(name: string, key: string, delayMs: number): void {
    const engine = this.cluster.engine;
    const at = engine.now + Math.max(0, delayMs);
    const waiting = ((this.state.waiting ??= {})[name] ??= {});
    const w = waiting[key];
    if (w) {
      if (w.at <= at) return;
      this.leaveRequeue(key, w.id);
    }
    const last = this.lastRequeue;
    const batches = (this.state.batches ??= {});
    if (
      last &&
      last.name === name &&
      last.at === at &&
      last.processed === engine.processed &&
      last.pending === engine.pendingCount()
    ) {
      (batches[last.id] ??= [last.key]).push(key);
      last.pending = engine.pendingCount();
      waiting[key] = { at, id: last.id };
      return;
    }
    const id = engine.scheduleAt(at, this.id, `${name}:requeue`, key);
    waiting[key] = { at, id };
    this.lastRequeue = { name, key, at, id, processed: engine.processed, pending: engine.pendingCount() };
  }

  /** Take a key out of the requeue event it waits on (the event is cancelled when it adds no other). */
  private leaveRequeue(key: string, id: number): void {
    const batch = this.state.batches?.[id];
    if (!batch) {
      this.cluster.engine.cancel(id);
      return;
    }
    batch.splice(batch.indexOf(key), 1);
    if (!batch.length) {
      delete this.state.batches![id];
      this.cluster.engine.cancel(id);
    }
  }

  getState(): unknown {
    const controllers: Record<string, unknown> = {};
    for (const c of this.controllers) controllers[c.name] = c.getState?.();
    return structuredClone({ ...this.state, controllers });
  }

  setState(s: unknown): void {
    const st = structuredClone(s) as ManagerState;
    this.state = st;
    for (const c of this.controllers) {
      st.queues[c.name] ??= newWorkQueue();
      if (st.controllers[c.name] !== undefined) c.setState?.(st.controllers[c.name]);
    }
    this.state.controllers = {};
  }

  /** Each controller's work queue: keys waiting now and keys added so far. */
  workQueues(): { controller: string; depth: number; adds: number }[] {
    return this.controllers.map((c) => ({
      controller: c.name,
      depth: this.state.queues[c.name]?.keys.length ?? 0,
      adds: this.state.adds?.[c.name] ?? 0
    }));
  }

  dispose(): void {
    for (const u of this.unwatch) u();
    this.unwatch = [];
  }

  private enqueue(name: string, key: string): void {
    const q = this.state.queues[name];
    // The work queue's dirty set (client-go's workqueue): a key already waiting is not added again.
    let d = this.dirty.get(name);
    if (d?.keys !== q.keys) this.dirty.set(name, (d = { keys: q.keys, set: new Set(q.keys) }));
    const dirty = d.set;
    if (!dirty.has(key)) {
      dirty.add(key);
      q.keys.push(key);
      const adds = (this.state.adds ??= {});
      adds[name] = (adds[name] ?? 0) + 1;
    }
    if (!q.scheduled) {
      q.scheduled = true;
      this.cluster.engine.schedule(0, this.id, `${name}:sync`);
    }
  }

  private drain(c: Controller): void {
    const q = this.state.queues[c.name];
    q.scheduled = false;
    const keys = q.keys;
    q.keys = [];
    for (const key of keys) {
      try {
        c.sync?.(key);
        if (Object.hasOwn(q.retries, key)) delete q.retries[key];
      } catch (err) {
        this.logError(c.name, `error syncing "${key}"`, err);
        const n = q.retries[key] ?? 0;
        q.retries[key] = n + 1;
        this.enqueueAfter(c.name, key, backoffDelay(n));
      }
    }
  }

  private logError(controller: string, what: string, err: unknown): void {
    this.state.errors.push({
      t: this.cluster.engine.now,
      controller,
      message: `${what}: ${errorMessage(err)}`
    });
    if (this.state.errors.length > MAX_ERRORS)
      this.state.errors.splice(0, this.state.errors.length - MAX_ERRORS);
  }

  private host(name: string): ControllerHost {
    const engine = this.cluster.engine;
    return {
      cluster: this.cluster,
      ctx: this.ctx,
      now: () => engine.now,
      schedule: (delay, type, data) => engine.schedule(delay, this.id, `${name}:${type}`, data),
      scheduleAt: (at, type, data) => engine.scheduleAt(at, this.id, `${name}:${type}`, data),
      enqueue: (key) => this.enqueue(name, key),
      enqueueAfter: (key, delayMs) => this.enqueueAfter(name, key, delayMs),
      requeueWithBackoff: (key) => {
        const q = this.state.queues[name];
        const n = q.retries[key] ?? 0;
        q.retries[key] = n + 1;
        this.enqueueAfter(name, key, backoffDelay(n));
      },
      forget: (key) => {
        delete this.state.queues[name].retries[key];
      },
      logError: (what, err) => this.logError(name, what, err)
    };
  }
}

export const kubeControllerManagerComponent = defineComponent(
  KCM_KIND,
  (cluster: Cluster) => new KubeControllerManager(cluster)
);

function manager(cluster: Cluster): KubeControllerManager {
  const m = cluster.component<KubeControllerManager>(KCM_ID);
  if (!m) throw new FaultError('kube-controller-manager is not part of this cluster');
  return m;
}

export const faultStopControllerManager = defineFault(
  'StopControllerManager',
  'Stop kube-controller-manager: no controller runs (no taints, no evictions, no replacements) until it starts again.',
  (cluster) => manager(cluster).stop()
);

export const faultStartControllerManager = defineFault(
  'StartControllerManager',
  'Start kube-controller-manager again.',
  (cluster) => manager(cluster).resume()
);
