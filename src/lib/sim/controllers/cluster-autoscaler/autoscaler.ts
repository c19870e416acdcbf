/**
 * Cluster Autoscaler (component kind `cluster-autoscaler`, its own Deployment upstream): every
 * scan interval (10 s) it scales node groups up for unschedulable pods and removes nodes that have
 * been unneeded for 10 minutes, draining them through the Eviction API. New machines join as
 * kubelets after the pool's boot time and register through the normal kubelet path.
 */
import { registerComponent, type Cluster, type Component } from '../../cluster';
import type { SimEvent } from '../../engine/engine';
import type { KubeObject, RequestContext } from '../../api/types';
import { ApiError, ConnectionError } from '../../api/errors';
import { podCondition, podKey } from '../util/pods';
import { simulateScheduling } from '../../scheduler/simulate';
import { nodeGroupOf, newMachineArgs, POOL_LABEL, templateNode, type NodeGroup } from './template';
import { planScaleUp, type Expander } from './scaleup';
import { drain, hasToBeDeleted, startDeletion } from './drain';
import { checkNode, type NodeVerdict } from './scaledown';
import { statusYaml, writeStatus, type GroupStatus, type Transitions } from './status';
import type { NodePoolSpec } from '../../scenario/types';

export const CA_ID = 'cluster-autoscaler';
export const CA_KIND = 'cluster-autoscaler';

/** Flag defaults of cluster-autoscaler (FAQ "What are the parameters to CA?"). */
export const CA_DEFAULTS = {
  scanIntervalMs: 10_000,
  scaleDownUnneededTimeMs: 10 * 60_000,
  scaleDownDelayAfterAddMs: 10 * 60_000,
  scaleDownDelayAfterFailureMs: 3 * 60_000,
  maxNodeProvisionTimeMs: 15 * 60_000,
  maxGracefulTerminationSec: 600,
  maxPodEvictionTimeMs: 2 * 60_000,
  /** Pause between eviction attempts of one drain (DefaultEvictionRetryTime). */
  evictionRetryMs: 10_000,
  maxEmptyBulkDelete: 10
};

export interface AutoscalerArgs {
  pools: NodePoolSpec[];
  /** --expander, comma-separated chain; default least-waste. */
  expander?: string;
}

export interface Deleting {
  group: string;
  started: number;
  empty: boolean;
}

export interface State {
  target: Record<string, number>;
  /** Machines booting: node name → group. */
  provisioning: Record<string, string>;
  unneededSince: Record<string, number>;
  unremovable: Record<string, string>;
  deleting: Record<string, Deleting>;
  lastScaleUp: number;
  lastScaleDownFail: number;
  transitions: Transitions;
}

export const CTX: RequestContext = { component: 'cluster-autoscaler' };
export const SOURCE = { component: 'cluster-autoscaler' };

export class ClusterAutoscaler implements Component {
  readonly id = CA_ID;
  readonly kind = CA_KIND;
  readonly groups: NodeGroup[];
  readonly expanders: Expander[];
  state: State;

  constructor(
    readonly cluster: Cluster,
    readonly args: AutoscalerArgs
  ) {
    this.groups = args.pools.map(nodeGroupOf);
    this.expanders = (args.expander ?? 'least-waste').split(',').map((e) => e.trim() as Expander);
    this.state = {
      target: Object.fromEntries(args.pools.map((p) => [p.name, p.count])),
      provisioning: {},
      unneededSince: {},
      unremovable: {},
      deleting: {},
      // The start counts as a scale-up: no scale-down in the first scale-down-delay-after-add.
      lastScaleUp: cluster.now,
      lastScaleDownFail: -Infinity,
      transitions: {}
    };
  }

  start(): void {
    this.cluster.engine.schedule(CA_DEFAULTS.scanIntervalMs, this.id, 'scan');
  }

  getState(): unknown {
    return structuredClone({ ...this.state, lastScaleDownFail: finite(this.state.lastScaleDownFail) });
  }

  setState(s: unknown): void {
    const st = structuredClone(s) as State;
    st.lastScaleDownFail = st.lastScaleDownFail ?? -Infinity;
    this.state = st;
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'scan') {
      this.cluster.engine.schedule(CA_DEFAULTS.scanIntervalMs, this.id, 'scan');
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
    const out: Record<string, KubeObject[]> = Object.fromEntries(this.groups.map((g) => [g.name, []]));
    for (const n of this.cluster.api.list<KubeObject>('Node')) {
      const g = n.metadata.labels?.[POOL_LABEL];
      if (g && out[g]) out[g].push(n);
    }
    return out;
  }

  private isReady(n: KubeObject): boolean {
    return (n.status?.conditions ?? []).some(
      (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
    );
  }

  /** Nodes that will take pods soon: machines booting and registered nodes not yet Ready. */
  private upcoming(byGroup: Record<string, KubeObject[]>): KubeObject[] {
    const out: KubeObject[] = [];
    for (const [name, group] of Object.entries(this.state.provisioning)) {
      out.push(templateNode(this.cluster, this.group(group), name));
    }
    const api = this.cluster.api;
    for (const g of this.groups) {
      for (const n of byGroup[g.name]) {
        const young =
          this.cluster.now - api.timeOf(n.metadata.creationTimestamp) < CA_DEFAULTS.maxNodeProvisionTimeMs;
        if (!this.isReady(n) && young) out.push(templateNode(this.cluster, g, n.metadata.name));
      }
    }
    return out;
  }

  private group(name: string): NodeGroup {
    return this.groups.find((g) => g.name === name)!;
  }

  runOnce(): void {
    const byGroup = this.groupNodes();
    const scaledUp = this.scaleUp(byGroup);
    const verdicts = this.updateUnneeded(byGroup);
    if (!scaledUp) this.scaleDown(byGroup, verdicts);
    this.status();
  }

  private unschedulablePods(): KubeObject[] {
    return this.cluster.api.list<KubeObject>('Pod').filter((p) => {
      if (p.spec?.nodeName || p.metadata.deletionTimestamp) return false;
      const c = podCondition(p, 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable';
    });
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
    const plan = planScaleUp(this.cluster, this.groups, this.state.target, pending, this.expanders);
    const rec = this.cluster.recorder;
    const byKey = new Map(pending.map((p) => [podKey(p), p]));
    for (const [k, msg] of Object.entries(plan.notHelped)) {
      rec.event(byKey.get(k)!, 'Normal', 'NotTriggerScaleUp', msg, SOURCE, CTX);
    }
    const best = plan.best;
    if (!best) return false;
    const g = this.group(best.group);
    const newSize = best.current + best.newNodes;
    this.state.target[g.name] = newSize;
    this.state.lastScaleUp = this.cluster.now;
    const taken = new Set([
      ...[...this.cluster.components.keys()].map((id) => id.replace(/^kubelet\//, '')),
      ...Object.keys(this.state.provisioning),
      ...this.cluster.api.list<KubeObject>('Node').map((n) => n.metadata.name)
    ]);
    let i = 1;
    for (let n = 0; n < best.newNodes; n++) {
      while (taken.has(`${g.name}-${i}`)) i++;
      const name = `${g.name}-${i}`;
      taken.add(name);
      this.state.provisioning[name] = g.name;
      this.cluster.engine.schedule(g.bootTimeMs, this.id, 'provision', name);
    }
    const cm = writeStatus(this.cluster, CTX, this.currentStatusText(byGroup), this.cluster.api.timestamp());
    rec.event(
      cm,
      'Normal',
      'ScaledUpGroup',
      `Scale-up: setting group ${g.name} size to ${newSize} instead of ${best.current} (max: ${g.max})`,
      SOURCE,
      CTX
    );
    const msg = `pod triggered scale-up: [{${g.name} ${best.current}->${newSize} (max: ${g.max})}]`;
    for (const k of best.pods) {
      const p = byKey.get(k);
      if (p) rec.event(p, 'Normal', 'TriggeredScaleUp', msg, SOURCE, CTX);
    }
    return true;
  }

  /** The machine has booted: its kubelet starts and registers the Node. */
  private provision(name: string): void {
    const group = this.state.provisioning[name];
    if (!group) return;
    delete this.state.provisioning[name];
    const args = newMachineArgs(this.cluster, this.group(group), name);
    this.cluster.addComponent('kubelet', args);
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
    if (now < this.state.lastScaleUp + CA_DEFAULTS.scaleDownDelayAfterAddMs) return;
    if (now < this.state.lastScaleDownFail + CA_DEFAULTS.scaleDownDelayAfterFailureMs) return;
    // Non-empty nodes are drained one at a time (--max-drain-parallelism 1).
    if (Object.values(this.state.deleting).some((d) => !d.empty)) return;
    let emptyBudget = CA_DEFAULTS.maxEmptyBulkDelete;
    let drainStarted = false;
    const all = Object.values(byGroup).flat();
    const isEmpty = (name: string) => verdicts[name]?.podsToMove.length === 0;
    // Empty nodes first (in bulk), then at most one node to drain.
    const removable = Object.entries(this.state.unneededSince)
      .filter(([, since]) => now - since >= CA_DEFAULTS.scaleDownUnneededTimeMs)
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
    }
  }

  private currentStatusText(byGroup: Record<string, KubeObject[]>): string {
    const groups: GroupStatus[] = this.groups.map((g) => {
      const nodes = byGroup[g.name];
      const ready = nodes.filter((n) => this.isReady(n)).length;
      const unregistered = Object.values(this.state.provisioning).filter((x) => x === g.name).length;
      return {
        name: g.name,
        counts: {
          registered: { total: nodes.length, ready, notStarted: nodes.length - ready },
          longUnregistered: 0,
          unregistered
        },
        target: this.state.target[g.name] ?? nodes.length,
        min: g.min,
        max: g.max,
        scaleUp: unregistered || nodes.length - ready ? 'InProgress' : 'NoActivity',
        candidates: nodes.filter((n) => this.state.unneededSince[n.metadata.name] !== undefined).length
      };
    });
    return statusYaml(this.cluster.api.timestamp(), groups, this.state.transitions);
  }

  private status(): void {
    writeStatus(this.cluster, CTX, this.currentStatusText(this.groupNodes()), this.cluster.api.timestamp());
  }
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

registerComponent(CA_KIND, (cluster: Cluster, args: AutoscalerArgs) => new ClusterAutoscaler(cluster, args));
