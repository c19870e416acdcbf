/**
 * node-lifecycle-controller (pkg/controller/nodelifecycle): watches node heartbeats, marks silent
 * nodes Unknown, mirrors conditions into NoSchedule taints, and adds the NoExecute not-ready /
 * unreachable taints through per-zone rate-limited queues whose rate follows the zone's health.
 */
import type { KubeObject, NodeCondition, Taint } from '../../api/types';
import type { Controller, ControllerHost } from '../controller';
import { markPodsNotReady } from './mark_pods_not_ready';
import { splitKey } from '../util/pods';
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
  taintExists
} from '../../api/corev1/taints';
import { removeTaintsOffNode, swapNodeControllerTaint } from '../util/nodetaints';
import { newHealthResult, readyCondition, tryUpdateNodeHealth, type NodeHealth } from './node_health';
import {
  NODE_EVICTION_PERIOD_MS,
  add,
  newRateLimitedQueue,
  remove,
  swapLimiter,
  tryQueue,
  type RateLimitedQueueState
} from './rate_limited_queue';
import { LABEL_EXCLUDE_DISRUPTION, computeZoneState, getZoneKey, type ZoneState } from './zone';
import { nodeHealthMachine, observedStep, type NodeHealthEvent } from '../../machines/node-health';
import {
  initialRecord,
  moveRecord,
  stepRecord,
  type MachineAction,
  type MachineRecord
} from '../../machines/record';

export const NOT_READY_TAINT: Taint = { key: TAINT_NOT_READY, effect: 'NoExecute' };
export const UNREACHABLE_TAINT: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_PID_PRESSURE }
};
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

const NO_TAINTS: readonly Taint[] = [];

/** taintExists without a callback: the monitor pass asks it of every node. */
function hasTaint(taints: readonly Taint[], t: Taint): boolean {
  for (let i = 0; i < taints.length; i++)
    if (taints[i].key === t.key && taints[i].effect === t.effect) return true;
  return false;
}

/**
 * What the monitor pass reads of a Node, worked out once per stored version of it: stored objects
 * are frozen, so the view holds while the API server keeps the same object (in a steady cluster,
 * for as long as the kubelet does not write its status). Derived from the API, so not state.
 */
interface NodeView {
  readonly node: KubeObject;
  readonly ready: NodeCondition | undefined;
  readonly zone: string;
  /** node.kubernetes.io/exclude-disruption: left out of its zone's health. */
  readonly excluded: boolean;
  readonly taints: readonly Taint[];
  readonly unreachableTaint: boolean;
  readonly notReadyTaint: boolean;
}

/** NodeHealthUpdateRetry: attempts per node and pass to write its health. */
const NODE_HEALTH_UPDATE_RETRY = 5;

const SOURCE = { component: 'node-controller' };

interface State {
  knownNodes: Record<string, string>;
  health: Record<string, NodeHealth>;
  zoneStates: Record<string, ZoneState>;
  tainters: Record<string, RateLimitedQueueState>;
  nodesToRetry: Record<string, true>;
  /** Time of the scheduled tainting pass, if any. */
  tickAt: number | null;
  /** node_collector_evictions_total by zone key: NoExecute taints this instance added. */
  evictions?: Record<string, number>;
  /** Each known node's health machine (machines/node-health.ts): state, last event, path. */
  machines?: Record<string, MachineRecord>;
}

export class NodeLifecycleController implements Controller {
  readonly name = 'node-lifecycle-controller';
  private s: State = {
    knownNodes: {},
    health: {},
    zoneStates: {},
    tainters: {},
    nodesToRetry: {},
    tickAt: null
  };

  /** The monitor pass's per-node result, filled in for one node after another. */
  private readonly healthResult = newHealthResult();
  /** Each node's view, by name, for the object it was made from. */
  private views = new Map<string, NodeView>();

  constructor(private host: ControllerHost) {}

  /** node_collector_evictions_total by zone key. */
  evictionCounts(): Record<string, number> {
    return { ...(this.s.evictions ?? {}) };
  }

  private get cfg() {
    return this.host.cluster.config.controllerManager;
  }

  watch(): (() => void)[] {
    return [
      this.host.cluster.api.watch('Node', (type, node) => {
        if (type !== 'DELETED') this.host.enqueue(node.metadata.name);
      }),
      // podUpdated: a pod newly bound to a node that is not Ready is marked not ready too.
      this.host.cluster.api.watch('Pod', (type, pod, old) => {
        const node = pod.spec?.nodeName;
        if (type !== 'DELETED' && node && node !== old?.spec?.nodeName) {
          this.host.enqueue(`pod:${pod.metadata.namespace}/${pod.metadata.name}`);
        }
      })
    ];
  }

  start(): void {
    this.host.schedule(0, 'monitor');
  }

  resyncKeys(): string[] {
    return this.host.cluster.api.list('Node').map((n) => n.metadata.name);
  }

  onRestart(): void {
    // A restarted controller has no probe timestamps: every node starts a fresh grace period.
    this.s.health = {};
    // A new process starts its counters from zero.
    delete this.s.evictions;
  }

  /** The health machine of each known node, as this controller last stepped it. */
  get machines(): Readonly<Record<string, MachineRecord>> {
    return this.s.machines ?? {};
  }

  private view(node: KubeObject): NodeView {
    const name = node.metadata.name;
    let v = this.views.get(name);
    if (v?.node !== node) {
      const taints = (node.spec?.taints as Taint[] | undefined) ?? NO_TAINTS;
      v = {
        node,
        ready: readyCondition(node),
        zone: getZoneKey(node),
        excluded: node.metadata.labels?.[LABEL_EXCLUDE_DISRUPTION] !== undefined,
        taints,
        unreachableTaint: hasTaint(taints, UNREACHABLE_TAINT),
        notReadyTaint: hasTaint(taints, NOT_READY_TAINT)
      };
      this.views.set(name, v);
    }
    return v;
  }

  /** Step a node's health machine; returns the actions its transition names. */
  private stepHealth(name: string, event: NodeHealthEvent): MachineAction[] {
    const all = (this.s.machines ??= {});
    const now = this.host.now();
    const cur = all[name] ?? initialRecord(nodeHealthMachine, now);
    const { record, actions } = stepRecord(nodeHealthMachine, cur, event, now);
    all[name] = record;
    return actions;
  }

  /** Zone states keyed by zone key ("" when nodes carry no topology labels). */
  get zoneStates(): Readonly<Record<string, ZoneState>> {
    return this.s.zoneStates;
  }

  getState(): unknown {
    return this.s;
  }

  setState(s: unknown): void {
    this.s = s as State;
  }

  handle(type: string): void {
    if (type === 'monitor') {
      this.host.schedule(this.cfg.nodeMonitorPeriod, 'monitor');
      this.monitorNodeHealth();
      this.ensureTick();
    } else if (type === 'tick') {
      this.s.tickAt = null;
      this.doNoExecuteTaintingPass();
      this.ensureTick();
    }
  }

  sync(key: string): void {
    if (key.startsWith('pod:')) {
      this.processPod(key.slice(4));
      return;
    }
    this.doNoScheduleTaintingPass(key);
  }

  private processPod(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    const nodeName = api.tryGet<KubeObject>('Pod', ns, name)?.spec?.nodeName as string | undefined;
    if (!nodeName || !this.s.health[nodeName]) return;
    const node = api.tryGet<KubeObject>('Node', undefined, nodeName);
    const ready = node && readyCondition(node);
    if (!ready || ready.status === 'True') return;
    if (!markPodsNotReady(this.host, nodeName, key)) throw new Error(`unable to mark pod ${key} NotReady`);
  }

  /** doNoScheduleTaintingPass: NoSchedule taints mirror the node's conditions and spec.unschedulable. */
  private doNoScheduleTaintingPass(nodeName: string): void {
    const node = this.host.cluster.api.tryGet<KubeObject>('Node', undefined, nodeName);
    if (!node) return;
    const want: Taint[] = [];
    for (const c of (node.status?.conditions ?? []) as NodeCondition[]) {
      const key = CONDITION_TAINTS[c.type]?.[c.status];
      if (key) want.push({ key, effect: 'NoSchedule' });
    }
    if (node.spec?.unschedulable) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
    const have = ((node.spec?.taints ?? []) as Taint[]).filter(
      (t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key))
    );
    const toAdd = want.filter((t) => !taintExists(have, t));
    const toDel = have.filter((t) => !taintExists(want, t));
    if (!toAdd.length && !toDel.length) return;
    if (!swapNodeControllerTaint(this.host, nodeName, toAdd, toDel)) {
      throw new Error(`failed to swap taints of node ${nodeName}`);
    }
  }

  private monitorNodeHealth(): void {
    const api = this.host.cluster.api;
    const nodes = api.list<KubeObject>('Node');
    for (let i = 0; i < nodes.length; i++) {
      const zone = this.view(nodes[i]).zone;
      if (!this.s.tainters[zone]) this.addPodEvictorForNewZone(zone);
    }
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (this.s.knownNodes[node.metadata.name] !== undefined) continue;
      this.recordNodeEvent(
        node,
        'Normal',
        'RegisteredNode',
        `Registered Node ${node.metadata.name} in Controller`
      );
      this.s.knownNodes[node.metadata.name] = node.metadata.uid ?? '';
      (this.s.machines ??= {})[node.metadata.name] = initialRecord(nodeHealthMachine, this.host.now());
      this.markNodeAsReachable(node);
    }
    // Every listed node is known now: more known nodes than listed ones means some are gone.
    if (Object.keys(this.s.knownNodes).length > nodes.length) {
      const names = new Set(nodes.map((n) => n.metadata.name));
      for (const [name, uid] of Object.entries(this.s.knownNodes)) {
        if (names.has(name)) continue;
        const gone = { kind: 'Node', apiVersion: 'v1', metadata: { name, uid } };
        this.recordNodeEvent(gone, 'Normal', 'RemovingNode', `Removing Node ${name} from Controller`);
        delete this.s.knownNodes[name];
        delete this.s.health[name];
        delete this.s.nodesToRetry[name];
        if (this.s.machines) delete this.s.machines[name];
        this.views.delete(name);
        for (const q of Object.values(this.s.tainters)) remove(q, name);
      }
    }

    const zoneConditions: Record<string, (NodeCondition | undefined)[]> = {};
    const grace = { monitor: this.cfg.nodeMonitorGracePeriod, startup: this.cfg.nodeStartupGracePeriod };
    const result = this.healthResult;
    for (let n = 0; n < nodes.length; n++) {
      const listed = nodes[n];
      const name = listed.metadata.name;
      let node = api.tryGet<KubeObject>('Node', undefined, name) ?? listed;
      let view = this.view(node);
      let ok = false;
      for (let i = 0; i < NODE_HEALTH_UPDATE_RETRY && !ok; i++) {
        try {
          tryUpdateNodeHealth(this.host, node, view.ready, this.s.health, grace, result);
          ok = true;
        } catch (err) {
          if (i === NODE_HEALTH_UPDATE_RETRY - 1) {
            this.host.logError(
              `Update health of Node '${name}' from Controller error, Skipping - no pods will be evicted`,
              err
            );
          }
          node = api.tryGet<KubeObject>('Node', undefined, name) ?? node;
          view = this.view(node);
        }
      }
      if (!ok) continue;
      // The Node as the health update left it (a new version if it wrote Unknown).
      const after = api.tryGet<KubeObject>('Node', undefined, name) ?? node;
      if (after !== node) {
        node = after;
        view = this.view(node);
      }
      const { observed, current } = result;
      if (!view.excluded) (zoneConditions[view.zone] ??= []).push(current);
      if (current) {
        this.processTaintBaseEviction(node, view, observed);
        // The controller wrote Unknown in this pass: no proof of life within the grace period.
        if (observed.status !== 'Unknown' && current.status === 'Unknown') {
          this.stepHealth(name, { type: 'GRACE_EXPIRED' });
        }
        const needsRetry = this.s.nodesToRetry[name] !== undefined;
        let markPods = false;
        if (current.status !== 'True' && observed.status === 'True') {
          this.recordNodeEvent(node, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
          markPods = true;
        } else if (needsRetry && observed.status !== 'True') {
          markPods = true;
        }
        if (markPods && !markPodsNotReady(this.host, name)) {
          this.s.nodesToRetry[name] = true;
          continue;
        }
      }
      if (this.s.nodesToRetry[name] !== undefined) delete this.s.nodesToRetry[name];
    }
    this.handleDisruption(zoneConditions, nodes);
  }

  /**
   * processTaintBaseEviction: the node health machine decides; this performs what it names. The
   * machine's OBSERVED step for this state and input is looked up (machines/node-health.ts), so a
   * node whose health did not change keeps its record and allocates nothing.
   */
  private processTaintBaseEviction(node: KubeObject, view: NodeView, observed: NodeCondition): void {
    const name = node.metadata.name;
    const all = (this.s.machines ??= {});
    const now = this.host.now();
    const rec = all[name] ?? initialRecord(nodeHealthMachine, now);
    const step = observedStep(rec.value, observed.status, view.unreachableTaint, view.notReadyTaint);
    if (step.value !== rec.value) all[name] = moveRecord(rec, step.value, 'OBSERVED', now);
    else if (all[name] !== rec) all[name] = rec;
    const actions = step.actions;
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i];
      if (a.type === 'markNodeAsReachable') this.markNodeAsReachable(node);
      else if (a.type === 'markNodeForTainting') {
        this.markNodeForTainting(node, a.params?.status as 'False' | 'Unknown');
      } else if (a.type === 'swapNodeControllerTaint') {
        const taint = (key: unknown) => (key === 'unreachable' ? UNREACHABLE_TAINT : NOT_READY_TAINT);
        swapNodeControllerTaint(this.host, name, [taint(a.params?.add)], [taint(a.params?.remove)]);
      }
    }
  }

  private markNodeForTainting(node: KubeObject, status: 'False' | 'Unknown'): boolean {
    const q = this.s.tainters[this.view(node).zone];
    const taints = this.view(node).taints;
    const name = node.metadata.name;
    if (status === 'False' && !taintExists(taints, NOT_READY_TAINT)) remove(q, name);
    if (status === 'Unknown' && !taintExists(taints, UNREACHABLE_TAINT)) remove(q, name);
    return add(q, name, node.metadata.uid ?? '', this.host.now());
  }

  /** markNodeAsReachable: drop both NoExecute taints and leave the tainting queue. */
  private markNodeAsReachable(node: KubeObject): boolean {
    const view = this.view(node);
    if (view.unreachableTaint || view.notReadyTaint) {
      try {
        removeTaintsOffNode(this.host, node.metadata.name, [UNREACHABLE_TAINT, NOT_READY_TAINT]);
      } catch (err) {
        this.host.logError(`Failed to remove taints from node "${node.metadata.name}"`, err);
        return false;
      }
    }
    const q = this.s.tainters[view.zone];
    return q ? remove(q, node.metadata.name) : false;
  }

  private doNoExecuteTaintingPass(): void {
    const api = this.host.cluster.api;
    const now = this.host.now();
    for (const zone of Object.keys(this.s.tainters).sort()) {
      tryQueue(this.s.tainters[zone], now, (item) => {
        const node = api.tryGet<KubeObject>('Node', undefined, item.value);
        if (!node) return { ok: true, waitMs: 0 };
        const ready = readyCondition(node);
        if (!ready) return { ok: false, waitMs: 50 };
        let add: Taint;
        let opposite: Taint;
        if (ready.status === 'False') [add, opposite] = [NOT_READY_TAINT, UNREACHABLE_TAINT];
        else if (ready.status === 'Unknown') [add, opposite] = [UNREACHABLE_TAINT, NOT_READY_TAINT];
        else return { ok: true, waitMs: 0 };
        const ok = swapNodeControllerTaint(this.host, item.value, [add], [opposite]);
        // doNoExecuteTaintingPass counts each tainting as an eviction of the node's zone.
        if (ok) {
          (this.s.evictions ??= {})[zone] = (this.s.evictions?.[zone] ?? 0) + 1;
          this.stepHealth(item.value, {
            type: 'TAINTED',
            taint: add === UNREACHABLE_TAINT ? 'unreachable' : 'not-ready'
          });
        }
        return { ok, waitMs: 0 };
      });
    }
  }

  /** Keep the 100 ms tainting pass running while some zone has queued nodes it may process. */
  private ensureTick(): void {
    if (this.s.tickAt !== null) return;
    const busy = Object.values(this.s.tainters).some((q) => q.queue.length && q.qps > 0);
    if (!busy) return;
    const now = this.host.now();
    const at = (Math.floor(now / NODE_EVICTION_PERIOD_MS) + 1) * NODE_EVICTION_PERIOD_MS;
    this.s.tickAt = at;
    this.host.scheduleAt(at, 'tick');
  }

  private addPodEvictorForNewZone(zone: string): void {
    this.s.zoneStates[zone] = 'Initial';
    this.s.tainters[zone] = newRateLimitedQueue(this.cfg.nodeEvictionRate, this.host.now());
  }

  private setLimiterInZone(zone: string, zoneSize: number, state: ZoneState): void {
    const q = this.s.tainters[zone];
    if (!q) return;
    const now = this.host.now();
    if (state === 'Normal' || state === 'FullDisruption') swapLimiter(q, this.cfg.nodeEvictionRate, now);
    else if (state === 'PartialDisruption') {
      // ReducedQPSFunc: small zones stop tainting altogether.
      const qps = zoneSize > this.cfg.largeClusterSizeThreshold ? this.cfg.secondaryNodeEvictionRate : 0;
      swapLimiter(q, qps, now);
    }
  }

  private handleDisruption(
    zoneConditions: Record<string, (NodeCondition | undefined)[]>,
    nodes: KubeObject[]
  ): void {
    const newStates: Record<string, ZoneState> = {};
    let allAreFullyDisrupted = true;
    for (const [zone, conds] of Object.entries(zoneConditions)) {
      const { state } = computeZoneState(conds, this.cfg.unhealthyZoneThreshold);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates[zone] = state;
      if (!this.s.zoneStates[zone]) this.s.zoneStates[zone] = 'Initial';
    }
    let allWasFullyDisrupted = true;
    for (const [zone, st] of Object.entries(this.s.zoneStates)) {
      if (!zoneConditions[zone]) {
        delete this.s.zoneStates[zone];
        continue;
      }
      if (st !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    const now = this.host.now();
    if (allAreFullyDisrupted) {
      // Master disruption mode: every node looks dead, so the control plane is assumed broken.
      for (const n of nodes) {
        this.markNodeAsReachable(n);
        this.stepHealth(n.metadata.name, { type: 'ALL_ZONES_DISRUPTED' });
      }
      for (const zone of Object.keys(this.s.zoneStates)) {
        if (this.s.tainters[zone]) swapLimiter(this.s.tainters[zone], 0, now);
        this.s.zoneStates[zone] = 'FullDisruption';
      }
      return;
    }
    if (allWasFullyDisrupted) {
      for (const n of nodes) {
        const h = this.s.health[n.metadata.name];
        if (h) this.s.health[n.metadata.name] = { ...h, probe: now, readyTransition: now };
      }
      for (const zone of Object.keys(this.s.zoneStates)) {
        this.setLimiterInZone(zone, zoneConditions[zone]?.length ?? 0, newStates[zone]);
        this.s.zoneStates[zone] = newStates[zone];
      }
      return;
    }
    for (const [zone, st] of Object.entries(this.s.zoneStates)) {
      const next = newStates[zone];
      if (st === next) continue;
      this.setLimiterInZone(zone, zoneConditions[zone]?.length ?? 0, next);
      this.s.zoneStates[zone] = next;
    }
  }

  private recordNodeEvent(
    node: Pick<KubeObject, 'kind' | 'metadata'> & { apiVersion?: string },
    type: 'Normal' | 'Warning',
    reason: string,
    message: string
  ): void {
    const ref = {
      kind: 'Node',
      apiVersion: 'v1',
      metadata: { name: node.metadata.name, uid: node.metadata.uid }
    };
    this.host.cluster.recorder.event(ref, type, reason, message, SOURCE, this.host.ctx);
  }
}
