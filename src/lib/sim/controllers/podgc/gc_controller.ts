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

export class PodGCController implements Controller {
  readonly name = 'pod-garbage-collector-controller';
  private s: State = { quarantine: {} };

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    return [];
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

  handle(type: string): void {
    if (type !== 'gc') return;
    this.host.schedule(this.host.cluster.config.controllerManager.podGCPeriod, 'gc');
    const api = this.host.cluster.api;
    const pods = api.list<KubeObject>('Pod');
    const nodes = api.list<KubeObject>('Node');
    this.gcTerminated(pods);
    this.gcTerminating(pods, nodes);
    this.gcOrphaned(pods, nodes);
    this.gcUnscheduledTerminating(pods);
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
    const outOfService = new Set(
      nodes
        .filter(
          (n) =>
            readyCondition(n)?.status !== 'True' &&
            ((n.spec?.taints ?? []) as Taint[]).some(
              (t) => t.key === TAINT_OUT_OF_SERVICE && t.effect === 'NoExecute'
            )
        )
        .map((n) => n.metadata.name)
    );
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
