/**
 * Cluster Autoscaler (component kind `cluster-autoscaler`, its own Deployment upstream): every
 * scan interval (10 s) it scales node groups up for unschedulable pods and removes nodes that have
 * been unneeded for 10 minutes, draining them through the Eviction API. New machines join as
 * kubelets after the pool's boot time and register through the normal kubelet path; a machine
 * that has not registered within --max-node-provision-time is deleted and its group backs off.
 */
import { tryParseQuantity } from '../../api/quantity';
import { defineComponent, defineFault, type Cluster, type Component } from '../../cluster';
import type { SimEvent } from '../../engine/engine';
import type { KubeObject, RequestContext } from '../../api/types';
import { ApiError, ConnectionError } from '../../api/errors';
import { formatGoDuration } from '../../engine/duration';
import { podCondition, podKey } from '../util/pods';
import { simulateScheduling } from '../../scheduler/simulate';
import { nodeGroupOf, newMachineArgs, POOL_LABEL, templateNode, type NodeGroup } from './template';
import { BACKOFF_REASON, maxResourceLimitReached, planScaleUp, type Expander } from './scaleup';
import { drain, hasToBeDeleted, startDeletion } from './drain';
import { checkNode, type NodeVerdict } from './scaledown';
import { statusYaml, STATUS_CONFIGMAP, writeStatus, type GroupStatus, type Transitions } from './status';
import {
  CA_DEFAULTS,
  caOptions,
  capByResources,
  exceeded,
  nodeDelta,
  resourcesLeft,
  type CaOptions
} from './limits';
import { ensurePoolsConfigMap, POOLS_CONFIGMAP, readPoolSizes, type PoolSize } from './pools';
import type { NodePoolSpec } from '../../scenario/types';
import { nodeGroupMachine, type NodeGroupEvent } from '../../machines/node-group';
import { initialRecord, stepRecord, type MachineRecord } from '../../machines/record';

export { CA_DEFAULTS } from './limits';
export const CA_ID = 'cluster-autoscaler';
export const CA_KIND = 'cluster-autoscaler';

export interface AutoscalerArgs {
  pools: NodePoolSpec[];
  /** --expander, comma-separated chain; default least-waste (also settable in `flags`). */
  expander?: string;
  /** The scenario's `spec.clusterAutoscaler` flags. */
  flags?: Record<string, string | number>;
}

export interface Deleting {
  group: string;
  started: number;
  empty: boolean;
  /** The DaemonSet pods were evicted (once, best effort: --daemonset-eviction-for-occupied-nodes). */
  daemonSetsEvicted?: boolean;
}

/** A machine the autoscaler asked the cloud for whose Node has not registered yet. */
export interface Machine {
  group: string;
  /** When it was requested (UnregisteredSince). */
  since: number;
  /** Booted: its kubelet runs (or, with a boot failure, never will). */
  booted: boolean;
}

export interface Backoff {
  durationMs: number;
  until: number;
  lastFailed: number;
  errorCode: string;
  errorMessage: string;
}

export interface State {
  target: Record<string, number>;
  /** Node groups' min/max as the cloud side (the pools ConfigMap) says. */
  sizes: Record<string, PoolSize>;
  machines: Record<string, Machine>;
  /** Open scale-up requests per group (clusterstate ScaleUpRequest). */
  scaleUpRequests: Record<string, { time: number; increase: number }>;
  backoff: Record<string, Backoff>;
  /** Pools whose new machines never register (provider.failBoot or FailMachineBoot). */
  failBoot: Record<string, boolean>;
  unneededSince: Record<string, number>;
  unremovable: Record<string, string>;
  deleting: Record<string, Deleting>;
  lastScaleUp: number;
  lastScaleDownFail: number;
  /** Problems last reported for the pools ConfigMap (reported again only when they change). */
  poolProblems: string;
  transitions: Transitions;
  /** Each node group's activity machine (machines/node-group.ts); absent in older snapshots. */
  groupMachines?: Record<string, MachineRecord>;
}

export const CTX: RequestContext = { component: 'cluster-autoscaler' };
export const SOURCE = { component: 'cluster-autoscaler' };

/** The GPU resource the GPU processor looks for (utils/gpu: ResourceNvidiaGPU). */
const GPU_RESOURCE = 'nvidia.com/gpu';

export class ClusterAutoscaler implements Component {
  readonly id = CA_ID;
  readonly kind = CA_KIND;
  readonly baseGroups: NodeGroup[];
  readonly expanders: Expander[];
  readonly opts: CaOptions;
  state: State;

  constructor(
    readonly cluster: Cluster,
    readonly args: AutoscalerArgs
  ) {
    this.baseGroups = args.pools.map(nodeGroupOf);
    this.opts = caOptions(args.flags, args.expander);
    this.expanders = this.opts.expander.split(',').map((e) => e.trim() as Expander);
    this.state = {
      target: Object.fromEntries(args.pools.map((p) => [p.name, p.count])),
      sizes: Object.fromEntries(this.baseGroups.map((g) => [g.name, { min: g.min, max: g.max }])),
      machines: {},
      scaleUpRequests: {},
      backoff: {},
      failBoot: Object.fromEntries(args.pools.filter((p) => p.provider?.failBoot).map((p) => [p.name, true])),
      unneededSince: {},
      unremovable: {},
      deleting: {},
      // The start counts as a scale-up: no scale-down in the first scale-down-delay-after-add.
      lastScaleUp: cluster.now,
      lastScaleDownFail: -Infinity,
      poolProblems: '',
      transitions: {},
      groupMachines: Object.fromEntries(
        this.baseGroups.map((g) => [g.name, initialRecord(nodeGroupMachine, cluster.now)])
      )
    };
  }

  /** Each node group's activity machine as the loop last stepped it. */
  get groupMachines(): Readonly<Record<string, MachineRecord>> {
    return this.state.groupMachines ?? {};
  }

  /** Record a decision on a group's machine; an event its state does not take changes nothing. */
  private stepGroup(g: string, type: NodeGroupEvent['type'], detail?: string): void {
    const all = (this.state.groupMachines ??= {});
    const cur = all[g] ?? initialRecord(nodeGroupMachine, this.cluster.now);
    all[g] = stepRecord(nodeGroupMachine, cur, { type }, this.cluster.now, detail).record;
  }

  /** Backoffs that ran out: the group may be scaled up in this very loop. */
  private stepBackoffs(): void {
    for (const g of this.baseGroups) {
      const cur = this.state.groupMachines?.[g.name]?.value;
      if (cur === 'backoff' && !this.backedOff(g.name)) this.stepGroup(g.name, 'BACKOFF_EXPIRED');
    }
  }

  /**
   * What the loop found at its end: deleted nodes gone, nodes unneeded or needed again (the
   * scale-up and scale-down decisions step the machines where they are taken).
   */
  private stepGroupsAfterLoop(): void {
    for (const g of this.baseGroups) {
      const deleting = Object.values(this.state.deleting).some((d) => d.group === g.name);
      if (!deleting) this.stepGroup(g.name, 'NODES_DELETED');
      const unneeded = Object.keys(this.state.unneededSince).filter(
        (n) =>
          this.cluster.api.tryGet<KubeObject>('Node', undefined, n)?.metadata.labels?.[POOL_LABEL] === g.name
      );
      if (unneeded.length) this.stepGroup(g.name, 'NODE_UNNEEDED', unneeded.sort().join(', '));
      else this.stepGroup(g.name, 'NODES_NEEDED');
    }
  }

  /** Node groups with the min/max currently in force. */
  get groups(): NodeGroup[] {
    return this.baseGroups.map((g) => ({ ...g, ...(this.state.sizes[g.name] ?? {}) }));
  }

  start(): void {
    this.cluster.engine.schedule(this.opts.scanIntervalMs, this.id, 'scan');
  }

  getState(): unknown {
    return structuredClone({ ...this.state, lastScaleDownFail: finite(this.state.lastScaleDownFail) });
  }

  setState(s: unknown): void {
    const st = structuredClone(s) as State & { provisioning?: Record<string, string> };
    st.lastScaleDownFail = st.lastScaleDownFail ?? -Infinity;
    // Snapshots saved before machines were tracked kept only `provisioning` (name → group).
    if (!st.machines) {
      st.machines = {};
      for (const [name, group] of Object.entries(st.provisioning ?? {}))
        st.machines[name] = { group, since: this.cluster.now, booted: false };
    }
    delete st.provisioning;
    st.sizes ??= this.state.sizes;
    st.scaleUpRequests ??= {};
    st.backoff ??= {};
    st.failBoot ??= this.state.failBoot;
    st.poolProblems ??= '';
    st.groupMachines ??= Object.fromEntries(
      this.baseGroups.map((g) => [g.name, initialRecord(nodeGroupMachine, this.cluster.now)])
    );
    this.state = st;
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'scan') {
      this.cluster.engine.schedule(this.opts.scanIntervalMs, this.id, 'scan');
      this.guard(() => this.runOnce());
    } else if (ev.type === 'provision') {
      this.provision(ev.data as string);
    } else if (ev.type === 'drain') {
      this.guard(() => drain(this, ev.data as string));
    }
  }

  /** An unreachable API or lost quorum fails the loop; the next one tries again (RunOnce errors). */
  private guard(f: () => void): void {
    try {
      f();
    } catch (e) {
      if (!(e instanceof ApiError) && !(e instanceof ConnectionError)) throw e;
    }
  }

  private groupNodes(): Record<string, KubeObject[]> {
    const out: Record<string, KubeObject[]> = Object.fromEntries(this.baseGroups.map((g) => [g.name, []]));
    for (const n of this.cluster.api.list<KubeObject>('Node')) {
      const g = n.metadata.labels?.[POOL_LABEL];
      if (g && out[g]) out[g].push(n);
    }
    return out;
  }

  /**
   * Ready, and for a GPU pool with its GPUs allocatable: a GPU node whose device plugin has not
   * registered yet counts as not ready (still starting), as the GPU processor's
   * FilterOutNodesWithUnreadyResources does, so its pending GPU pods do not trigger another scale-up.
   */
  private isReady(n: KubeObject): boolean {
    const ready = (n.status?.conditions ?? []).some(
      (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
    );
    if (!ready) return false;
    const g = this.groups.find((x) => x.name === n.metadata.labels?.[POOL_LABEL]);
    if (!g?.spec.devices?.[GPU_RESOURCE]) return true;
    return (tryParseQuantity(n.status?.allocatable?.[GPU_RESOURCE] ?? '0') ?? 0) > 0;
  }

  /** Registered but not Ready, and young enough to still be starting (MaxNodeStartupTime 15m). */
  private notStarted(n: KubeObject): boolean {
    const age = this.cluster.now - this.cluster.api.timeOf(n.metadata.creationTimestamp);
    return !this.isReady(n) && age < CA_DEFAULTS.maxNodeProvisionTimeMs;
  }

  private longUnregistered(m: Machine): boolean {
    return m.since + this.opts.maxNodeProvisionTimeMs < this.cluster.now;
  }

  /** Nodes that will take pods soon: machines not yet registered and registered nodes not Ready. */
  private upcoming(byGroup: Record<string, KubeObject[]>): KubeObject[] {
    const out: KubeObject[] = [];
    for (const [name, m] of Object.entries(this.state.machines)) {
      if (!this.longUnregistered(m)) out.push(templateNode(this.cluster, this.group(m.group), name));
    }
    for (const g of this.groups) {
      for (const n of byGroup[g.name]) {
        if (this.notStarted(n)) out.push(templateNode(this.cluster, g, n.metadata.name));
      }
    }
    return out;
  }

  group(name: string): NodeGroup {
    return this.groups.find((g) => g.name === name)!;
  }

  runOnce(): void {
    this.readPools();
    const byGroup = this.groupNodes();
    this.forgetRegistered();
    this.updateScaleRequests(byGroup);
    this.stepBackoffs();
    this.removeOldUnregistered();
    const scaledUp = this.scaleUp(byGroup);
    const verdicts = this.updateUnneeded(byGroup);
    if (!scaledUp) this.scaleDown(byGroup, verdicts);
    this.stepGroupsAfterLoop();
    this.status();
  }

  /** The pools ConfigMap: created at the first loop, read at every loop. */
  private readPools(): void {
    ensurePoolsConfigMap(this.cluster, CTX, this.baseGroups, this.state.sizes);
    const { sizes, problems } = readPoolSizes(this.cluster, this.baseGroups, this.state.sizes);
    this.state.sizes = sizes;
    const text = problems.join('; ');
    if (text !== this.state.poolProblems) {
      this.state.poolProblems = text;
      const cm = this.cluster.api.tryGet<KubeObject>('ConfigMap', 'kube-system', POOLS_CONFIGMAP);
      if (text && cm) this.cluster.recorder.event(cm, 'Warning', 'InvalidPoolSize', text, SOURCE, CTX);
    }
  }

  /** Machines whose Node has registered are ordinary nodes from now on. */
  private forgetRegistered(): void {
    for (const name of Object.keys(this.state.machines)) {
      if (this.cluster.api.tryGet('Node', undefined, name)) delete this.state.machines[name];
    }
  }

  /**
   * clusterstate.updateScaleRequests: a request whose nodes have all arrived is done; one older
   * than --max-node-provision-time times out, and the group backs off.
   */
  private updateScaleRequests(byGroup: Record<string, KubeObject[]>): void {
    const now = this.cluster.now;
    for (const [g, req] of Object.entries(this.state.scaleUpRequests)) {
      const waiting =
        Object.values(this.state.machines).some((m) => m.group === g) ||
        (byGroup[g] ?? []).some((n) => this.notStarted(n));
      if (!waiting) {
        delete this.state.scaleUpRequests[g];
        this.stepGroup(g, 'NODES_REGISTERED');
        continue;
      }
      if (req.time + this.opts.maxNodeProvisionTimeMs < now) {
        const after = formatGoDuration(now - req.time);
        this.configMapEvent(
          'Warning',
          'ScaleUpTimedOut',
          `Nodes added to group ${g} failed to register within ${after}`
        );
        this.backoffGroup(g, 'timeout', `Scale-up timed out for node group ${g} after ${after}`);
        delete this.state.scaleUpRequests[g];
        this.stepGroup(
          g,
          'SCALE_UP_TIMED_OUT',
          `backoff ${formatGoDuration(this.state.backoff[g].durationMs)}`
        );
      }
    }
    for (const [g, b] of Object.entries(this.state.backoff)) {
      if (b.lastFailed + CA_DEFAULTS.backoffResetMs < now) delete this.state.backoff[g];
    }
  }

  /** exponentialBackoff.Backoff: 5m, doubled when the last backoff had ended, at most 30m. */
  private backoffGroup(g: string, errorCode: string, errorMessage: string): void {
    const now = this.cluster.now;
    const prev = this.state.backoff[g];
    let durationMs = CA_DEFAULTS.initialBackoffMs;
    if (prev && prev.until < now) durationMs = Math.min(2 * prev.durationMs, CA_DEFAULTS.maxBackoffMs);
    this.state.backoff[g] = { durationMs, until: now + durationMs, lastFailed: now, errorCode, errorMessage };
  }

  private backedOff(g: string): boolean {
    const b = this.state.backoff[g];
    return !!b && b.until > this.cluster.now;
  }

  /** removeOldUnregisteredNodes: delete machines that never registered, not below the group's min. */
  private removeOldUnregistered(): void {
    const old: Record<string, string[]> = {};
    for (const [name, m] of Object.entries(this.state.machines)) {
      if (this.longUnregistered(m)) (old[m.group] ??= []).push(name);
    }
    for (const [g, names] of Object.entries(old)) {
      const possible = (this.state.target[g] ?? 0) - this.group(g).min;
      if (possible <= 0) continue;
      for (const name of names.sort().slice(0, possible)) {
        this.cluster.removeNodeHost(name);
        delete this.state.machines[name];
        this.state.target[g] = Math.max(0, (this.state.target[g] ?? 1) - 1);
        this.configMapEvent('Normal', 'DeleteUnregistered', `Removed unregistered node ${name}`);
      }
    }
  }

  /** Events the autoscaler's LogRecorder writes go to its status ConfigMap. */
  private configMapEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
    const cm =
      this.cluster.api.tryGet<KubeObject>('ConfigMap', 'kube-system', STATUS_CONFIGMAP) ??
      writeStatus(this.cluster, CTX, this.currentStatusText(this.groupNodes()), this.cluster.api.timestamp());
    this.cluster.recorder.event(cm, type, reason, message, SOURCE, CTX);
  }

  private unschedulablePods(): KubeObject[] {
    return this.cluster.api.list<KubeObject>('Pod').filter((p) => {
      if (p.spec?.nodeName || p.metadata.deletionTimestamp) return false;
      const c = podCondition(p, 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable';
    });
  }

  /** Cores and memory of the cluster as the resource manager counts them, and one node per group. */
  private resources(): {
    total: { cpu: number; memory: number };
    perNode: Record<string, { cpu: number; memory: number }>;
  } {
    const total = { cpu: 0, memory: 0 };
    const perNode: Record<string, { cpu: number; memory: number }> = {};
    const managed = new Set(this.baseGroups.map((g) => g.name));
    for (const n of this.cluster.api.list<KubeObject>('Node')) {
      if (managed.has(n.metadata.labels?.[POOL_LABEL] ?? '')) continue;
      const d = nodeDelta((n.status?.capacity ?? {}) as Record<string, string>);
      total.cpu += d.cpu;
      total.memory += d.memory;
    }
    for (const g of this.groups) {
      const t = templateNode(this.cluster, g, `template-node-for-${g.name}`);
      const d = nodeDelta(t.status.capacity as Record<string, string>);
      perNode[g.name] = d;
      total.cpu += d.cpu * (this.state.target[g.name] ?? 0);
      total.memory += d.memory * (this.state.target[g.name] ?? 0);
    }
    return { total, perNode };
  }

  private scaleUp(byGroup: Record<string, KubeObject[]>): boolean {
    let pending = this.unschedulablePods();
    if (!pending.length) return false;
    // filterOutSchedulable: pods the upcoming nodes will take trigger nothing new.
    const upcoming = this.upcoming(byGroup);
    if (upcoming.length) {
      const res = simulateScheduling({ nodes: upcoming, pods: pending, explain: false });
      const placed = new Set(res.pods.filter((r) => r.selectedNode).map((r) => r.pod));
      pending = pending.filter((p) => !placed.has(podKey(p)));
      if (!pending.length) return false;
    }
    const nodes = this.cluster.api.list<KubeObject>('Node');
    const max = this.opts.maxNodesTotal;
    // "Max total nodes in cluster reached": no scale-up is tried, and no pod hears about it.
    if (max > 0 && nodes.filter((n) => this.isReady(n)).length >= max) return false;
    const { total, perNode } = this.resources();
    const left = resourcesLeft(this.opts, total);
    const skipped: Record<string, string> = {};
    for (const g of this.groups) {
      if (this.backedOff(g.name)) skipped[g.name] = BACKOFF_REASON;
      else {
        const over = exceeded(left, perNode[g.name]);
        if (over.length) skipped[g.name] = maxResourceLimitReached(over);
      }
    }
    const plan = planScaleUp(this.cluster, this.groups, this.state.target, pending, this.expanders, skipped);
    const rec = this.cluster.recorder;
    const byKey = new Map(pending.map((p) => [podKey(p), p]));
    // EventingScaleUpStatusProcessor: pods that remain unschedulable hear NotTriggerScaleUp only
    // in a loop without a scale-up; a loop that scaled up skips them all.
    const notTriggered = (): false => {
      for (const [k, msg] of Object.entries(plan.notHelped))
        rec.event(byKey.get(k)!, 'Normal', 'NotTriggerScaleUp', msg, SOURCE, CTX);
      return false;
    };
    const best = plan.best;
    if (!best) return notTriggered();
    const g = this.group(best.group);
    // GetCappedNewNodeCount: nodes plus upcoming ones may not pass --max-nodes-total.
    let newNodes = best.newNodes;
    const current = nodes.length + upcoming.length;
    if (max > 0 && newNodes + current > max) {
      newNodes = max - current;
      this.configMapEvent('Warning', 'MaxNodesTotalReached', `Max total nodes in cluster reached: ${max}`);
      if (newNodes < 1) return notTriggered();
    }
    // ApplyLimits: cap by the cores and memory left.
    newNodes = capByResources(newNodes, left, perNode[g.name]);
    if (newNodes < 1) return notTriggered();
    const newSize = best.current + newNodes;
    this.state.target[g.name] = newSize;
    this.state.lastScaleUp = this.cluster.now;
    const req = this.state.scaleUpRequests[g.name];
    this.state.scaleUpRequests[g.name] = {
      time: this.cluster.now,
      increase: (req?.increase ?? 0) + newNodes
    };
    const taken = new Set([
      ...[...this.cluster.components.keys()].map((id) => id.replace(/^kubelet\//, '')),
      ...Object.keys(this.state.machines),
      ...nodes.map((n) => n.metadata.name)
    ]);
    let i = 1;
    for (let n = 0; n < newNodes; n++) {
      while (taken.has(`${g.name}-${i}`)) i++;
      const name = `${g.name}-${i}`;
      taken.add(name);
      this.state.machines[name] = { group: g.name, since: this.cluster.now, booted: false };
      this.cluster.engine.schedule(g.bootTimeMs, this.id, 'provision', name);
    }
    this.stepGroup(g.name, 'SCALE_UP', `${best.current}->${newSize}`);
    this.configMapEvent(
      'Normal',
      'ScaledUpGroup',
      `Scale-up: setting group ${g.name} size to ${newSize} instead of ${best.current} (max: ${g.max})`
    );
    const msg = `pod triggered scale-up: [{${g.name} ${best.current}->${newSize} (max: ${g.max})}]`;
    for (const k of best.pods) {
      const p = byKey.get(k);
      if (p) rec.event(p, 'Normal', 'TriggeredScaleUp', msg, SOURCE, CTX);
    }
    return true;
  }

  /** The machine has booted: its kubelet starts and registers the Node, unless the boot fails. */
  private provision(name: string): void {
    const m = this.state.machines[name];
    if (!m || m.booted) return;
    m.booted = true;
    if (this.state.failBoot[m.group]) return;
    const args = newMachineArgs(this.cluster, this.group(m.group), name);
    this.cluster.addComponent('kubelet', args);
  }

  /** FailMachineBoot / FixMachineBoot. */
  setFailBoot(pool: string, fail: boolean): void {
    if (!this.baseGroups.some((g) => g.name === pool)) {
      throw new Error(
        `no node pool "${pool}" managed by the Cluster Autoscaler (pools: ${this.baseGroups.map((g) => g.name).join(', ')})`
      );
    }
    if (fail) this.state.failBoot[pool] = true;
    else delete this.state.failBoot[pool];
  }

  private updateUnneeded(byGroup: Record<string, KubeObject[]>): Record<string, NodeVerdict> {
    const all = Object.values(byGroup).flat();
    const everyNode = this.cluster.api.list<KubeObject>('Node');
    const verdicts: Record<string, NodeVerdict> = {};
    const now = this.cluster.now;
    for (const n of all) {
      const name = n.metadata.name;
      if (this.state.deleting[name] || hasToBeDeleted(n)) continue;
      const elsewhere = everyNode.filter(
        (o) => o.metadata.name !== name && !this.state.deleting[o.metadata.name] && !hasToBeDeleted(o)
      );
      const v = checkNode(this.cluster, n, elsewhere);
      verdicts[name] = v;
      if (v.unneeded) {
        this.state.unneededSince[name] ??= now;
        delete this.state.unremovable[name];
      } else {
        delete this.state.unneededSince[name];
        this.state.unremovable[name] = v.reason ?? '';
      }
    }
    for (const name of Object.keys(this.state.unneededSince))
      if (!verdicts[name]) delete this.state.unneededSince[name];
    return verdicts;
  }

  private scaleDown(byGroup: Record<string, KubeObject[]>, verdicts: Record<string, NodeVerdict>): void {
    const now = this.cluster.now;
    if (now < this.state.lastScaleUp + this.opts.scaleDownDelayAfterAddMs) return;
    if (now < this.state.lastScaleDownFail + CA_DEFAULTS.scaleDownDelayAfterFailureMs) return;
    // Non-empty nodes are drained one at a time (--max-drain-parallelism 1).
    if (Object.values(this.state.deleting).some((d) => !d.empty)) return;
    let emptyBudget = CA_DEFAULTS.maxEmptyBulkDelete;
    let drainStarted = false;
    const all = Object.values(byGroup).flat();
    const isEmpty = (name: string) => verdicts[name]?.podsToMove.length === 0;
    // Empty nodes first (in bulk), then at most one node to drain.
    const removable = Object.entries(this.state.unneededSince)
      .filter(([, since]) => now - since >= this.opts.scaleDownUnneededTimeMs)
      .map(([name]) => name)
      .sort((a, b) => Number(isEmpty(b)) - Number(isEmpty(a)) || (a < b ? -1 : 1));
    for (const name of removable) {
      const node = all.find((n) => n.metadata.name === name);
      const g = node?.metadata.labels?.[POOL_LABEL];
      if (!node || !g) continue;
      const group = this.group(g);
      const leaving = Object.values(this.state.deleting).filter((d) => d.group === g).length;
      if (byGroup[g].length - leaving - 1 < group.min) continue;
      const empty = isEmpty(name);
      if (empty ? emptyBudget <= 0 : drainStarted) continue;
      if (!empty) {
        // Its pods must still fit once the nodes chosen in this pass are gone.
        const elsewhere = this.cluster.api
          .list<KubeObject>('Node')
          .filter(
            (o) => o.metadata.name !== name && !this.state.deleting[o.metadata.name] && !hasToBeDeleted(o)
          );
        if (!checkNode(this.cluster, node, elsewhere).unneeded) continue;
      }
      if (empty) emptyBudget--;
      else drainStarted = true;
      startDeletion(this, node, g, empty);
      this.stepGroup(g, 'SCALE_DOWN', name);
    }
  }

  private currentStatusText(byGroup: Record<string, KubeObject[]>): string {
    const groups: GroupStatus[] = this.groups.map((g) => {
      const nodes = byGroup[g.name];
      const ready = nodes.filter((n) => this.isReady(n)).length;
      const machines = Object.values(this.state.machines).filter((m) => m.group === g.name);
      const long = machines.filter((m) => this.longUnregistered(m)).length;
      const notStarted = nodes.filter((n) => this.notStarted(n)).length;
      const backoff = this.backedOff(g.name) ? this.state.backoff[g.name] : undefined;
      const inProgress = !!this.state.scaleUpRequests[g.name] && (machines.length > long || notStarted > 0);
      return {
        name: g.name,
        counts: {
          registered: { total: nodes.length, ready, notStarted },
          longUnregistered: long,
          unregistered: machines.length - long
        },
        target: this.state.target[g.name] ?? nodes.length,
        min: g.min,
        max: g.max,
        scaleUp: inProgress ? 'InProgress' : backoff ? 'Backoff' : 'NoActivity',
        ...(!inProgress && backoff
          ? { backoffInfo: { errorCode: backoff.errorCode, errorMessage: backoff.errorMessage } }
          : {}),
        candidates: nodes.filter((n) => this.state.unneededSince[n.metadata.name] !== undefined).length
      };
    });
    const all = this.cluster.api.list<KubeObject>('Node');
    const machines = Object.values(this.state.machines);
    const long = machines.filter((m) => this.longUnregistered(m)).length;
    const ready = all.filter((n) => this.isReady(n)).length;
    const clusterCounts = {
      registered: { total: all.length, ready, notStarted: all.filter((n) => this.notStarted(n)).length },
      longUnregistered: long,
      unregistered: machines.length - long
    };
    return statusYaml(this.cluster.api.timestamp(), groups, this.state.transitions, clusterCounts);
  }

  private status(): void {
    writeStatus(this.cluster, CTX, this.currentStatusText(this.groupNodes()), this.cluster.api.timestamp());
  }
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

export const clusterAutoscalerComponent = defineComponent(
  CA_KIND,
  (cluster: Cluster, args: AutoscalerArgs) => new ClusterAutoscaler(cluster, args)
);

function autoscalerOf(c: Cluster): ClusterAutoscaler {
  const ca = c.component<ClusterAutoscaler>(CA_ID);
  if (!ca) throw new Error('this cluster has no Cluster Autoscaler (no node pool sets min or max)');
  return ca;
}

export const faultFailMachineBoot = defineFault(
  'FailMachineBoot',
  'New machines of a node pool boot but never register a Node (a broken image or bootstrap script)',
  (c, p) => autoscalerOf(c).setFailBoot(String(p.target ?? ''), true)
);
export const faultFixMachineBoot = defineFault(
  'FixMachineBoot',
  'New machines of a node pool boot and register again',
  (c, p) => autoscalerOf(c).setFailBoot(String(p.target ?? ''), false)
);
