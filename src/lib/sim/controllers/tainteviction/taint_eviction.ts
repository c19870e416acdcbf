/**
 * taint-eviction-controller (pkg/controller/tainteviction/taint_eviction.go): deletes pods from
 * nodes with NoExecute taints. An untolerated taint means delete now; otherwise the pod goes after
 * the smallest tolerationSeconds among the tolerations it uses (none = stays forever). Removing the
 * taint cancels the pending deletion.
 */
import type { KubeObject, Taint, Toleration } from '../../api/types';
import { clone } from '../../api/types';
import { isApiError } from '../../api/errors';
import type { Controller, ControllerHost } from '../controller';
import { backoffDelay } from '../controller';
import { podKey, splitKey, updatePodCondition } from '../util/pods';
import { getMatchingTolerations } from '../../api/corev1/taints';

const SOURCE = { component: 'taint-eviction-controller' };
/** Attempts per firing to patch and delete the pod (retries = 5 upstream). */
const DELETE_RETRIES = 5;

interface Worker {
  id: number;
  createdAt: number;
  fireAt: number;
  /** Fired successfully: kept so the pod is not queued again, as the upstream TimedWorkerQueue does. */
  done: boolean;
  failures: number;
}

interface State {
  workers: Record<string, Worker>;
  nextId: number;
}

function noExecuteTaints(node: KubeObject | undefined): Taint[] {
  return ((node?.spec?.taints ?? []) as Taint[]).filter((t) => t.effect === 'NoExecute');
}

/** getMinTolerationTime in ms: -1 means tolerated forever. */
export function minTolerationTime(used: Toleration[]): number {
  if (!used.length) return 0;
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export class TaintEvictionController implements Controller {
  readonly name = 'taint-eviction-controller';
  private s: State = { workers: {}, nextId: 1 };

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    return [
      api.watch('Pod', (type, pod, old) => {
        if (pod.spec?.nodeName || old?.spec?.nodeName || type === 'DELETED')
          this.host.enqueue(`pod:${podKey(pod)}`);
      }),
      api.watch('Node', (type, node, old) => {
        if (type === 'DELETED') return;
        // A write that leaves spec.taints alone keeps the stored (frozen, shared) array.
        if (type !== 'ADDED' && node.spec?.taints === old?.spec?.taints) return;
        const before = JSON.stringify(noExecuteTaints(old));
        if (type === 'ADDED' || before !== JSON.stringify(noExecuteTaints(node))) {
          this.host.enqueue(`node:${node.metadata.name}`);
        }
      })
    ];
  }

  start(): void {}

  resyncKeys(): string[] {
    return this.host.cluster.api
      .list('Node')
      .filter((n) => noExecuteTaints(n).length)
      .map((n) => `node:${n.metadata.name}`);
  }

  /** Pending deletions: pod key → virtual time it fires. */
  scheduledEvictions(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, w] of Object.entries(this.s.workers)) if (!w.done) out[k] = w.fireAt;
    return out;
  }

  getState(): unknown {
    return this.s;
  }

  setState(s: unknown): void {
    this.s = s as State;
  }

  sync(key: string): void {
    const api = this.host.cluster.api;
    if (key.startsWith('node:')) {
      const nodeName = key.slice(5);
      const node = api.tryGet<KubeObject>('Node', undefined, nodeName);
      if (!node) return;
      const taints = noExecuteTaints(node);
      for (const pod of api.podsOnNode<KubeObject>(nodeName)) {
        if (!taints.length) this.cancelWorkWithEvent(podKey(pod));
        else this.processPodOnNode(pod, taints);
      }
      return;
    }
    const [ns, name] = splitKey(key.slice(4));
    const pod = api.tryGet<KubeObject>('Pod', ns, name);
    if (!pod) {
      this.cancelWorkWithEvent(key.slice(4));
      return;
    }
    const nodeName = pod.spec?.nodeName as string | undefined;
    if (!nodeName) return;
    const taints = noExecuteTaints(api.tryGet<KubeObject>('Node', undefined, nodeName));
    if (!taints.length) return;
    this.processPodOnNode(pod, taints);
  }

  handle(type: string, data: unknown): void {
    if (type !== 'evict') return;
    const { key, id } = data as { key: string; id: number };
    const w = this.s.workers[key];
    if (!w || w.id !== id || w.done) return;
    this.emit(key, 'Marking for deletion Pod');
    let lastErr: unknown;
    for (let i = 0; i < DELETE_RETRIES; i++) {
      try {
        this.addConditionAndDeletePod(key);
        w.done = true;
        return;
      } catch (err) {
        lastErr = err;
        if (isApiError(err, 'NotFound')) break;
      }
    }
    this.host.logError(`failed to delete pod ${key} for NoExecute taint`, lastErr);
    if (isApiError(lastErr, 'NotFound')) {
      delete this.s.workers[key];
      return;
    }
    // Try again after a backoff; the deletion time already passed, so the pod stays due.
    w.fireAt = this.host.now() + backoffDelay(++w.failures + 6);
    this.host.scheduleAt(w.fireAt, 'evict', { key, id });
  }

  private processPodOnNode(pod: KubeObject, taints: Taint[]): void {
    // A terminating pod is already on its way out; deleting it again would change nothing.
    if (pod.metadata.deletionTimestamp) return;
    const key = podKey(pod);
    const { allTolerated, used } = getMatchingTolerations(taints, pod.spec?.tolerations as Toleration[]);
    const now = this.host.now();
    if (!allTolerated) {
      this.cancelWorkWithEvent(key);
      this.addWork(key, now, now);
      return;
    }
    const min = minTolerationTime(used);
    if (min < 0) {
      this.cancelWorkWithEvent(key);
      return;
    }
    let startTime = now;
    const trigger = now + min;
    const existing = this.s.workers[key];
    if (existing && !existing.done) {
      startTime = existing.createdAt;
      // Upstream compares with Before on a wall clock where some time always passed since the
      // work was queued; at the same virtual instant the pending deletion stands as well.
      if (startTime + min <= trigger) return;
      this.cancelWorkWithEvent(key);
    }
    this.addWork(key, startTime, startTime + min);
  }

  private addWork(key: string, createdAt: number, fireAt: number): void {
    if (this.s.workers[key]) return;
    const id = this.s.nextId++;
    this.s.workers[key] = { id, createdAt, fireAt, done: false, failures: 0 };
    this.host.scheduleAt(Math.max(fireAt, this.host.now()), 'evict', { key, id });
  }

  private cancelWorkWithEvent(key: string): void {
    if (!this.s.workers[key]) return;
    delete this.s.workers[key];
    this.emit(key, 'Cancelling deletion of Pod');
  }

  private emit(key: string, what: string): void {
    const [namespace, name] = splitKey(key);
    this.host.cluster.recorder.event(
      { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } },
      'Normal',
      'TaintManagerEviction',
      `${what} ${key}`,
      SOURCE,
      this.host.ctx
    );
  }

  /** Condition DisruptionTarget first (status patch), then the graceful delete. */
  private addConditionAndDeletePod(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    const pod = api.get<KubeObject>('Pod', ns, name);
    const upd = clone(pod);
    upd.status ??= {};
    const changed = updatePodCondition(
      upd.status,
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint'
      },
      api.timestamp()
    );
    if (changed) api.update(upd, this.host.ctx, { subresource: 'status' });
    api.delete('Pod', ns, name, {}, this.host.ctx);
  }
}
