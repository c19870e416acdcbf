/**
 * The cluster: one engine, one etcd, one API server, and the components that talk to it.
 *
 * Components (kubelets, controllers, the scheduler...) are registered by kind with a factory, so a
 * snapshot can list them as data ({id, kind, args, state}) and a restore can rebuild them. A
 * component sees the cluster only through `cluster.api` (with its own RequestContext), the event
 * recorder, and engine events addressed to its id.
 *
 * Faults (stop a kubelet, partition a node, stop an etcd member...) are named actions with
 * handlers registered by the module that owns the affected component; the UI, the console, the
 * scenario's fault list and lesson solutions all apply them through `applyFault`.
 */
import { ApiServer } from './api/apiserver';
import { installAdmission } from './api/admission';
import { ConnectionError } from './api/errors';
import { copySharingFrozen, freezeForSnapshot, type RequestContext } from './api/types';
import { defaultConfig, type ClusterConfig } from './config';
import { Engine, type EngineSnapshot, type SimEvent } from './engine/engine';
import { Etcd, type EtcdSnapshot } from './etcd/etcd';
import { EventRecorder, type EventLogEntry } from './events/recorder';
import type { ApiServerSnapshot } from './api/apiserver';
import { COMPONENTS, FAULTS, isControlPlaneFault } from './registry';
import { PROVIDER_NAME } from './controlplane/managed';
import type { NodeHost, NodeHostState } from './node/host';

export interface Component {
  /** Engine target and unique id, e.g. `kubelet/worker-1`, `kube-scheduler`. */
  readonly id: string;
  /** Factory key used to rebuild the component on restore. */
  readonly kind: string;
  /** JSON constructor arguments given to the factory. */
  readonly args: unknown;
  /** Handle an engine event addressed to this component. */
  handle(ev: SimEvent): void;
  /** Schedule the first events (not called on restore: the queue already holds them). */
  start(): void;
  getState(): unknown;
  setState(state: unknown): void;
  /** Called when the component is removed (its node deleted). */
  dispose?(): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ComponentFactory = (cluster: Cluster, args: any) => Component;

export interface FaultTarget {
  /** A node name, an etcd member name, or a control-plane component name. */
  target?: string;
  [param: string]: unknown;
}

export type FaultHandler = (cluster: Cluster, params: FaultTarget) => void;

export interface FaultLogEntry {
  t: number;
  action: string;
  target?: string;
}

export class FaultError extends Error {}

export interface ComponentDef {
  kind: string;
  factory: ComponentFactory;
}

export interface FaultDef {
  action: string;
  description: string;
  handler: FaultHandler;
}

/** A component kind a module implements; listed in registry.ts (defining it registers nothing). */
export function defineComponent(kind: string, factory: ComponentFactory): ComponentDef {
  return { kind, factory };
}

/** A fault action a module implements; listed in registry.ts (defining it registers nothing). */
export function defineFault(action: string, description: string, handler: FaultHandler): FaultDef {
  return { action, description, handler };
}

/** Test doubles only: kinds and faults a test adds on top of (or instead of) registry.ts's. */
const testComponents = new Map<string, ComponentFactory>();
const testFaults = new Map<string, FaultDef>();

/** Add a component kind for tests (a double, a harness); it wins over the registry's kind of that name. */
export function addTestComponent(kind: string, factory: ComponentFactory): void {
  testComponents.set(kind, factory);
}

/** Add (or replace) a fault action for tests. */
export function addTestFault(action: string, description: string, handler: FaultHandler): void {
  testFaults.set(action, { action, description, handler });
}

function componentFactory(kind: string): ComponentFactory | undefined {
  return testComponents.get(kind) ?? COMPONENTS().get(kind);
}

function faultDef(action: string): FaultDef | undefined {
  return testFaults.get(action) ?? FAULTS().get(action);
}

export function knownFaults(): { action: string; description: string }[] {
  const all = new Map(FAULTS());
  for (const [a, f] of testFaults) all.set(a, f);
  return [...all.values()]
    .map((f) => ({ action: f.action, description: f.description }))
    .sort((a, b) => (a.action < b.action ? -1 : 1));
}

/** The component kind (and its node, for node agents) that holds the watches a component starts. */
function watchOwner(kind: string, args: unknown): RequestContext {
  const node = (args as { nodeName?: unknown } | null)?.nodeName;
  return typeof node === 'string' ? { component: kind, node } : { component: kind };
}

export interface ControlPlaneMember {
  name: string;
  running: boolean;
}

export interface ClusterSnapshot {
  format: 'nodeplane.dev/snapshot/v1';
  config: ClusterConfig;
  engine: EngineSnapshot;
  etcd: EtcdSnapshot;
  api: ApiServerSnapshot;
  events: ReturnType<EventRecorder['snapshot']>;
  components: { id: string; kind: string; args: unknown; state: unknown }[];
  /** Each machine's state (runtime, journal, CNI config, memory and disk), by node name. */
  hosts: Record<string, NodeHostState>;
  faults: FaultLogEntry[];
  partitioned: string[];
  apiServers: ControlPlaneMember[];
  /** Free-form state of scenario-level features (node pools, network) keyed by owner. */
  extensions: Record<string, unknown>;
}

export class Cluster {
  readonly engine: Engine;
  readonly etcd: Etcd;
  readonly api: ApiServer;
  readonly recorder: EventRecorder;
  readonly config: ClusterConfig;
  readonly components = new Map<string, Component>();
  /** The machines the kubelets run on, by node name (node/host.ts). */
  private readonly hosts = new Map<string, NodeHost>();
  faultLog: FaultLogEntry[] = [];
  /** Nodes cut off from the control plane (PartitionNode). */
  partitioned = new Set<string>();
  /** kube-apiserver instances behind the load balancer. */
  apiServers: ControlPlaneMember[] = [{ name: 'kube-apiserver', running: true }];
  /** Extra JSON state owned by optional modules (network, node pools), saved in snapshots. */
  extensions: Record<string, unknown> = {};
  /** The last snapshot taken of (or restored into) this cluster: the next one shares with it. */
  private lastSnapshot?: ClusterSnapshot;

  constructor(
    config: ClusterConfig = defaultConfig(),
    etcd?: Etcd,
    engine?: Engine,
    opts: { restoring?: boolean } = {}
  ) {
    this.config = config;
    this.engine = engine ?? new Engine(config.seed);
    this.etcd = etcd ?? Etcd.withMembers(1);
    this.api = new ApiServer(this.engine, this.etcd);
    this.etcd.writes = () => this.api.committedWrites();
    this.etcd.clock = () => this.engine.now;
    this.recorder = new EventRecorder(this.api, this.engine);
    this.api.reachable = (ctx) => this.checkReachable(ctx);
    installAdmission(this.api, this);
    // A restored cluster gets its namespaces from the snapshot; creating them here would draw
    // uids from the restored random source and change every name that follows.
    if (opts.restoring) return;
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      this.api.create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' }
      });
    }
  }

  get now(): number {
    return this.engine.now;
  }

  /** Create a component of a registered kind, register it with the engine and (optionally) start it. */
  addComponent(kind: string, args: unknown, opts: { start?: boolean } = {}): Component {
    const f = componentFactory(kind);
    if (!f) throw new Error(`unknown component kind "${kind}"`);
    // Watches the component starts are held by it (the request log draws their events to it).
    return this.api.watchingAs(watchOwner(kind, args), () => {
      const c = f(this, args);
      if (this.components.has(c.id)) throw new Error(`component ${c.id} already exists`);
      this.components.set(c.id, c);
      this.engine.register(c.id, (ev) => c.handle(ev));
      if (opts.start !== false) c.start();
      return c;
    });
  }

  removeComponent(id: string): void {
    const c = this.components.get(id);
    if (!c) return;
    c.dispose?.();
    this.components.delete(id);
    this.engine.unregister(id);
  }

  component<T extends Component>(id: string): T | undefined {
    return this.components.get(id) as T | undefined;
  }

  componentsOfKind<T extends Component>(kind: string): T[] {
    return [...this.components.values()].filter((c) => c.kind === kind) as T[];
  }

  /** The machine named `name` (its kubelet, runtime, kube-proxy and CNI), if there is one. */
  nodeHost(name: string): NodeHost | undefined {
    return this.hosts.get(name);
  }

  /** Every machine, in the order they joined. */
  nodeHosts(): NodeHost[] {
    return [...this.hosts.values()];
  }

  /** A new machine joins (its kubelet component creates it). */
  addNodeHost(host: NodeHost): void {
    if (this.hosts.has(host.name)) throw new Error(`node host ${host.name} already exists`);
    this.hosts.set(host.name, host);
  }

  /** The machine is deleted (DeleteNode, a Cluster Autoscaler scale-down): its kubelet goes with it. */
  removeNodeHost(name: string): void {
    const host = this.hosts.get(name);
    if (!host) return;
    this.hosts.delete(name);
    this.removeComponent(host.kubelet.id);
  }

  /** Apply a named fault now. Throws FaultError for an unknown action or target. */
  applyFault(action: string, params: FaultTarget = {}): void {
    const f = faultDef(action);
    if (!f) {
      throw new FaultError(
        `unknown fault action "${action}"; known actions: ${knownFaults()
          .map((x) => x.action)
          .join(', ')}`
      );
    }
    if (this.config.managed && isControlPlaneFault(action)) {
      throw new FaultError(
        `${action} acts on the control plane, which ${PROVIDER_NAME[this.config.managed]} runs for this cluster: it is not yours to stop or resize`
      );
    }
    f.handler(this, params);
    this.faultLog.push({ t: this.engine.now, action, ...(params.target ? { target: params.target } : {}) });
  }

  runUntil(t: number): void {
    this.engine.runUntil(t);
  }

  advance(ms: number): void {
    this.engine.advance(ms);
  }

  step(): SimEvent | null {
    return this.engine.step();
  }

  get eventLog(): EventLogEntry[] {
    return this.recorder.log;
  }

  /**
   * Everything needed to continue exactly, as JSON. Frozen data (the stored API objects, journal
   * entries, container logs) is shared with the live cluster rather than copied: it never changes,
   * so a snapshot costs only the mutable state. `JSON.stringify` gives the full document.
   */
  snapshot(): ClusterSnapshot {
    const snap = freezeForSnapshot<ClusterSnapshot>(
      {
        format: 'nodeplane.dev/snapshot/v1' as const,
        config: this.config,
        engine: this.engine.snapshot(),
        etcd: this.etcd.snapshot(),
        api: this.api.snapshot(),
        events: this.recorder.snapshot(),
        components: [...this.components.values()].map((c) => ({
          id: c.id,
          kind: c.kind,
          args: c.args,
          state: c.getState()
        })),
        hosts: Object.fromEntries([...this.hosts].map(([name, h]) => [name, h.state])),
        faults: this.faultLog,
        partitioned: [...this.partitioned].sort(),
        apiServers: this.apiServers,
        extensions: this.extensions
      },
      this.lastSnapshot
    );
    this.lastSnapshot = snap;
    return snap;
  }

  /**
   * Rebuild a cluster from `snapshot()` (or its parsed JSON). The snapshot is left as it was, so
   * time travel can restore the same one again; frozen parts are shared, the rest is copied.
   */
  static restore(s: ClusterSnapshot): Cluster {
    if (s?.format !== 'nodeplane.dev/snapshot/v1')
      throw new Error('not a Nodeplane snapshot (format nodeplane.dev/snapshot/v1 expected)');
    // The API store, the event recorder and the engine keep their own copies of what they take
    // from a snapshot (sharing its frozen objects), so those parts are not copied here first.
    const snap: ClusterSnapshot = {
      ...copySharingFrozen({ ...s, api: undefined, events: undefined, engine: undefined }),
      api: s.api,
      events: s.events,
      engine: s.engine
    };
    const engine = Engine.fromSnapshot(snap.engine);
    const etcd = new Etcd([]);
    etcd.restore(snap.etcd);
    const c = new Cluster(snap.config, etcd, engine, { restoring: true });
    c.api.restore(snap.api);
    c.recorder.restore(snap.events);
    c.faultLog = snap.faults;
    c.partitioned = new Set(snap.partitioned);
    c.apiServers = snap.apiServers;
    c.extensions = snap.extensions;
    // The next snapshot of the restored cluster shares what is still the same with this one.
    if (Object.isFrozen(s)) c.lastSnapshot = s;
    for (const comp of snap.components) {
      const created = c.addComponent(comp.kind, comp.args, { start: false });
      c.api.watchingAs(watchOwner(comp.kind, comp.args), () => created.setState(comp.state));
    }
    // Snapshots from before node hosts carry the machine in the kubelet's state (Kubelet.setState).
    for (const [name, state] of Object.entries(snap.hosts ?? {})) {
      const host = c.hosts.get(name);
      if (host) host.state = state;
    }
    return c;
  }

  private checkReachable(ctx: RequestContext): void {
    if (!this.apiServers.some((a) => a.running)) {
      throw new ConnectionError(
        'The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?'
      );
    }
    if (ctx.node && this.partitioned.has(ctx.node)) {
      throw new ConnectionError(`dial tcp 10.0.0.10:6443: i/o timeout`);
    }
  }
}
