/**
 * replicaset-controller (pkg/controller/replicaset): keeps `spec.replicas` active pods from the
 * template, deleting the cheapest pods first when there are too many, and reports status.
 */
import type { KubeObject, OwnerReference } from '../../api/types';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
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
import { newTokenBucket, takeToken, tokenWait, type TokenBucketState } from '../util/ratelimit';
import { jsonEqual } from '../util/jsonequal';

const SOURCE = { component: 'replicaset-controller' };
/** BurstReplicas: the most pods created or deleted in one sync. */
const BURST_REPLICAS = 500;

/**
 * What a ReplicaSet's sync reads from its pods, kept as counts from the pod watch (as the
 * informer's cache is kept), so a sync does not walk every pod of a large ReplicaSet. Counted over
 * the pods whose controller is the ReplicaSet, in its namespace, against the selector and template
 * labels they were counted with.
 */
interface OwnedCounts {
  namespace: string | undefined;
  selector: unknown;
  tmplLabels: [string, string][];
  tmplRef: unknown;
  /** Controlled pods whose labels the selector no longer matches (the sync would release them). */
  mismatched: number;
  active: number;
  /** Active pods that carry every template label. */
  fully: number;
  /** Active pods that are Ready. */
  ready: number;
  /** Bumped whenever a pod joins or leaves the counts. */
  version: number;
}

/**
 * A sync that found nothing to write and no client token for the pod it wanted to create: the
 * ReplicaSet object, its counts (and their version) and the orphan pods as that sync read them.
 * A sync that reads the same again, with still no token, can only wait for the token again.
 */
interface WaitingForToken {
  rs: KubeObject;
  counts: OwnedCounts;
  version: number;
  orphans: number;
}

export class ReplicaSetController implements Controller {
  readonly name = 'replicaset-controller';

  /** The controller's own client: pod creates and deletes are throttled to 20 qps, burst 30. */
  private client: TokenBucketState = newTokenBucket();
  /** By ReplicaSet uid; derived from API objects (rebuilt after a restore), not snapshot state. */
  private counts = new Map<string, OwnedCounts>();
  /** By ReplicaSet key: the last sync, when it ended waiting for a token (derived, not state). */
  private waiting = new Map<string, WaitingForToken>();
  /** Bumped by every watch event of a pod without a controller (a pod a ReplicaSet may adopt). */
  private orphanEvents = 0;
  /** Set by `throttled` when a sync runs out of tokens. */
  private wasThrottled = false;

  constructor(private host: ControllerHost) {}

  getState(): TokenBucketState {
    return { ...this.client };
  }

  setState(s: unknown): void {
    this.client = s ? { ...(s as TokenBucketState) } : newTokenBucket(this.host.now());
    this.waiting.clear();
  }

  /** Take a client token; without one, sync the ReplicaSet again when the next token is due. */
  private throttled(rs: KubeObject): boolean {
    const wait = takeToken(this.client, this.host.now());
    if (wait > 0) {
      this.host.enqueueAfter(podKey(rs), wait);
      this.wasThrottled = true;
    }
    return wait > 0;
  }

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    const enqueueOwner = (ref: OwnerReference | undefined, ns: string | undefined) => {
      if (ref?.kind === 'ReplicaSet') this.host.enqueue(`${ns ?? 'default'}/${ref.name}`);
    };
    return [
      api.watch('ReplicaSet', (type, rs) => {
        // The stored object is another one now (or none): a waiting sync must read it again.
        this.waiting.delete(podKey(rs));
        if (type !== 'DELETED') this.host.enqueue(podKey(rs));
        else this.counts.delete(rs.metadata.uid!);
      }),
      api.watch('Pod', (type, pod, old) => {
        if (!controllerRef(pod) || (old && !controllerRef(old))) this.orphanEvents++;
        const gone = type === 'DELETED' ? (old ?? pod) : old;
        if (gone) this.count(gone, -1);
        if (type !== 'DELETED') this.count(pod, 1);
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
    // A ReplicaSet waiting for a token is looked at before it is read: `waiting` holds the stored
    // object while it is one (the ReplicaSet watch forgets the entry on every event of it).
    const w = this.waiting.get(key);
    if (w && this.stillWaiting(key, w)) return;
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    const rs = api.tryGet<KubeObject>('ReplicaSet', ns, name);
    if (!rs) {
      this.waiting.delete(key);
      return;
    }
    if (this.syncFromCounts(key, rs)) return;
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
    this.updateStatus(
      rs,
      statusCounts(rs, active, this.host.now(), (t) => api.timeOf(t)),
      manageErr
    );
    if (manageErr) throw manageErr;
  }

  /**
   * The sync from the pod counts, when it reads nothing else from the pods: nothing to adopt or
   * release, no pod to choose for deletion, availability without minReadySeconds. Returns false
   * when the sync must read the pods themselves.
   */
  private syncFromCounts(key: string, rs: KubeObject): boolean {
    this.waiting.delete(key);
    if (rs.metadata.deletionTimestamp || rs.spec?.minReadySeconds) return false;
    const c = this.ownedCounts(rs);
    const version = c.version;
    if (c.mismatched || c.active > ((rs.spec?.replicas as number | undefined) ?? 1)) return false;
    const api = this.host.cluster.api;
    for (const p of api.listByController<KubeObject>('Pod', '', rs.metadata.namespace))
      if (!p.metadata.deletionTimestamp && matchLabelSelector(rs.spec?.selector, p.metadata.labels))
        return false;
    // The counts as the sync read them: the pods it creates now are not in this status.
    const counts = { replicas: c.active, fully: c.fully, ready: c.ready, available: c.ready };
    let manageErr: unknown;
    this.wasThrottled = false;
    try {
      this.manageReplicas(rs, [], [], c.active);
    } catch (err) {
      manageErr = err;
    }
    const wrote = this.updateStatus(rs, counts, manageErr);
    if (manageErr) throw manageErr;
    // Kept only while `rs` is the stored object (no event of it came during the sync).
    if (
      this.wasThrottled &&
      !wrote &&
      c.version === version &&
      api.tryGet('ReplicaSet', rs.metadata.namespace, rs.metadata.name) === rs
    )
      this.waiting.set(key, { rs, counts: c, version, orphans: this.orphanEvents });
    return true;
  }

  /**
   * The sync of a ReplicaSet whose last sync read the same object, pods and orphans, wrote nothing
   * and found no token for the pod it wanted to create, while there is still no token: all that
   * sync would do again is wait for the next token (the status it would write is the one stored).
   * The bucket is refilled at the same instants as the sync would refill it, so the tokens come
   * due at the same times.
   */
  private stillWaiting(key: string, w: WaitingForToken): boolean {
    if (
      w.orphans !== this.orphanEvents ||
      w.version !== w.counts.version ||
      this.counts.get(w.rs.metadata.uid!) !== w.counts
    )
      return false;
    const wait = tokenWait(this.client, this.host.now());
    if (wait === 0) return false;
    this.host.enqueueAfter(key, wait);
    return true;
  }

  /** The counts of `rs`'s pods, counted now if they were not kept or were counted for another selector. */
  private ownedCounts(rs: KubeObject): OwnedCounts {
    const uid = rs.metadata.uid!;
    const tmplRef = rs.spec?.template?.metadata?.labels;
    let c = this.counts.get(uid);
    if (c && c.selector === rs.spec?.selector && c.tmplRef === tmplRef) return c;
    c = {
      namespace: rs.metadata.namespace,
      selector: rs.spec?.selector,
      tmplLabels: Object.entries((tmplRef ?? {}) as Record<string, string>),
      tmplRef,
      mismatched: 0,
      active: 0,
      fully: 0,
      ready: 0,
      version: 0
    };
    this.counts.set(uid, c);
    for (const p of this.host.cluster.api.listByController<KubeObject>('Pod', uid, rs.metadata.namespace))
      this.add(c, p, 1);
    return c;
  }

  /** A pod joins (1) or leaves (-1) the counts of the ReplicaSet that controls it. */
  private count(pod: KubeObject, sign: 1 | -1): void {
    const uid = controllerRef(pod)?.uid;
    const c = uid === undefined ? undefined : this.counts.get(uid);
    if (c && pod.metadata.namespace === c.namespace) this.add(c, pod, sign);
  }

  private add(c: OwnedCounts, p: KubeObject, sign: 1 | -1): void {
    c.version++;
    if (!matchLabelSelector(c.selector as LabelSelector | undefined, p.metadata.labels)) c.mismatched += sign;
    if (!isPodActive(p)) return;
    c.active += sign;
    const labels = p.metadata.labels;
    if (c.tmplLabels.every(([k, v]) => labels?.[k] === v)) c.fully += sign;
    if (isPodReady(p)) c.ready += sign;
  }

  /** The kept counts that differ from a count of the pods now (none when the watch kept them right). */
  countsDrift(): string[] {
    const out: string[] = [];
    for (const [uid, kept] of this.counts) {
      const fresh = { ...kept, mismatched: 0, active: 0, fully: 0, ready: 0, version: 0 };
      for (const p of this.host.cluster.api.listByController<KubeObject>('Pod', uid, kept.namespace))
        this.add(fresh, p, 1);
      for (const k of ['mismatched', 'active', 'fully', 'ready'] as const)
        if (fresh[k] !== kept[k]) out.push(`${uid} ${k}: kept ${kept[k]}, counted ${fresh[k]}`);
    }
    return out;
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

  private manageReplicas(
    rs: KubeObject,
    active: KubeObject[],
    owned: KubeObject[],
    activeCount = active.length
  ): void {
    const api = this.host.cluster.api;
    const recorder = this.host.cluster.recorder;
    const want = (rs.spec?.replicas as number | undefined) ?? 1;
    let diff = activeCount - want;
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

  /** Write the status when it differs from the stored one; returns whether it wrote. */
  private updateStatus(rs: KubeObject, counts: StatusCounts, manageErr: unknown): boolean {
    const api = this.host.cluster.api;
    const minReady = (rs.spec?.minReadySeconds as number | undefined) ?? 0;
    const { fully, ready, available } = counts;
    const status: Record<string, unknown> = {
      replicas: counts.replicas,
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
        counts.replicas < ((rs.spec?.replicas as number | undefined) ?? 1) ? 'FailedCreate' : 'FailedDelete';
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
    if (jsonEqual(status, rs.status ?? {})) return false;
    // The API server copies what it keeps of a request: the stored object's own parts will do,
    // and the status, built for this write, is handed over.
    api.update({ ...rs, status }, this.host.ctx, { subresource: 'status', handOver: true });
    if (minReady > 0 && ready !== available) this.host.schedule(minReady * 1000, 'requeue', podKey(rs));
    return true;
  }
}

interface StatusCounts {
  replicas: number;
  fully: number;
  ready: number;
  available: number;
}

/** calculateStatus's counts over the active pods. */
function statusCounts(
  rs: KubeObject,
  active: KubeObject[],
  now: number,
  timeOf: (ts: string) => number
): StatusCounts {
  const minReady = (rs.spec?.minReadySeconds as number | undefined) ?? 0;
  const tmplLabels = (rs.spec?.template?.metadata?.labels ?? {}) as Record<string, string>;
  let fully = 0;
  let ready = 0;
  let available = 0;
  for (const p of active) {
    if (Object.entries(tmplLabels).every(([k, v]) => p.metadata.labels?.[k] === v)) fully++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now, timeOf)) available++;
    }
  }
  return { replicas: active.length, fully, ready, available };
}
