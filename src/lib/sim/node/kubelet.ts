/**
 * The kubelet on one node (component kind `kubelet`, id `kubelet/<node>`): registers the Node,
 * renews its Lease, reports NodeStatus, checks the runtime and network, syncs the pods bound to the
 * node, and runs the node-pressure eviction manager. The container runtime lives in the same
 * component state (node/runtime.ts); stopping the kubelet leaves containers running.
 *
 * Loops are engine events tagged with the service epoch; a stop or restart bumps the epoch so the
 * previous run's timers fall silent, as the real process's goroutines die with it.
 */
import { kubeletGitVersion } from '../controlplane/managed';
import { defineComponent, type Cluster, type Component } from '../cluster';
import { tryParseQuantity } from '../api/quantity';
import type { KubeObject, RequestContext } from '../api/types';
import type { SimEvent } from '../engine/engine';
import {
  kubeletMachine,
  stepLifecycle,
  initialLifecycle,
  type KubeletLifecycleEvent
} from '../machines/kubelet';
import { initialRecord, moveRecord } from '../machines/record';
import type { JournalEntry, NodeHostView } from './cri';
import { createHostView } from './host';
import { ContainerRuntime } from './runtime';
import { resolveImage } from './registry';
import type { KubeletState } from './state';
import type { KubeletArgs } from './types';
import { syncNodeStatus, runtimeCheck, nodeRef, CNI_CONFIGS } from './nodestatus';
import { syncPod, housekeeping } from './podsync';
import { renewLease, tryRegister } from './registration';
import { onContainerExit } from './containers';
import { fingerprint } from './digest';
import { evictionTick } from './eviction';
import { resetDeviceManager } from './devicemanager';
import { powerOff, shutdownCriticalPhase } from './nodeshutdown';

const JOURNAL_LIMIT = 3000;
/** kubelet housekeeping period (2s): PLEG bookkeeping and pod reconciliation. */
export const HOUSEKEEPING_PERIOD = 2_000;
/** Size assumed for a preloaded image the registry model does not know. */
const PRELOADED_UNKNOWN_SIZE = 50_000_000;

export class Kubelet implements Component {
  readonly kind = 'kubelet';
  readonly id: string;
  readonly host: NodeHostView;
  state: KubeletState;
  private unwatch: () => void;

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
      ips: {},
      runtime: ContainerRuntime.initial(args.runtime, cluster.config.kubernetesVersion, cluster.now),
      journal: [],
      cni: cluster.config.network.cni === 'none' ? {} : { ...CNI_CONFIGS[cluster.config.network.cni] },
      system: { memory: 0, disk: 0, fillMemory: 0, fillDisk: 0 },
      ids: { machineID: '', systemUUID: '', bootID: '' },
      kubeletSince: cluster.now
    };
    this.state.system = baselineSystemUsage(args);
    for (const image of args.preloadedImages ?? []) {
      const found = resolveImage(cluster, image);
      this.runtime.addImage(image, found.ok ? found.image.sizeBytes : PRELOADED_UNKNOWN_SIZE);
    }
    this.host = createHostView(this);
    this.unwatch = cluster.api.watch(
      'Pod',
      (type, obj, old) => {
        if (obj.spec?.nodeName !== this.name && old?.spec?.nodeName !== this.name) return;
        if (!this.syncing || !this.apiReachable()) {
          // The watch stream is broken: relist once the kubelet is back in touch.
          this.state.relist = true;
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

  get ctx(): RequestContext {
    return { component: 'kubelet', node: this.name };
  }

  get cfg() {
    return this.cluster.config.kubelet;
  }

  get now(): number {
    return this.cluster.engine.now;
  }

  get runtime(): ContainerRuntime {
    return new ContainerRuntime(this.state.runtime, this.cluster.engine, (e) =>
      this.journal(e.level, e.source, e.message, this.state.runtime.name === 'cri-o' ? 'crio' : 'containerd')
    );
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

  /** First boot of the machine (not called on restore, so a restore draws no random numbers). */
  start(): void {
    const r = this.cluster.engine.random;
    this.state.ids = { machineID: r.hex(32), systemUUID: r.uid(), bootID: r.uid() };
    this.state.runtime.pid = 300 + r.int(700);
    this.startService();
  }

  dispose(): void {
    this.unwatch();
  }

  getState(): unknown {
    return this.state;
  }

  /** `state` is the cluster's private copy of a snapshot's state (Cluster.restore copies it). */
  setState(state: unknown): void {
    this.state = state as KubeletState;
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
    if (this.running || this.state.poweredOff) return;
    const s = this.state;
    this.lifecycle({ type: 'START', at: this.now });
    s.epoch++;
    s.kubeletPid = 1000 + this.cluster.engine.random.int(60000);
    s.kubeletSince = this.now;
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
    this.lifecycle({ type: 'STOP', at: this.now });
    this.state.epoch++;
    this.state.kubeletSince = this.now;
    this.state.kubeletPid = undefined;
    this.state.queue = [];
    this.state.syncScheduled = false;
  }

  // ---- engine events -----------------------------------------------------------------------

  /** Schedule a loop event of the current service run. */
  schedule(delayMs: number, type: string, extra: Record<string, unknown> = {}): void {
    this.cluster.engine.schedule(delayMs, this.id, type, { epoch: this.state.epoch, ...extra });
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
      case 'runtime-check':
        runtimeCheck(this);
        this.schedule(this.cfg.runtimeCheckPeriod, 'runtime-check');
        return;
      case 'eviction':
        evictionTick(this);
        this.schedule(this.cfg.evictionMonitoringPeriod, 'eviction');
        return;
      case 'housekeeping':
        housekeeping(this);
        this.schedule(HOUSEKEEPING_PERIOD, 'housekeeping');
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
    const j = this.state.journal;
    // Frozen: an entry never changes, so snapshots share it instead of copying it.
    j.push(Object.freeze({ t: this.now, unit, level, source, message }));
    if (j.length > JOURNAL_LIMIT) j.splice(0, j.length - JOURNAL_LIMIT);
  }

  nodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.cluster.recorder.event(nodeRef(this.name), type, reason, message, this.source, this.ctx);
  }

  get source() {
    return { component: 'kubelet', host: this.name };
  }
}

/** The OS, systemd units, the kubelet and the runtime use some memory and disk before any pod runs. */
export function baselineSystemUsage(args: KubeletArgs): KubeletState['system'] {
  const bytes = (q: string | undefined) => Math.round((tryParseQuantity(q) ?? 0) / 1000);
  return {
    // Whole 4Ki pages, as cAdvisor reports memory.
    memory: Math.floor(Math.min(bytes(args.capacity.memory) * 0.05, 768 * 2 ** 20) / 4096) * 4096,
    disk: Math.min(Math.round(bytes(args.capacity['ephemeral-storage']) * 0.06), 6 * 2 ** 30),
    fillMemory: 0,
    fillDisk: 0
  };
}

function podChangedForKubelet(a: KubeObject, b: KubeObject): boolean {
  return (
    a.metadata.uid !== b.metadata.uid ||
    a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp ||
    JSON.stringify(a.spec) !== JSON.stringify(b.spec) ||
    JSON.stringify(a.metadata.annotations) !== JSON.stringify(b.metadata.annotations) ||
    JSON.stringify(a.metadata.labels) !== JSON.stringify(b.metadata.labels)
  );
}

export const kubeletComponent = defineComponent(
  'kubelet',
  (cluster, args: KubeletArgs) => new Kubelet(cluster, args)
);
