/**
 * daemonset-controller (pkg/controller/daemon): one pod per eligible node. Pods are pinned to their
 * node with required node affinity on metadata.name (the scheduler binds them) and carry the
 * DaemonSet tolerations, so node problems never evict them.
 */
import type { KubeObject, Mutable, Toleration } from '../../api/types';
import { clone } from '../../api/types';
import { errorMessage, type Controller, type ControllerHost } from '../controller';
import { controllerRef, isPodAvailable, isPodReady, podKey, splitKey, targetNodeName } from '../util/pods';
import { podFromTemplate } from '../util/podtemplate';
import { podMatchesNode } from '../../api/corev1/nodeaffinity';
import { podUntoleratedTaints } from '../../api/corev1/taints';
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE
} from '../../api/corev1/taints';
import { podTemplateHash, scaledValue } from '../deployment/util';
import { jsonEqual } from '../util/jsonequal';

/**
 * Whether a pod update changes what a DaemonSet sync reads of the pod: its target node, deletion,
 * phase, revision hash label and readiness.
 */
function readChanged(old: KubeObject, cur: KubeObject): boolean {
  return (
    targetNodeName(old) !== targetNodeName(cur) ||
    old.metadata.deletionTimestamp !== cur.metadata.deletionTimestamp ||
    old.status?.phase !== cur.status?.phase ||
    old.metadata.labels?.[CONTROLLER_REVISION_HASH] !== cur.metadata.labels?.[CONTROLLER_REVISION_HASH] ||
    isPodReady(old) !== isPodReady(cur)
  );
}

const SOURCE = { component: 'daemonset-controller' };
const NO_PODS: readonly KubeObject[] = Object.freeze([]);
const FAILED_POD_BACKOFF_MS = 1000;
const FAILED_POD_BACKOFF_MAX_MS = 15 * 60_000;

interface FailedPodBackoff {
  backoff: number;
  lastUpdate: number;
}
export const CONTROLLER_REVISION_HASH = 'controller-revision-hash';
export const POD_TEMPLATE_GENERATION = 'pod-template-generation';

/** AddOrUpdateDaemonPodTolerations, in upstream order. */
export function addDaemonPodTolerations(
  spec: Mutable<{ tolerations?: Toleration[]; hostNetwork?: boolean }>
): void {
  const add: Toleration[] = [
    { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' }
  ];
  if (spec.hostNetwork)
    add.push({ key: TAINT_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' });
  const tols = (spec.tolerations ??= []);
  for (const t of add) {
    const i = tols.findIndex((x) => x.key === t.key && x.effect === t.effect && x.operator === t.operator);
    if (i >= 0) tols[i] = { ...t };
    else tols.push({ ...t });
  }
}

/** The pod nodeShouldRunDaemonPod checks a node against: the template with the daemon tolerations. */
export function daemonPodForChecks(ds: KubeObject): KubeObject {
  const spec = clone(ds.spec?.template?.spec ?? {});
  addDaemonPodTolerations(spec);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: '' }, spec } as KubeObject;
}

type Verdict = { shouldRun: boolean; shouldContinueRunning: boolean };
/** A verdict and the node's labels and taints it was computed from. */
type CachedVerdict = { labels: unknown; taints: unknown; verdict: Verdict };

/** The counts a DaemonSet's status is made of. */
interface StatusCounts {
  desired: number;
  current: number;
  misscheduled: number;
  ready: number;
  available: number;
  updated: number;
}

/**
 * What a sync reads of one DaemonSet, kept between syncs and brought up to date from the pods that
 * changed since (the informer's view of them), for a DaemonSet without minReadySeconds: the nodes
 * and their verdicts (as long as no node was added, deleted, relabelled or retainted: nodeEpoch),
 * each node's pods, and what each node adds to manage's, rollingUpdate's and updateStatus's walks.
 * A sync then costs the nodes whose pods changed, not every node. Used while every node has at
 * most one pod and there is no failed pod and no orphan to delete; otherwise the sync walks.
 */
interface DaemonView {
  hash: string;
  template: unknown;
  nodeEpoch: number;
  nodes: KubeObject[];
  verdicts: Verdict[];
  /** Node name → position in `nodes`. */
  pos: Map<string, number>;
  /** Each node's pods of the DaemonSet (NO_PODS for none); the order is not kept. */
  pods: (readonly KubeObject[])[];
  /** Pod name → the position it is filed under, -1 for a pod whose node is not listed. */
  where: Map<string, number>;
  orphans: Map<string, KubeObject>;
  /** Names of the pods that changed since they were filed. */
  dirty: Set<string>;
  /** Nodes with more than one pod, and with a failed pod that is not being deleted. */
  several: number;
  failed: number;
  /** Positions whose node needs a pod (manage), and whose pod manage deletes. */
  need: Set<number>;
  del: Set<number>;
  /** rollingUpdate: eligible nodes counted unavailable; old pods not available, and available. */
  eligible: number;
  unavailable: number;
  replace: Set<number>;
  candidates: Set<number>;
  status: StatusCounts;
}

/** nodeShouldRunDaemonPod (`pod`: daemonPodForChecks(ds), built once for many nodes). */
export function nodeShouldRunDaemonPod(
  node: KubeObject,
  ds: KubeObject,
  pod: KubeObject = daemonPodForChecks(ds)
): Verdict {
  const spec = pod.spec!;
  if (spec.nodeName && spec.nodeName !== node.metadata.name)
    return { shouldRun: false, shouldContinueRunning: false };
  if (!podMatchesNode(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  if (podUntoleratedTaints(pod, node, ['NoSchedule', 'NoExecute']).length) {
    return {
      shouldRun: false,
      shouldContinueRunning: !podUntoleratedTaints(pod, node, ['NoExecute']).length
    };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** A set's positions in node order. */
function positions(set: Set<number>): number[] {
  return [...set].sort((a, b) => a - b);
}

function mark(set: Set<number>, i: number, sign: 1 | -1): void {
  if (sign > 0) set.add(i);
  else set.delete(i);
}

/** Whether the view holds an orphan manage would delete (one not being deleted already). */
function liveOrphans(v: DaemonView): boolean {
  for (const p of v.orphans.values()) if (!p.metadata.deletionTimestamp) return true;
  return false;
}

/**
 * Add (sign 1) or take back (-1) what node `i` adds to manage's, rollingUpdate's and
 * updateStatus's walks, as those walks read a node with at most one pod and minReadySeconds 0
 * (available is ready). A node with several pods adds only to `several`.
 */
function tally(v: DaemonView, i: number, sign: 1 | -1): void {
  const pods = v.pods[i];
  if (pods.length > 1) {
    v.several += sign;
    return;
  }
  const { shouldRun, shouldContinueRunning } = v.verdicts[i];
  const p: KubeObject | undefined = pods[0];
  const live = p && !p.metadata.deletionTimestamp ? p : undefined;
  // manage reads a failed pod's deletion backoff, which moves with time: such a sync walks.
  if (live?.status?.phase === 'Failed') v.failed += sign;
  if (shouldRun && !p) mark(v.need, i, sign);
  else if (!shouldContinueRunning && live) mark(v.del, i, sign);
  const st = v.status;
  if (shouldRun) {
    if (!live) v.unavailable += sign;
    else if (live.metadata.labels?.[CONTROLLER_REVISION_HASH] === v.hash) {
      if (!isPodReady(live)) v.unavailable += sign;
    } else mark(isPodReady(live) ? v.candidates : v.replace, i, sign);
    st.desired += sign;
    if (p) {
      st.current += sign;
      if (isPodReady(p)) {
        st.ready += sign;
        st.available += sign;
      }
      if (p.metadata.labels?.[CONTROLLER_REVISION_HASH] === v.hash) st.updated += sign;
    }
  } else if (p) st.misscheduled += sign;
}

/** File a pod under the node it targets (tallying the node again when `retally`). */
function file(v: DaemonView, p: KubeObject, retally: boolean): void {
  const name = p.metadata.name;
  const target = targetNodeName(p);
  const i = target === undefined ? undefined : v.pos.get(target);
  if (i === undefined) {
    v.orphans.set(name, p);
    v.where.set(name, -1);
    return;
  }
  if (retally) tally(v, i, -1);
  v.pods[i] = [...v.pods[i], p];
  v.where.set(name, i);
  if (retally) tally(v, i, 1);
}

/** Take a pod out of the view, tallying its node again. */
function unfile(v: DaemonView, name: string): void {
  const i = v.where.get(name);
  if (i === undefined) return;
  v.where.delete(name);
  if (i < 0) {
    v.orphans.delete(name);
    return;
  }
  tally(v, i, -1);
  const rest = v.pods[i].filter((p) => p.metadata.name !== name);
  v.pods[i] = rest.length ? rest : NO_PODS;
  tally(v, i, 1);
}

export class DaemonSetsController implements Controller {
  readonly name = 'daemonset-controller';

  /**
   * failedPodsBackoff (flowcontrol.NewBackOff(1s, 15m)), keyed `<ds uid>/<node>`: a kubelet that
   * rejects the DaemonSet's pod (DiskPressure, say) would otherwise be fed a new one every sync.
   */
  private failedBackoff: Record<string, FailedPodBackoff> = {};
  /** Per DaemonSet uid: nodeShouldRunDaemonPod's verdicts (derived from API objects, not state). */
  private verdictCache = new Map<
    string,
    { template: unknown; check: KubeObject; nodes: Map<string, CachedVerdict> }
  >();

  /** Bumped by every Node event that adds or deletes a node or changes its labels or taints. */
  private nodeEpoch = 0;
  /** By DaemonSet uid: bumped by every event of its pods that changes what a sync reads of them. */
  private podEpochs = new Map<string, number>();
  /** By DaemonSet key: the last sync, when it wrote nothing (derived from API objects, not state). */
  private idle = new Map<string, { ds: KubeObject; nodeEpoch: number; podEpoch: number }>();
  /** Set by `manage` when a sync meets a failed pod (its deletion backoff depends on time). */
  private sawFailedPod = false;
  /** By DaemonSet uid (derived from API objects, not state). */
  private views = new Map<string, DaemonView>();
  /** Tests: every sync walks every node, as without the views. */
  static walkAlways = false;

  constructor(private host: ControllerHost) {}

  getState(): unknown {
    return { failedBackoff: structuredClone(this.failedBackoff) };
  }

  setState(s: unknown): void {
    const st = s as { failedBackoff?: Record<string, FailedPodBackoff> } | undefined;
    this.failedBackoff = structuredClone(st?.failedBackoff ?? {});
    this.views.clear();
  }

  /** Backoff.IsInBackOffSinceUpdate: the delay left, or 0 when a failed pod may be deleted now. */
  private failedPodBackoffLeft(key: string, now: number): number {
    const e = this.failedBackoff[key];
    if (!e || now - e.lastUpdate > 2 * FAILED_POD_BACKOFF_MAX_MS) return 0;
    return Math.max(0, e.lastUpdate + e.backoff - now);
  }

  /** Backoff.Next: 1 s, doubling up to 15 min; forgotten after twice the maximum without failures. */
  private nextFailedPodBackoff(key: string, now: number): void {
    const e = this.failedBackoff[key];
    const fresh = !e || now - e.lastUpdate > 2 * FAILED_POD_BACKOFF_MAX_MS;
    this.failedBackoff[key] = {
      backoff: fresh ? FAILED_POD_BACKOFF_MS : Math.min(e.backoff * 2, FAILED_POD_BACKOFF_MAX_MS),
      lastUpdate: now
    };
  }

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    return [
      api.watch('DaemonSet', (type, ds) => {
        if (type !== 'DELETED') this.host.enqueue(podKey(ds));
        else {
          this.verdictCache.delete(ds.metadata.uid as string);
          this.views.delete(ds.metadata.uid as string);
        }
      }),
      // addNode and updateNode (pkg/controller/daemon/daemon_controller.go; the node informer has
      // no delete handler): a new node wakes the DaemonSets that should run on it; an update wakes
      // only those whose nodeShouldRunDaemonPod verdict for the node changed. That verdict reads the
      // node's name, labels and taints, so an update that keeps them (a heartbeat, any status
      // update; upstream's shouldIgnoreNodeUpdate drops the ones that change nothing but
      // conditions' times) wakes none.
      api.watch('Node', (type, node, old) => {
        if (
          type !== 'MODIFIED' ||
          !old ||
          !jsonEqual(node.metadata.labels, old.metadata.labels) ||
          !jsonEqual(node.spec?.taints, old.spec?.taints)
        )
          this.nodeEpoch++;
        if (type === 'ADDED') {
          for (const ds of api.list<KubeObject>('DaemonSet'))
            if (nodeShouldRunDaemonPod(node, ds, this.checkPod(ds)).shouldRun) this.host.enqueue(podKey(ds));
          return;
        }
        // No handler for a deleted node upstream: its pods' deletion (pod GC) wakes the DaemonSet.
        if (type === 'DELETED' || !old) return;
        if (
          jsonEqual(node.metadata.labels, old.metadata.labels) &&
          jsonEqual(node.spec?.taints, old.spec?.taints)
        )
          return;
        for (const ds of api.list<KubeObject>('DaemonSet')) {
          const check = this.checkPod(ds);
          const was = nodeShouldRunDaemonPod(old, ds, check);
          const now = nodeShouldRunDaemonPod(node, ds, check);
          if (was.shouldRun !== now.shouldRun || was.shouldContinueRunning !== now.shouldContinueRunning)
            this.host.enqueue(podKey(ds));
        }
      }),
      api.watch('Pod', (type, pod, old) => {
        const ref = controllerRef(pod);
        const was = old && controllerRef(old);
        const changed = type !== 'MODIFIED' || !old || readChanged(old, pod);
        if (changed) {
          if (ref?.kind === 'DaemonSet') this.podEpoch(ref.uid);
          if (was?.kind === 'DaemonSet' && was.uid !== ref?.uid) this.podEpoch(was.uid);
        }
        // The views file the pod again when what they read of it changed, or its owner did.
        if (ref?.kind === 'DaemonSet' && (changed || was?.uid !== ref.uid))
          this.views.get(ref.uid)?.dirty.add(pod.metadata.name);
        if (was?.kind === 'DaemonSet' && was.uid !== ref?.uid)
          this.views.get(was.uid)?.dirty.add(pod.metadata.name);
        if (ref?.kind === 'DaemonSet') this.host.enqueue(`${pod.metadata.namespace}/${ref.name}`);
      })
    ];
  }

  resyncKeys(): string[] {
    return this.host.cluster.api.list('DaemonSet').map(podKey);
  }

  sync(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    const ds = api.tryGet<KubeObject>('DaemonSet', ns, name);
    if (!ds) {
      this.idle.delete(key);
      return;
    }
    const uid = ds.metadata.uid as string;
    const seen = this.idle.get(key);
    if (
      seen &&
      seen.ds === ds &&
      seen.nodeEpoch === this.nodeEpoch &&
      seen.podEpoch === (this.podEpochs.get(uid) ?? 0)
    )
      return;
    this.idle.delete(key);
    const rvAtStart = api.resourceVersion;
    this.sawFailedPod = false;
    const hash = podTemplateHash(ds.spec?.template);
    const view = this.viewOf(ds, hash);
    const err =
      view && !view.several && !view.failed && !liveOrphans(view)
        ? this.syncFromView(ds, view, hash)
        : this.syncWalking(ds, hash);
    if (err) throw err;
    // A sync that wrote nothing and read nothing that changes with time (no minReadySeconds, no
    // failed pod and its backoff) would write nothing again until the DaemonSet, a node's name,
    // labels or taints, or what it reads of its pods changes.
    if (api.resourceVersion === rvAtStart && !ds.spec?.minReadySeconds && !this.sawFailedPod)
      this.idle.set(key, {
        ds,
        nodeEpoch: this.nodeEpoch,
        podEpoch: this.podEpochs.get(uid) ?? 0
      });
  }

  /** The sync as upstream's: every node walked (manage, rollingUpdate, updateStatus). */
  private syncWalking(ds: KubeObject, hash: string): unknown {
    const api = this.host.cluster.api;
    const nodes = api.list<KubeObject>('Node');
    // One verdict per node for the whole sync (the nodes do not change while it runs), kept
    // between syncs while the node's name, labels and taints and the DaemonSet's template are the
    // same objects (stored objects are frozen: a change is a new object). verdicts[i] is nodes[i]'s.
    const verdicts = this.verdicts(ds, nodes);
    const nodeNames = new Set<string>();
    for (const n of nodes) nodeNames.add(n.metadata.name);
    const grouped = this.podsByNode(ds, nodeNames, true);
    const { byNode, orphans } = grouped;
    let err: unknown;
    const rv = api.resourceVersion;
    if (!ds.metadata.deletionTimestamp) {
      try {
        this.manage(ds, nodes, byNode, orphans, hash, verdicts);
        if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate')
          this.rollingUpdate(ds, nodes, byNode, hash, verdicts);
      } catch (e) {
        err = e;
      }
    }
    // Nothing was written since the pods were read: the status counts the same pods.
    this.updateStatus(ds, nodes, hash, verdicts, api.resourceVersion === rv ? byNode : undefined);
    return err;
  }

  /**
   * The same sync from the DaemonSet's view: manage's creations and deletions, rollingUpdate's
   * deletions and the status counts come from the nodes' kept parts, in node order.
   */
  private syncFromView(ds: KubeObject, v: DaemonView, hash: string): unknown {
    const api = this.host.cluster.api;
    const podAt = (i: number) => v.pods[i][0];
    let err: unknown;
    const rv = api.resourceVersion;
    if (!ds.metadata.deletionTimestamp) {
      try {
        // manage: no orphan and no failed pod, at most one pod per node.
        this.syncNodes(
          ds,
          positions(v.del).map(podAt),
          positions(v.need).map((i) => v.nodes[i].metadata.name),
          hash
        );
        if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
          // rollingUpdate reads the pods as they were before manage wrote: the view is not
          // brought up to date in between. Its walk (update.go's rollingUpdate) takes an
          // available old pod as a candidate while fewer than maxUnavailable nodes were
          // unavailable so far, then the first (maxUnavailable - unavailable) candidates: when
          // that is positive, every available old pod was a candidate.
          const maxUnavailable = scaledValue(
            ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable,
            v.eligible,
            true,
            '1'
          );
          const remaining = Math.max(0, Math.min(maxUnavailable - v.unavailable, v.candidates.size));
          const candidates = remaining ? positions(v.candidates).slice(0, remaining) : [];
          this.syncNodes(ds, [...positions(v.replace), ...candidates].map(podAt), [], hash);
        }
      } catch (e) {
        err = e;
      }
    }
    // Pods written since the read are filed again; a node with several pods needs their order.
    if (api.resourceVersion !== rv) this.refresh(ds, v);
    if (v.several) this.updateStatus(ds, v.nodes, hash, v.verdicts);
    else this.writeStatus(ds, v.status);
    return err;
  }

  /** The DaemonSet's view, built or brought up to date; none for a DaemonSet with minReadySeconds. */
  private viewOf(ds: KubeObject, hash: string): DaemonView | undefined {
    const uid = ds.metadata.uid as string;
    if (DaemonSetsController.walkAlways || ds.spec?.minReadySeconds) {
      this.views.delete(uid);
      return undefined;
    }
    const v = this.views.get(uid);
    if (v && v.hash === hash && v.template === ds.spec?.template && v.nodeEpoch === this.nodeEpoch) {
      this.refresh(ds, v);
      return v;
    }
    return this.buildView(ds, hash);
  }

  private buildView(ds: KubeObject, hash: string): DaemonView {
    const api = this.host.cluster.api;
    const nodes = api.list<KubeObject>('Node');
    const verdicts = this.verdicts(ds, nodes);
    const pos = new Map<string, number>();
    for (let i = 0; i < nodes.length; i++) pos.set(nodes[i].metadata.name, i);
    const v: DaemonView = {
      hash,
      template: ds.spec?.template,
      nodeEpoch: this.nodeEpoch,
      nodes,
      verdicts,
      pos,
      pods: new Array<readonly KubeObject[]>(nodes.length).fill(NO_PODS),
      where: new Map(),
      orphans: new Map(),
      dirty: new Set(),
      several: 0,
      failed: 0,
      need: new Set(),
      del: new Set(),
      eligible: 0,
      unavailable: 0,
      replace: new Set(),
      candidates: new Set(),
      status: { desired: 0, current: 0, misscheduled: 0, ready: 0, available: 0, updated: 0 }
    };
    const uid = ds.metadata.uid as string;
    for (const p of api.listByController<KubeObject>('Pod', uid, ds.metadata.namespace)) file(v, p, false);
    for (let i = 0; i < nodes.length; i++) {
      if (verdicts[i].shouldRun) v.eligible++;
      tally(v, i, 1);
    }
    this.views.set(uid, v);
    return v;
  }

  /** File again the pods that changed since the view last read them. */
  private refresh(ds: KubeObject, v: DaemonView): void {
    if (!v.dirty.size) return;
    const api = this.host.cluster.api;
    const uid = ds.metadata.uid as string;
    for (const name of v.dirty) {
      unfile(v, name);
      const p = api.tryGet<KubeObject>('Pod', ds.metadata.namespace, name);
      if (p && controllerRef(p)?.uid === uid) file(v, p, true);
    }
    v.dirty.clear();
  }

  private podEpoch(uid: string): void {
    this.podEpochs.set(uid, (this.podEpochs.get(uid) ?? 0) + 1);
  }

  /** The DaemonSet's verdict cache, started again when its pod template is another object. */
  private cacheOf(ds: KubeObject): {
    template: unknown;
    check: KubeObject;
    nodes: Map<string, CachedVerdict>;
  } {
    const uid = ds.metadata.uid as string;
    let cache = this.verdictCache.get(uid);
    if (!cache || cache.template !== ds.spec?.template) {
      cache = { template: ds.spec?.template, check: daemonPodForChecks(ds), nodes: new Map() };
      this.verdictCache.set(uid, cache);
    }
    return cache;
  }

  /** The pod nodeShouldRunDaemonPod checks nodes against for `ds` (daemonPodForChecks, kept). */
  private checkPod(ds: KubeObject): KubeObject {
    return this.cacheOf(ds).check;
  }

  /** nodeShouldRunDaemonPod for every node, from the cache where its inputs are unchanged. */
  private verdicts(ds: KubeObject, nodes: KubeObject[]): Verdict[] {
    const cache = this.cacheOf(ds);
    const out: Verdict[] = new Array(nodes.length);
    const kept = cache.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      const nodeName = n.metadata.name;
      let c = kept.get(nodeName);
      if (!c || c.labels !== n.metadata.labels || c.taints !== n.spec?.taints) {
        c = {
          labels: n.metadata.labels,
          taints: n.spec?.taints,
          verdict: nodeShouldRunDaemonPod(n, ds, cache.check)
        };
        kept.set(nodeName, c);
      }
      out[i] = c.verdict;
    }
    // Forget the nodes that are gone (the kept ones are the listed ones when the sizes agree).
    if (kept.size !== nodes.length) {
      const names = new Set<string>();
      for (const n of nodes) names.add(n.metadata.name);
      for (const name of kept.keys()) if (!names.has(name)) kept.delete(name);
    }
    return out;
  }

  /**
   * The DaemonSet's pods by the node they target (each node's oldest first) and the ones whose
   * node is gone. A node's pods and the orphans are put in creation and list order only when
   * there is more than one of them: a single pod needs no order.
   */
  private podsByNode(
    ds: KubeObject,
    nodeNames: Set<string>,
    withOrphans: boolean
  ): { byNode: Map<string, KubeObject[]>; orphans: KubeObject[] } {
    const api = this.host.cluster.api;
    const group = (pods: KubeObject[]) => {
      const byNode = new Map<string, KubeObject[]>();
      const orphans: KubeObject[] = [];
      let several = false;
      for (const p of pods) {
        const n = targetNodeName(p);
        if (n && nodeNames.has(n)) {
          const list = byNode.get(n);
          if (list) {
            list.push(p);
            several = true;
          } else byNode.set(n, [p]);
        } else if (withOrphans && !p.metadata.deletionTimestamp) orphans.push(p);
      }
      return { byNode, orphans, several: several || orphans.length > 1 };
    };
    const uid = ds.metadata.uid as string;
    const ns = ds.metadata.namespace;
    const quick = group(api.listByController<KubeObject>('Pod', uid, ns));
    if (!quick.several) return quick;
    const ordered = group(api.listByController<KubeObject>('Pod', uid, ns, { order: 'list' }));
    const created = (p: KubeObject) => api.timeOf(p.metadata.creationTimestamp);
    for (const list of ordered.byNode.values())
      if (list.length > 1) list.sort((a, b) => created(a) - created(b));
    return ordered;
  }

  private manage(
    ds: KubeObject,
    nodes: KubeObject[],
    byNode: Map<string, KubeObject[]>,
    orphans: KubeObject[],
    hash: string,
    verdicts: Verdict[]
  ): void {
    const need: string[] = [];
    const toDelete: KubeObject[] = [...orphans];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const { shouldRun, shouldContinueRunning } = verdicts[i];
      const pods = byNode.get(node.metadata.name) ?? NO_PODS;
      if (shouldRun && !pods.length) need.push(node.metadata.name);
      else if (shouldContinueRunning) {
        const running: KubeObject[] = [];
        for (const p of pods) {
          if (p.metadata.deletionTimestamp) continue;
          if (p.status?.phase === 'Failed') {
            this.sawFailedPod = true;
            // "This is a critical place where DS is often fighting with kubelet that rejects pods."
            const key = `${ds.metadata.uid}/${node.metadata.name}`;
            const now = this.host.now();
            const left = this.failedPodBackoffLeft(key, now);
            if (left > 0) {
              this.host.enqueueAfter(podKey(ds), left);
              continue;
            }
            this.nextFailedPodBackoff(key, now);
            this.event(
              ds,
              'Warning',
              'FailedDaemonPod',
              `Found failed daemon pod ${podKey(p)} on node ${node.metadata.name}, will try to kill it`
            );
            toDelete.push(p);
          } else running.push(p);
        }
        // More than one pod on the node: keep the oldest.
        if (running.length > 1) toDelete.push(...running.slice(1));
      } else {
        toDelete.push(...pods.filter((p) => !p.metadata.deletionTimestamp));
      }
    }
    this.syncNodes(ds, toDelete, need, hash);
  }

  /** Replace pods of an older template, at most maxUnavailable (default 1) unavailable at a time. */
  private rollingUpdate(
    ds: KubeObject,
    nodes: KubeObject[],
    byNode: Map<string, KubeObject[]>,
    hash: string,
    verdicts: Verdict[]
  ): void {
    const api = this.host.cluster.api;
    const now = this.host.now();
    const minReady = (ds.spec?.minReadySeconds as number | undefined) ?? 0;
    const available = (p: KubeObject) => isPodAvailable(p, minReady, now, (t) => api.timeOf(t));
    const eligible = nodes.filter((_, i) => verdicts[i].shouldRun);
    const maxUnavailable = scaledValue(
      ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable,
      eligible.length,
      true,
      '1'
    );
    let unavailable = 0;
    const replace: KubeObject[] = [];
    const candidates: KubeObject[] = [];
    for (const node of eligible) {
      // The node's first pod of the current template and first of another, not counting terminating ones.
      let newPod: KubeObject | undefined;
      let oldPod: KubeObject | undefined;
      for (const p of byNode.get(node.metadata.name) ?? NO_PODS) {
        if (p.metadata.deletionTimestamp) continue;
        if (p.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash) newPod ??= p;
        else oldPod ??= p;
      }
      if ((!newPod && !oldPod) || (newPod && oldPod)) unavailable++;
      else if (newPod) {
        if (!available(newPod)) unavailable++;
      } else if (oldPod) {
        if (!available(oldPod)) replace.push(oldPod);
        else if (unavailable < maxUnavailable) candidates.push(oldPod);
      }
    }
    const remaining = Math.max(0, Math.min(maxUnavailable - unavailable, candidates.length));
    this.syncNodes(ds, [...replace, ...candidates.slice(0, remaining)], [], hash);
  }

  private syncNodes(ds: KubeObject, toDelete: KubeObject[], need: string[], hash: string): void {
    const api = this.host.cluster.api;
    const ctx = this.host.ctx;
    for (const nodeName of need) {
      const pod = podFromTemplate(ds, ds.spec?.template ?? {}, {
        labels: {
          [CONTROLLER_REVISION_HASH]: hash,
          [POD_TEMPLATE_GENERATION]: String(ds.metadata.generation ?? 1)
        }
      });
      addDaemonPodTolerations(pod.spec!);
      const spec = pod.spec as Mutable<KubeObject['spec']>;
      spec.affinity ??= {};
      spec.affinity.nodeAffinity ??= {};
      spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }]
      };
      let created: KubeObject;
      try {
        created = api.create(pod, ctx);
      } catch (err) {
        this.event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        throw err;
      }
      this.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    }
    for (const p of toDelete) {
      try {
        api.delete('Pod', p.metadata.namespace, p.metadata.name, {}, ctx);
      } catch (err) {
        if (!api.tryGet('Pod', p.metadata.namespace, p.metadata.name)) continue;
        this.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorMessage(err)}`);
        throw err;
      }
      this.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`);
    }
  }

  private updateStatus(
    ds: KubeObject,
    nodes: KubeObject[],
    hash: string,
    verdicts: Verdict[],
    read?: Map<string, KubeObject[]>
  ): void {
    const api = this.host.cluster.api;
    const now = this.host.now();
    const minReady = (ds.spec?.minReadySeconds as number | undefined) ?? 0;
    // Each node's pods in creation order (the oldest is the one that counts).
    const podsOn = read ?? this.podsByNode(ds, new Set(nodes.map((n) => n.metadata.name)), false).byNode;
    const c: StatusCounts = { desired: 0, current: 0, misscheduled: 0, ready: 0, available: 0, updated: 0 };
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const { shouldRun } = verdicts[i];
      const onNode = podsOn.get(node.metadata.name) ?? NO_PODS;
      if (shouldRun) {
        c.desired++;
        if (!onNode.length) continue;
        c.current++;
        const p = onNode[0];
        if (isPodReady(p)) {
          c.ready++;
          if (!minReady || isPodAvailable(p, minReady, now, (t) => api.timeOf(t))) c.available++;
        }
        if (p.metadata.labels?.[CONTROLLER_REVISION_HASH] === hash) c.updated++;
      } else if (onNode.length) c.misscheduled++;
    }
    this.writeStatus(ds, c);
  }

  /** The status of these counts, written when it differs from the DaemonSet's. */
  private writeStatus(ds: KubeObject, c: StatusCounts): void {
    const api = this.host.cluster.api;
    const status: Record<string, unknown> = {
      currentNumberScheduled: c.current,
      numberMisscheduled: c.misscheduled,
      desiredNumberScheduled: c.desired,
      numberReady: c.ready,
      observedGeneration: ds.metadata.generation,
      updatedNumberScheduled: c.updated,
      numberAvailable: c.available,
      ...(c.desired - c.available > 0 ? { numberUnavailable: c.desired - c.available } : {})
    };
    if (jsonEqual(status, ds.status ?? {})) return;
    // The API server copies what it keeps of a request: the stored object's own parts will do.
    const cur = api.get<KubeObject>('DaemonSet', ds.metadata.namespace, ds.metadata.name);
    api.update({ ...cur, status }, this.host.ctx, { subresource: 'status' });
  }

  private event(ds: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.host.cluster.recorder.event(ds, type, reason, message, SOURCE, this.host.ctx);
  }
}
