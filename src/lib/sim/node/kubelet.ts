/**
 * The kubelet on one node (component kind `kubelet`, id `kubelet/<node>`): registers the Node,
 * renews its Lease, reports NodeStatus, checks the runtime and network, syncs the pods bound to the
 * node, and runs the node-pressure eviction manager. It runs on its machine's `NodeHost`
 * (node/host.ts), which owns the container runtime, /etc/cni/net.d, the journal and the memory
 * and disk outside pods; stopping the kubelet leaves containers running.
 *
 * Loops are engine events tagged with the service epoch; a stop or restart bumps the epoch so the
 * previous run's timers fall silent, as the real process's goroutines die with it.
 */
import { kubeletGitVersion } from '../controlplane/managed';
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { KubeObject, RequestContext } from '../api/types';
import type { RepeatingEvent, SimEvent } from '../engine/engine';
import {
  kubeletMachine,
  stepLifecycle,
  initialLifecycle,
  type KubeletLifecycleEvent
} from '../machines/kubelet';
import { initialRecord, moveRecord } from '../machines/record';
import type { JournalEntry } from './cri';
import { NodeHost, type NodeHostState } from './host';
import type { ContainerRuntime } from './runtime';
import type { KubeletState } from './state';
import type { KubeletArgs } from './types';
import {
  syncNodeStatus,
  runtimeCheck,
  nodeRef,
  type KeptBody,
  type LiveSeen,
  type Unchanged
} from './nodestatus';
import { syncPod, housekeeping } from './podsync';
import { leaseRenewInterval, renewLease, tryRegister } from './registration';
import { onContainerExit } from './containers';
import { fingerprint } from './digest';
import { evictionTick, type PodStats } from './eviction';
import { resetDeviceManager } from './devicemanager';
import { powerOff, shutdownCriticalPhase } from './nodeshutdown';

/** The kubelet's derived caches (`Kubelet.derived`). */
export interface KubeletDerived {
  /** eviction.ts: the pod stats of the last observation. */
  podStats?: PodStats;
  /** nodestatus.ts: the live status whose conditions the last sync found equal to its own. */
  liveSeen?: LiveSeen;
  /** nodestatus.ts: the status body the last sync built. */
  keptBody?: KeptBody;
  /** nodestatus.ts: the last sync that found nothing to report. */
  lastUnchanged?: Unchanged;
}

/** kubelet housekeeping period (2s): PLEG bookkeeping and pod reconciliation. */
export const HOUSEKEEPING_PERIOD = 2_000;

export class Kubelet implements Component {
  readonly kind = 'kubelet';
  readonly id: string;
  /** The machine this kubelet runs on. */
  readonly host: NodeHost;
  state: KubeletState;
  private unwatch: () => void;
  /** The data of this run's loop events (see `schedule`). */
  private epochData: Readonly<{ epoch: number }> | undefined;
  /** The request context of this kubelet's API calls (see `ctx`). */
  private ctxOf: Readonly<RequestContext> | undefined;
  /**
   * The housekeeping event while its passes have nothing to do but mark PLEG's relist (the
   * runtime is up, no relist is pending, no device plugins): the engine queues it again every
   * period without a pass, and the last relist is the pass before the one queued (`lastRelist`).
   */
  private quietHousekeeping: RepeatingEvent | undefined;
  /**
   * The runtime check's event while its checks would only find the runtime up and the network
   * ready, as the last one did: the last good check is the pass before the one queued.
   */
  private quietRuntimeCheck: RepeatingEvent | undefined;
  /**
   * What the kubelet's loops derive from its state and keep between passes (see each field's
   * owner): on the kubelet itself, so a pass reads it without a lookup. Not state: a restored
   * kubelet derives it again.
   */
  readonly derived: KubeletDerived = {};

  constructor(
    readonly cluster: Cluster,
    public args: KubeletArgs
  ) {
    this.id = `kubelet/${args.nodeName}`;
    this.state = {
      lifecycle: initialLifecycle(),
      machine: initialRecord(kubeletMachine, cluster.now),
      epoch: 0,
      registered: false,
      registerDelay: 100,
      leaseDelay: 0,
      leaseExists: false,
      conditions: [],
      networkError: '',
      lastRelist: cluster.now,
      signals: {},
      pressure: { memory: false, disk: false, pid: false },
      pods: {},
      queue: [],
      syncScheduled: false,
      pullBusyUntil: 0,
      backoff: {},
      ips: {}
    };
    this.host = new NodeHost(cluster, this);
    // The loops' periods: their passes are queued in the engine's lanes (in the same order).
    const cfg = this.cfg;
    for (const ms of [
      HOUSEKEEPING_PERIOD,
      cfg.runtimeCheckPeriod,
      cfg.nodeStatusUpdateFrequency,
      leaseRenewInterval(cfg),
      cfg.evictionMonitoringPeriod
    ])
      cluster.engine.declarePeriod(ms);
    cluster.addNodeHost(this.host);
    this.unwatch = cluster.api.watch(
      'Pod',
      (type, obj, old) => {
        if (obj.spec?.nodeName !== this.name && old?.spec?.nodeName !== this.name) return;
        if (!this.syncing || !this.apiReachable()) {
          // The watch stream is broken: relist once the kubelet is back in touch.
          this.requestRelist();
          return;
        }
        // Like the kubelet's pod config source, status-only updates (its own writes) are not work.
        if (type === 'MODIFIED' && old && !podChangedForKubelet(old, obj)) return;
        this.enqueue(`${obj.metadata.namespace}/${obj.metadata.name}`);
      },
      { nodeName: args.nodeName }
    );
  }

  get name(): string {
    return this.args.nodeName;
  }

  /** One frozen context per node name, not a new object for every request. */
  get ctx(): RequestContext {
    const name = this.name;
    let ctx = this.ctxOf;
    if (ctx?.node !== name) this.ctxOf = ctx = Object.freeze({ component: 'kubelet', node: name });
    return ctx;
  }

  get cfg() {
    return this.cluster.config.kubelet;
  }

  get now(): number {
    return this.cluster.engine.now;
  }

  /** The container runtime on this kubelet's machine. */
  get runtime(): ContainerRuntime {
    return this.host.runtime;
  }

  /** The kubelet binary's version. */
  get version(): string {
    // A managed cluster's nodes run the provider's kubelet build (v1.35.0-eks-…, v1.35.0-gke.…).
    return kubeletGitVersion(
      this.cluster.config.managed,
      this.args.kubeletVersion ?? this.cluster.config.kubernetesVersion
    );
  }

  get maxPods(): number {
    return this.args.maxPods ?? this.cfg.maxPods;
  }

  /** The service process is up (any state but stopped). */
  get running(): boolean {
    return this.state.lifecycle.value !== 'stopped';
  }

  /** Registered and syncing pods. */
  get syncing(): boolean {
    return this.state.lifecycle.value === 'running';
  }

  /** What the kubelet service reports about itself (systemd's view and its sync loop's). */
  status(): {
    running: boolean;
    syncing: boolean;
    phase: KubeletState['lifecycle']['value'];
    registered: boolean;
    version: string;
    pid?: number;
    since: number;
  } {
    const h = this.host.state;
    return {
      running: this.running,
      syncing: this.syncing,
      phase: this.state.lifecycle.value,
      registered: this.state.registered,
      version: this.version,
      ...(h.kubeletPid !== undefined ? { pid: h.kubeletPid } : {}),
      since: h.kubeletSince
    };
  }

  /** First boot of the machine (not called on restore, so a restore draws no random numbers). */
  start(): void {
    this.host.boot();
    this.startService();
  }

  /** Removing the kubelet component removes its machine too (there is one kubelet per host). */
  dispose(): void {
    this.wakeLoops();
    this.unwatch();
    if (this.cluster.nodeHost(this.name) === this.host) this.cluster.removeNodeHost(this.name);
  }

  getState(): unknown {
    // What the quiet loops' passes would have written.
    if (this.quietHousekeeping) this.state.lastRelist = this.lastRelist;
    if (this.quietRuntimeCheck) this.state.runtimeLastOk = this.runtimeLastOk;
    return this.state;
  }

  /** `state` is the cluster's private copy of a snapshot's state (Cluster.restore copies it). */
  setState(state: unknown): void {
    this.wakeLoops();
    this.state = state as KubeletState;
    // Older snapshots kept the machine (runtime, journal, CNI config...) in the kubelet's state.
    const old = this.state as Partial<NodeHostState> & KubeletState;
    if (old.runtime) {
      const { runtime, journal, cni, system, ids, poweredOff, kubeletPid, kubeletSince } = old;
      this.host.state = {
        runtime,
        journal: journal ?? [],
        cni: cni ?? {},
        system: system ?? this.host.state.system,
        ids: ids ?? this.host.state.ids,
        ...(poweredOff ? { poweredOff } : {}),
        ...(kubeletPid !== undefined ? { kubeletPid } : {}),
        kubeletSince: kubeletSince ?? this.now
      };
      delete old.runtime;
      delete old.journal;
      delete old.cni;
      delete old.system;
      delete old.ids;
      delete old.poweredOff;
      delete old.kubeletPid;
      delete old.kubeletSince;
    }
    // Older snapshots kept the last posted NodeStatus; the kubelet now compares with the live Node.
    delete (this.state as { lastPosted?: string }).lastPosted;
    for (const rec of Object.values(this.state.pods)) {
      // Snapshots taken before fingerprints held the posted status JSON itself.
      if (rec.posted !== undefined && !rec.posted.startsWith('#')) rec.posted = fingerprint(rec.posted);
    }
  }

  // ---- service lifecycle ---------------------------------------------------------------------

  lifecycle(ev: KubeletLifecycleEvent): void {
    this.state.lifecycle = stepLifecycle(this.state.lifecycle, ev);
    const rec = (this.state.machine ??= initialRecord(kubeletMachine, this.now));
    const value = this.state.lifecycle.value;
    if (value !== rec.value) this.state.machine = moveRecord(rec, value, ev.type, this.now);
  }

  startService(): void {
    if (this.running || this.host.state.poweredOff) return;
    const s = this.state;
    this.wakeLoops();
    this.lifecycle({ type: 'START', at: this.now });
    s.epoch++;
    this.host.state.kubeletPid = 1000 + this.cluster.engine.random.int(60000);
    this.host.state.kubeletSince = this.now;
    s.registerDelay = 100;
    s.leaseDelay = 0;
    s.runtimeLastOk = undefined;
    s.lastRelist = this.now;
    s.queue = [];
    s.syncScheduled = false;
    s.relist = true;
    resetDeviceManager(this);
    this.journal('I', 'server.go:529', `"Kubelet version" kubeletVersion="${this.version}"`);
    this.nodeEvent('Normal', 'Starting', 'Starting kubelet.');
    this.nodeEvent('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    runtimeCheck(this);
    this.lifecycle({ type: 'REGISTER' });
    this.journal('I', 'kubelet_node_status.go:75', `"Attempting to register node" node="${this.name}"`);
    this.schedule(s.registerDelay, 'register');
    this.schedule(this.cfg.runtimeCheckPeriod, 'runtime-check');
    this.schedule(HOUSEKEEPING_PERIOD, 'housekeeping');
  }

  stopService(): void {
    if (!this.running) return;
    this.wakeLoops();
    this.lifecycle({ type: 'STOP', at: this.now });
    this.state.epoch++;
    this.host.state.kubeletSince = this.now;
    this.host.state.kubeletPid = undefined;
    this.state.queue = [];
    this.state.syncScheduled = false;
  }

  // ---- engine events -----------------------------------------------------------------------

  /** Schedule a loop event of the current service run. */
  schedule(delayMs: number, type: string, extra?: Record<string, unknown>): void {
    // A loop event's data is only the run's epoch: one frozen object per run serves them all (the
    // engine keeps frozen data as it is), instead of a new object copied and frozen per event.
    const epoch = this.state.epoch;
    let data = this.epochData;
    if (data?.epoch !== epoch) this.epochData = data = Object.freeze({ epoch });
    this.cluster.engine.schedule(delayMs, this.id, type, extra ? { epoch, ...extra } : data);
  }

  handle(ev: SimEvent): void {
    const data = (ev.data ?? {}) as {
      epoch?: number;
      key?: string;
      id?: string;
      code?: number;
      reason?: string;
    };
    if (ev.type === 'ctr-exit') {
      onContainerExit(this, data.id!, data.code!, data.reason!);
      return;
    }
    if (data.epoch !== this.state.epoch || !this.running) return;
    switch (ev.type) {
      case 'register':
        return tryRegister(this);
      case 'lease':
        return renewLease(this);
      case 'status':
        syncNodeStatus(this);
        this.schedule(this.cfg.nodeStatusUpdateFrequency, 'status');
        return;
      case 'runtime-check': {
        runtimeCheck(this);
        const period = this.cfg.runtimeCheckPeriod;
        if (this.host.state.runtime.running && !this.state.networkError && this.host.cni.installed) {
          // The next checks would find the same: quiet until the runtime or the CNI config changes.
          this.quietRuntimeCheck = this.cluster.engine.scheduleRepeating(
            period,
            this.id,
            'runtime-check',
            ev.data,
            period
          );
        } else this.schedule(period, 'runtime-check');
        return;
      }
      case 'eviction':
        evictionTick(this);
        this.schedule(this.cfg.evictionMonitoringPeriod, 'eviction');
        return;
      case 'housekeeping':
        housekeeping(this);
        if (this.host.state.runtime.running && !this.args.devices && !this.state.relist) {
          // The next passes would only mark the relist: the engine keeps the event's times and
          // places (see RepeatingEvent) until something gives them work (wakeHousekeeping).
          this.quietHousekeeping = this.cluster.engine.scheduleRepeating(
            HOUSEKEEPING_PERIOD,
            this.id,
            'housekeeping',
            ev.data,
            HOUSEKEEPING_PERIOD
          );
        } else this.schedule(HOUSEKEEPING_PERIOD, 'housekeeping');
        return;
      case 'wake':
        if (this.syncing && data.key) {
          const rec = this.state.pods[data.key];
          if (rec && rec.wakeAt !== undefined && rec.wakeAt <= this.now) rec.wakeAt = undefined;
          this.enqueue(data.key);
        }
        return;
      case 'sync':
        return this.processQueue();
      case 'shutdown-critical':
        return shutdownCriticalPhase(this);
      case 'poweroff':
        return powerOff(this);
    }
  }

  /** PLEG's last relist (pkg/kubelet/pleg/generic.go): the last housekeeping pass with the runtime up. */
  get lastRelist(): number {
    const t = this.quietHousekeeping;
    return t ? t.at - t.period : this.state.lastRelist;
  }

  /** The last runtime check that found the runtime up (updateRuntimeUp's lastBaseRuntimeSync). */
  get runtimeLastOk(): number | undefined {
    const t = this.quietRuntimeCheck;
    return t ? t.at - t.period : this.state.runtimeLastOk;
  }

  /**
   * Housekeeping passes have work again, or this run of them ends: the quiet event is dispatched
   * from its next pass on, and the relist it marked is written down. Called before a relist is
   * asked for (and by `wakeLoops`).
   */
  wakeHousekeeping(): void {
    const t = this.quietHousekeeping;
    if (!t) return;
    this.quietHousekeeping = undefined;
    this.state.lastRelist = t.at - t.period;
    t.quiet = false;
  }

  /** The runtime check has something to find again (the CNI config changed, or `wakeLoops`). */
  wakeRuntimeCheck(): void {
    const t = this.quietRuntimeCheck;
    if (!t) return;
    this.quietRuntimeCheck = undefined;
    this.state.runtimeLastOk = t.at - t.period;
    t.quiet = false;
  }

  /** Before the runtime stops, and when the service starts or stops: both loops are dispatched again. */
  wakeLoops(): void {
    this.wakeHousekeeping();
    this.wakeRuntimeCheck();
  }

  /** Watch events were missed or a write failed: the next housekeeping pass lists pods again. */
  requestRelist(): void {
    this.wakeHousekeeping();
    this.state.relist = true;
  }

  // ---- pod work queue ------------------------------------------------------------------------

  enqueue(key: string): void {
    if (!this.state.queue.includes(key)) this.state.queue.push(key);
    if (!this.state.syncScheduled) {
      this.state.syncScheduled = true;
      this.schedule(0, 'sync');
    }
  }

  private processQueue(): void {
    this.state.syncScheduled = false;
    while (this.state.queue.length && this.syncing) {
      syncPod(this, this.state.queue.shift()!);
    }
  }

  /** Ask for a sync of `key` at virtual time `at` (keeps only the earliest pending wake). */
  wake(key: string, at: number): void {
    const rec = this.state.pods[key];
    if (!rec) return;
    if (rec.wakeAt !== undefined && rec.wakeAt <= at && rec.wakeAt > this.now) return;
    rec.wakeAt = at;
    this.schedule(Math.max(0, at - this.now), 'wake', { key });
  }

  // ---- helpers -------------------------------------------------------------------------------

  apiReachable(): boolean {
    try {
      this.cluster.api.reachable(this.ctx);
      return true;
    } catch {
      return false;
    }
  }

  journal(
    level: JournalEntry['level'],
    source: string,
    message: string,
    unit: JournalEntry['unit'] = 'kubelet'
  ): void {
    this.host.writeJournal(level, source, message, unit);
  }

  nodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.cluster.recorder.event(nodeRef(this.name), type, reason, message, this.source, this.ctx);
  }

  get source() {
    return { component: 'kubelet', host: this.name };
  }
}

/**
 * Whether a pod update is work for the kubelet (pkg/kubelet/config/config.go checkAndUpdatePod:
 * a change outside the status). A status write keeps the stored spec, labels and annotations as
 * the same frozen objects, so those compare by identity before their JSON.
 */
function podChangedForKubelet(a: KubeObject, b: KubeObject): boolean {
  return (
    a.metadata.uid !== b.metadata.uid ||
    a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp ||
    boundElsewhere(a.spec?.nodeName, b.spec?.nodeName) ||
    jsonDiffers(a.spec, b.spec) ||
    jsonDiffers(a.metadata.annotations, b.metadata.annotations) ||
    jsonDiffers(a.metadata.labels, b.metadata.labels)
  );
}

/** Node names of which one is a string and the other not the same: the specs' JSON differs (a binding). */
function boundElsewhere(a: unknown, b: unknown): boolean {
  return a !== b && (typeof a === 'string' || typeof b === 'string');
}

function jsonDiffers(a: unknown, b: unknown): boolean {
  return a !== b && JSON.stringify(a) !== JSON.stringify(b);
}

export const kubeletComponent = defineComponent(
  'kubelet',
  (cluster, args: KubeletArgs) => new Kubelet(cluster, args)
);
