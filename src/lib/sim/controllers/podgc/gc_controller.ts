/**
 * pod-garbage-collector (pkg/controller/podgc/gc_controller.go): every 20 s it force-deletes pods
 * bound to nodes that are gone (after a 40 s quarantine), terminated pods above the threshold,
 * unscheduled terminating pods, and terminating pods on out-of-service nodes.
 */
import type { KubeObject, Taint } from '../../api/types';
import { clone } from '../../api/types';
import type { Controller, ControllerHost } from '../controller';
import { isPodTerminated, podKey, updatePodCondition } from '../util/pods';
import { TAINT_OUT_OF_SERVICE } from '../../api/corev1/taints';
import { readyCondition } from '../nodelifecycle/node_health';

interface State {
  /** Nodes seen missing while pods are still bound to them: name → first seen (ms). */
  quarantine: Record<string, number>;
}

/**
 * What a pass needs to know about the pods without listing them, kept up to date by the Pod
 * watch as an informer's indexer is (derived from the API server's objects, so not state: it is
 * rebuilt from a list when the controller starts, and a restored cluster rebuilds it too).
 */
interface PodIndex {
  /** Pods in phase Succeeded or Failed. */
  terminated: number;
  /** Pods with a deletionTimestamp, by namespace/name. */
  terminating: Map<string, KubeObject>;
  /** Pods bound to each node name (only names with pods). */
  onNode: Map<string, number>;
}

export class PodGCController implements Controller {
  readonly name = 'pod-garbage-collector-controller';
  private s: State = { quarantine: {} };
  private index: PodIndex = { terminated: 0, terminating: new Map(), onNode: new Map() };

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    this.index = { terminated: 0, terminating: new Map(), onNode: new Map() };
    for (const p of api.list<KubeObject>('Pod')) this.indexPod(p, 1);
    return [
      api.watch('Pod', (type, pod, old) => {
        if (type !== 'ADDED' && old) this.indexPod(old, -1);
        if (type !== 'DELETED') this.indexPod(pod, 1);
      })
    ];
  }

  private indexPod(p: KubeObject, d: 1 | -1): void {
    const idx = this.index;
    if (isPodTerminated(p)) idx.terminated += d;
    if (p.metadata.deletionTimestamp) {
      if (d > 0) idx.terminating.set(podKey(p), p);
      else idx.terminating.delete(podKey(p));
    }
    const n = p.spec?.nodeName as string | undefined;
    if (n) {
      const count = (idx.onNode.get(n) ?? 0) + d;
      if (count > 0) idx.onNode.set(n, count);
      else idx.onNode.delete(n);
    }
  }

  start(): void {
    this.host.schedule(0, 'gc');
  }

  getState(): unknown {
    return this.s;
  }

  setState(s: unknown): void {
    this.s = s as State;
  }

  /**
   * gc, every --pod-gc period (20 s). Upstream lists every pod from its informer each period; the
   * index says first whether any of the four collections has a pod to delete. Only then is the
   * list taken (at the start of the pass, as upstream's) and walked in the API server's order,
   * so what is deleted, in which order, and what is logged are the same; a pass that deletes
   * nothing costs in proportion to the terminating pods and the nodes with pods, not to all pods.
   */
  handle(type: string): void {
    if (type !== 'gc') return;
    this.host.schedule(this.host.cluster.config.controllerManager.podGCPeriod, 'gc');
    if (!this.mayDelete()) {
      this.trackOrphans();
      return;
    }
    const api = this.host.cluster.api;
    const pods = api.list<KubeObject>('Pod');
    const nodes = api.list<KubeObject>('Node');
    this.gcTerminated(pods);
    this.gcTerminating(pods, nodes);
    this.gcOrphaned(pods, nodes);
    this.gcUnscheduledTerminating(pods);
  }

  /** Whether this pass's gcTerminated, gcTerminating, gcOrphaned or gcUnscheduledTerminating deletes a pod. */
  private mayDelete(): boolean {
    const api = this.host.cluster.api;
    const cfg = this.host.cluster.config.controllerManager;
    const idx = this.index;
    if (cfg.terminatedPodGCThreshold > 0 && idx.terminated > cfg.terminatedPodGCThreshold) return true;
    for (const p of idx.terminating.values()) {
      const n = p.spec?.nodeName as string | undefined;
      if (!n) return true;
      const node = api.tryGet<KubeObject>('Node', undefined, n);
      if (node && isOutOfService(node)) return true;
    }
    const now = this.host.now();
    for (const n of idx.onNode.keys()) {
      if (api.tryGet('Node', undefined, n)) continue;
      // A node first seen missing now is quarantined from now on.
      const since = this.s.quarantine[n] ?? now;
      if (now >= since + cfg.podGCQuarantine) return true;
    }
    return false;
  }

  /**
   * gcOrphaned's bookkeeping on a pass that deletes nothing: nodes missing with pods on them enter
   * quarantine; quarantines that ended leave it (their nodes came back or lost their pods).
   */
  private trackOrphans(): void {
    const api = this.host.cluster.api;
    const now = this.host.now();
    const quarantine = this.host.cluster.config.controllerManager.podGCQuarantine;
    for (const n of this.index.onNode.keys()) {
      if (this.s.quarantine[n] === undefined && !api.tryGet('Node', undefined, n)) this.s.quarantine[n] = now;
    }
    for (const n in this.s.quarantine) {
      if (now >= this.s.quarantine[n] + quarantine) delete this.s.quarantine[n];
    }
  }

  private gcTerminated(pods: KubeObject[]): void {
    const threshold = this.host.cluster.config.controllerManager.terminatedPodGCThreshold;
    if (threshold <= 0) return;
    const terminated = pods.filter(isPodTerminated);
    const n = terminated.length - threshold;
    if (n <= 0) return;
    const api = this.host.cluster.api;
    // byEvictionAndCreationTimestamp: evicted pods first, then the oldest.
    terminated.sort((a, b) => {
      const ea = a.status?.reason === 'Evicted' ? 0 : 1;
      const eb = b.status?.reason === 'Evicted' ? 0 : 1;
      return ea - eb || api.timeOf(a.metadata.creationTimestamp) - api.timeOf(b.metadata.creationTimestamp);
    });
    for (const p of terminated.slice(0, n)) this.markFailedAndDelete(p);
  }

  private gcTerminating(pods: KubeObject[], nodes: KubeObject[]): void {
    const outOfService = new Set(nodes.filter(isOutOfService).map((n) => n.metadata.name));
    if (!outOfService.size) return;
    for (const p of pods) {
      if (p.metadata.deletionTimestamp && outOfService.has(p.spec?.nodeName)) this.markFailedAndDelete(p);
    }
  }

  private gcOrphaned(pods: KubeObject[], nodes: KubeObject[]): void {
    const api = this.host.cluster.api;
    const now = this.host.now();
    const quarantine = this.host.cluster.config.controllerManager.podGCQuarantine;
    const existing = new Set(nodes.map((n) => n.metadata.name));
    for (const p of pods) {
      const n = p.spec?.nodeName as string | undefined;
      if (n && !existing.has(n) && this.s.quarantine[n] === undefined) this.s.quarantine[n] = now;
    }
    const deleted = new Set<string>();
    for (const [n, since] of Object.entries(this.s.quarantine)) {
      if (now < since + quarantine) continue;
      delete this.s.quarantine[n];
      // checkIfNodeExists asks the API server, not the informer cache.
      if (!existing.has(n) && !api.tryGet('Node', undefined, n)) deleted.add(n);
    }
    for (const p of pods) {
      if (!deleted.has(p.spec?.nodeName)) continue;
      this.markFailedAndDelete(p, {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByPodGC',
        message: 'PodGC: node no longer exists'
      });
    }
  }

  private gcUnscheduledTerminating(pods: KubeObject[]): void {
    for (const p of pods) if (p.metadata.deletionTimestamp && !p.spec?.nodeName) this.markFailedAndDelete(p);
  }

  /** markFailedAndDeletePodWithCondition: phase Failed (+ condition) unless terminal, then force delete. */
  private markFailedAndDelete(
    pod: KubeObject,
    condition?: { type: string; status: 'True'; reason: string; message: string }
  ): void {
    const api = this.host.cluster.api;
    try {
      if (!isPodTerminated(pod)) {
        const upd = clone(pod);
        upd.status ??= {};
        upd.status.phase = 'Failed';
        if (condition) updatePodCondition(upd.status, condition, api.timestamp());
        api.update(upd, this.host.ctx, { subresource: 'status' });
      }
      api.delete('Pod', pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0 }, this.host.ctx);
    } catch (err) {
      // The next gc pass finds the pod again.
      this.host.logError(`failed to delete pod ${podKey(pod)}`, err);
    }
  }
}

/** Not Ready, with node.kubernetes.io/out-of-service:NoExecute: its terminating pods are force-deleted. */
function isOutOfService(n: KubeObject): boolean {
  return (
    readyCondition(n)?.status !== 'True' &&
    ((n.spec?.taints ?? []) as Taint[]).some(
      (t) => t.key === TAINT_OUT_OF_SERVICE && t.effect === 'NoExecute'
    )
  );
}
