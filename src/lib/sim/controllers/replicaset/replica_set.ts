/**
 * replicaset-controller (pkg/controller/replicaset): keeps `spec.replicas` active pods from the
 * template, deleting the cheapest pods first when there are too many, and reports status.
 */
import type { KubeObject, OwnerReference } from '../../api/types';
import { clone } from '../../api/types';
import { errorMessage, type Controller, type ControllerHost } from '../controller';
import { matchLabelSelector } from '../../api/selectors';
import {
  controllerRef,
  isPodActive,
  isPodAvailable,
  isPodReady,
  newControllerRef,
  podKey,
  splitKey
} from '../util/pods';
import { podFromTemplate } from '../util/podtemplate';
import { compareForDeletion } from './ranking';
import { newTokenBucket, takeToken, type TokenBucketState } from '../util/ratelimit';

const SOURCE = { component: 'replicaset-controller' };
/** BurstReplicas: the most pods created or deleted in one sync. */
const BURST_REPLICAS = 500;

export class ReplicaSetController implements Controller {
  readonly name = 'replicaset-controller';

  /** The controller's own client: pod creates and deletes are throttled to 20 qps, burst 30. */
  private client: TokenBucketState = newTokenBucket();

  constructor(private host: ControllerHost) {}

  getState(): TokenBucketState {
    return { ...this.client };
  }

  setState(s: unknown): void {
    this.client = s ? { ...(s as TokenBucketState) } : newTokenBucket(this.host.now());
  }

  /** Take a client token; without one, sync the ReplicaSet again when the next token is due. */
  private throttled(rs: KubeObject): boolean {
    const wait = takeToken(this.client, this.host.now());
    if (wait > 0) this.host.schedule(wait, 'requeue', podKey(rs));
    return wait > 0;
  }

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    const enqueueOwner = (ref: OwnerReference | undefined, ns: string | undefined) => {
      if (ref?.kind === 'ReplicaSet') this.host.enqueue(`${ns ?? 'default'}/${ref.name}`);
    };
    return [
      api.watch('ReplicaSet', (type, rs) => {
        if (type !== 'DELETED') this.host.enqueue(podKey(rs));
      }),
      api.watch('Pod', (type, pod, old) => {
        const ref = controllerRef(pod);
        enqueueOwner(ref, pod.metadata.namespace);
        // An orphan may be adopted by every ReplicaSet whose selector matches it.
        if (!ref && type !== 'DELETED') {
          for (const rs of api.list<KubeObject>('ReplicaSet', { namespace: pod.metadata.namespace })) {
            if (matchLabelSelector(rs.spec?.selector, pod.metadata.labels)) this.host.enqueue(podKey(rs));
          }
        }
        if (old && controllerRef(old)?.uid !== controllerRef(pod)?.uid) {
          enqueueOwner(controllerRef(old), old.metadata.namespace);
        }
      })
    ];
  }

  resyncKeys(): string[] {
    return this.host.cluster.api.list('ReplicaSet').map(podKey);
  }

  sync(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    const rs = api.tryGet<KubeObject>('ReplicaSet', ns, name);
    if (!rs) return;
    const owned = this.claimPods(rs);
    const active = owned.filter(isPodActive);
    let manageErr: unknown;
    if (!rs.metadata.deletionTimestamp) {
      try {
        this.manageReplicas(rs, active, owned);
      } catch (err) {
        manageErr = err;
      }
    }
    this.updateStatus(rs, active, manageErr);
    if (manageErr) throw manageErr;
  }

  /**
   * ClaimPods (PodControllerRefManager): adopt orphans the selector matches, release owned pods it
   * no longer matches, ignore pods another controller owns.
   */
  private claimPods(rs: KubeObject): KubeObject[] {
    const api = this.host.cluster.api;
    const owned: KubeObject[] = [];
    const ns = rs.metadata.namespace;
    // The pods this ReplicaSet controls, plus the orphans it may adopt (owner index, not a full list).
    const candidates = [
      ...api.listByController<KubeObject>('Pod', rs.metadata.uid!, ns),
      ...api.listByController<KubeObject>('Pod', '', ns)
    ];
    for (const p of candidates) {
      const ref = controllerRef(p);
      const matches = matchLabelSelector(rs.spec?.selector, p.metadata.labels);
      if (ref) {
        if (ref.uid !== rs.metadata.uid) continue;
        if (matches || rs.metadata.deletionTimestamp) {
          owned.push(p);
          continue;
        }
        const refs = (p.metadata.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata.uid);
        api.patch(
          'Pod',
          ns,
          p.metadata.name,
          { metadata: { ownerReferences: refs.length ? refs : null } },
          this.host.ctx
        );
        continue;
      }
      if (!matches || rs.metadata.deletionTimestamp || p.metadata.deletionTimestamp) continue;
      const refs = [...(p.metadata.ownerReferences ?? []), newControllerRef(rs)];
      owned.push(
        api.patch('Pod', ns, p.metadata.name, { metadata: { ownerReferences: refs } }, this.host.ctx)
      );
    }
    return owned;
  }

  private manageReplicas(rs: KubeObject, active: KubeObject[], owned: KubeObject[]): void {
    const api = this.host.cluster.api;
    const recorder = this.host.cluster.recorder;
    const want = (rs.spec?.replicas as number | undefined) ?? 1;
    let diff = active.length - want;
    if (diff < 0) {
      diff = Math.min(-diff, BURST_REPLICAS);
      for (let i = 0; i < diff; i++) {
        if (this.throttled(rs)) return;
        const pod = podFromTemplate(rs, rs.spec.template ?? {});
        let created: KubeObject;
        try {
          created = api.create(pod, this.host.ctx);
        } catch (err) {
          recorder.event(
            rs,
            'Warning',
            'FailedCreate',
            `Error creating: ${errorMessage(err)}`,
            SOURCE,
            this.host.ctx
          );
          throw err;
        }
        recorder.event(
          rs,
          'Normal',
          'SuccessfulCreate',
          `Created pod: ${created.metadata.name}`,
          SOURCE,
          this.host.ctx
        );
      }
    } else if (diff > 0) {
      diff = Math.min(diff, BURST_REPLICAS);
      const onNode: Record<string, number> = {};
      for (const p of owned)
        if (isPodActive(p) && p.spec?.nodeName) onNode[p.spec.nodeName] = (onNode[p.spec.nodeName] ?? 0) + 1;
      const now = this.host.now();
      const ranked = active
        .map((pod) => ({ pod, rank: pod.spec?.nodeName ? onNode[pod.spec.nodeName] : 0 }))
        .sort((a, b) => compareForDeletion(a, b, now, (t) => api.timeOf(t)));
      for (const { pod } of ranked.slice(0, diff)) {
        if (this.throttled(rs)) return;
        try {
          api.delete('Pod', pod.metadata.namespace, pod.metadata.name, {}, this.host.ctx);
        } catch (err) {
          if (!api.tryGet('Pod', pod.metadata.namespace, pod.metadata.name)) continue;
          recorder.event(
            rs,
            'Warning',
            'FailedDelete',
            `Error deleting: ${errorMessage(err)}`,
            SOURCE,
            this.host.ctx
          );
          throw err;
        }
        recorder.event(
          rs,
          'Normal',
          'SuccessfulDelete',
          `Deleted pod: ${pod.metadata.name}`,
          SOURCE,
          this.host.ctx
        );
      }
    }
  }

  private updateStatus(rs: KubeObject, active: KubeObject[], manageErr: unknown): void {
    const api = this.host.cluster.api;
    const now = this.host.now();
    const minReady = (rs.spec?.minReadySeconds as number | undefined) ?? 0;
    const tmplLabels = (rs.spec?.template?.metadata?.labels ?? {}) as Record<string, string>;
    let fully = 0;
    let ready = 0;
    let available = 0;
    for (const p of active) {
      if (Object.entries(tmplLabels).every(([k, v]) => p.metadata.labels?.[k] === v)) fully++;
      if (isPodReady(p)) {
        ready++;
        if (isPodAvailable(p, minReady, now, (t) => api.timeOf(t))) available++;
      }
    }
    const status: Record<string, unknown> = {
      replicas: active.length,
      fullyLabeledReplicas: fully,
      readyReplicas: ready,
      availableReplicas: available,
      observedGeneration: rs.metadata.generation
    };
    const conds = ((rs.status?.conditions ?? []) as { type: string }[]).filter(
      (c) => c.type !== 'ReplicaFailure'
    );
    const hadFailure = (rs.status?.conditions ?? []).some(
      (c: { type: string }) => c.type === 'ReplicaFailure'
    );
    if (manageErr && !hadFailure) {
      const reason =
        active.length < ((rs.spec?.replicas as number | undefined) ?? 1) ? 'FailedCreate' : 'FailedDelete';
      conds.push({
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: api.timestamp(),
        reason,
        message: errorMessage(manageErr)
      } as { type: string });
    } else if (manageErr && hadFailure) {
      conds.push(...(rs.status.conditions as { type: string }[]).filter((c) => c.type === 'ReplicaFailure'));
    }
    if (conds.length) status.conditions = conds;
    if (JSON.stringify(status) === JSON.stringify(rs.status ?? {})) return;
    const upd = clone(rs);
    upd.status = status;
    api.update(upd, this.host.ctx, { subresource: 'status' });
    if (minReady > 0 && ready !== available) this.host.schedule(minReady * 1000, 'requeue', podKey(rs));
  }
}
