/**
 * deployment-controller (pkg/controller/deployment): owns ReplicaSets named
 * `<deployment>-<pod-template-hash>`, rolls between them with the RollingUpdate (maxSurge /
 * maxUnavailable) or Recreate strategy, keeps revision history, and reports status conditions.
 */
import type { KubeObject } from '../../api/types';
import { clone } from '../../api/types';
import { isApiError } from '../../api/errors';
import { errorMessage, type Controller, type ControllerHost } from '../controller';
import { controllerRef, podKey, splitKey } from '../util/pods';
import {
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  POD_TEMPLATE_HASH,
  REVISION,
  isRollingUpdate,
  maxRevision,
  maxSurge,
  maxUnavailable,
  podTemplateHash,
  replicasOf,
  revisionOf,
  setNewReplicaSetAnnotations,
  templateIgnoringHash
} from './util';
import { syncRolloutStatus, type StatusWriter } from './progress';

const SOURCE = { component: 'deployment-controller' };
/** Defaults the API server applies (apps/v1 SetDefaults_Deployment). */
const DEFAULT_REVISION_HISTORY_LIMIT = 10;

export class DeploymentController implements Controller {
  readonly name = 'deployment-controller';

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    const enqueueDeploymentOf = (rs: KubeObject | undefined) => {
      const ref = rs && controllerRef(rs);
      if (ref?.kind === 'Deployment') this.host.enqueue(`${rs!.metadata.namespace}/${ref.name}`);
    };
    return [
      api.watch('Deployment', (type, d) => {
        if (type !== 'DELETED') this.host.enqueue(podKey(d));
      }),
      api.watch('ReplicaSet', (_type, rs) => enqueueDeploymentOf(rs)),
      api.watch('Pod', (type, pod) => {
        // Recreate waits for the old pods to be gone.
        if (type !== 'DELETED') return;
        const ref = controllerRef(pod);
        if (ref?.kind !== 'ReplicaSet') return;
        enqueueDeploymentOf(api.tryGet<KubeObject>('ReplicaSet', pod.metadata.namespace, ref.name));
      })
    ];
  }

  start(): void {}

  resyncKeys(): string[] {
    return this.host.cluster.api.list('Deployment').map(podKey);
  }

  getState(): unknown {
    return {};
  }

  setState(): void {}

  sync(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    let d = api.tryGet<KubeObject>('Deployment', ns, name);
    if (!d) return;
    const rsList = api
      .list<KubeObject>('ReplicaSet', { namespace: ns })
      .filter((rs) => controllerRef(rs)?.uid === d!.metadata.uid)
      .sort((a, b) => api.timeOf(a.metadata.creationTimestamp) - api.timeOf(b.metadata.creationTimestamp));
    const writer = this.statusWriter();
    if (d.metadata.deletionTimestamp || d.spec?.paused) {
      const { newRS } = this.getAllReplicaSets(d, rsList, false);
      if (d.spec?.paused && !d.metadata.deletionTimestamp && this.isScalingEvent(d, rsList)) {
        this.scale(
          d,
          newRS,
          rsList.filter((rs) => rs !== newRS)
        );
      }
      syncRolloutStatus(this.host, d, rsList, newRS, writer);
      return;
    }
    if (this.isScalingEvent(d, rsList)) {
      const { newRS, oldRSs } = this.getAllReplicaSets(d, rsList, false);
      this.scale(d, newRS, oldRSs);
      d = api.get<KubeObject>('Deployment', ns, name);
      syncRolloutStatus(this.host, d, this.ownedRSs(d), newRS && this.fresh(newRS), writer);
      return;
    }
    if (isRollingUpdate(d)) this.rolloutRolling(d, rsList, writer);
    else this.rolloutRecreate(d, rsList, writer);
  }

  private ownedRSs(d: KubeObject): KubeObject[] {
    const api = this.host.cluster.api;
    return api
      .list<KubeObject>('ReplicaSet', { namespace: d.metadata.namespace })
      .filter((rs) => controllerRef(rs)?.uid === d.metadata.uid)
      .sort((a, b) => api.timeOf(a.metadata.creationTimestamp) - api.timeOf(b.metadata.creationTimestamp));
  }

  private fresh(rs: KubeObject): KubeObject {
    return (
      this.host.cluster.api.tryGet<KubeObject>('ReplicaSet', rs.metadata.namespace, rs.metadata.name) ?? rs
    );
  }

  private statusWriter(): StatusWriter {
    // The deployment may have been written earlier in this sync (revision, Progressing): write
    // the status onto the current object.
    return (d, status) => {
      const api = this.host.cluster.api;
      const upd = clone(api.get<KubeObject>('Deployment', d.metadata.namespace, d.metadata.name));
      upd.status = status;
      return api.update(upd, this.host.ctx, { subresource: 'status' });
    };
  }

  private rolloutRolling(d: KubeObject, rsList: KubeObject[], writer: StatusWriter): void {
    const { newRS, oldRSs } = this.getAllReplicaSets(d, rsList, true);
    d = this.host.cluster.api.get<KubeObject>('Deployment', d.metadata.namespace, d.metadata.name);
    const all = () => [...oldRSs.map((r) => this.fresh(r)), ...(newRS ? [this.fresh(newRS)] : [])];
    if (newRS && this.reconcileNewReplicaSet(all(), this.fresh(newRS), d)) {
      syncRolloutStatus(this.host, d, all(), this.fresh(newRS), writer);
      return;
    }
    if (
      newRS &&
      this.reconcileOldReplicaSets(
        all(),
        oldRSs.map((r) => this.fresh(r)),
        this.fresh(newRS),
        d
      )
    ) {
      syncRolloutStatus(this.host, d, all(), this.fresh(newRS), writer);
      return;
    }
    const after = syncRolloutStatus(this.host, d, all(), newRS && this.fresh(newRS), writer);
    if (after)
      this.cleanupDeployment(
        after,
        oldRSs.map((r) => this.fresh(r))
      );
  }

  private rolloutRecreate(d: KubeObject, rsList: KubeObject[], writer: StatusWriter): void {
    const api = this.host.cluster.api;
    let { newRS, oldRSs } = this.getAllReplicaSets(d, rsList, false);
    let scaledDown = false;
    for (const rs of oldRSs) if (replicasOf(rs) > 0 && this.scaleAndRecord(rs, 0, d)) scaledDown = true;
    const all = () => [...oldRSs.map((r) => this.fresh(r)), ...(newRS ? [this.fresh(newRS)] : [])];
    if (scaledDown || this.oldPodsRunning(newRS, oldRSs)) {
      syncRolloutStatus(this.host, d, all(), newRS && this.fresh(newRS), writer);
      return;
    }
    if (!newRS) ({ newRS, oldRSs } = this.getAllReplicaSets(d, rsList, true));
    d = api.get<KubeObject>('Deployment', d.metadata.namespace, d.metadata.name);
    if (newRS && replicasOf(this.fresh(newRS)) !== replicasOf(d))
      this.scaleAndRecord(this.fresh(newRS), replicasOf(d), d);
    const after = syncRolloutStatus(this.host, d, all(), newRS && this.fresh(newRS), writer);
    if (after)
      this.cleanupDeployment(
        after,
        oldRSs.map((r) => this.fresh(r))
      );
  }

  /** Pods of old ReplicaSets that are not terminal, including terminating ones. */
  private oldPodsRunning(newRS: KubeObject | undefined, oldRSs: KubeObject[]): boolean {
    if (oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
    const api = this.host.cluster.api;
    const oldUids = new Set(oldRSs.map((r) => r.metadata.uid));
    return api
      .list<KubeObject>('Pod', { namespace: newRS?.metadata.namespace ?? oldRSs[0]?.metadata.namespace })
      .some((p) => {
        const ref = controllerRef(p);
        const phase = p.status?.phase;
        return !!ref && oldUids.has(ref.uid) && phase !== 'Failed' && phase !== 'Succeeded';
      });
  }

  /** getNewReplicaSet + FindOldReplicaSets. */
  private getAllReplicaSets(
    d: KubeObject,
    rsList: KubeObject[],
    create: boolean
  ): { newRS: KubeObject | undefined; oldRSs: KubeObject[] } {
    const api = this.host.cluster.api;
    const tmpl = templateIgnoringHash(d.spec?.template);
    const existing = rsList.find((rs) => templateIgnoringHash(rs.spec?.template) === tmpl);
    const oldRSs = rsList.filter((rs) => rs !== existing);
    const newRevision = maxRevision(oldRSs) + 1;
    const now = api.timestamp();
    if (existing) {
      const upd = clone(existing);
      const ann = (upd.metadata.annotations ??= {});
      const annChanged = setNewReplicaSetAnnotations(d, ann, newRevision, true);
      const minReadyChanged = (upd.spec.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
      if (annChanged || minReadyChanged) {
        upd.spec.minReadySeconds = d.spec?.minReadySeconds ?? 0;
        return { newRS: api.update(upd, this.host.ctx), oldRSs };
      }
      this.setDeploymentRevision(d, String(revisionOf(existing)));
      if (!(d.status?.conditions ?? []).some((c: { type: string }) => c.type === 'Progressing')) {
        this.patchProgressing(
          d,
          'FoundNewReplicaSet',
          `Found new replica set "${existing.metadata.name}"`,
          now
        );
      }
      return { newRS: existing, oldRSs };
    }
    if (!create) return { newRS: undefined, oldRSs };

    const hash = podTemplateHash(d.spec?.template);
    const template = clone(d.spec?.template ?? {});
    template.metadata ??= {};
    template.metadata.labels = { ...(template.metadata.labels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const selector = clone(d.spec?.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: { ...(template.metadata.labels ?? {}) },
        annotations: {},
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: d.metadata.name,
            uid: d.metadata.uid!,
            controller: true,
            blockOwnerDeletion: true
          }
        ]
      },
      spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template }
    };
    const count = this.newRSNewReplicas(d, [...oldRSs, rs], rs);
    rs.spec.replicas = count;
    setNewReplicaSetAnnotations(d, rs.metadata.annotations!, newRevision, false);
    let created: KubeObject;
    try {
      created = api.create(rs, this.host.ctx);
    } catch (err) {
      if (isApiError(err, 'AlreadyExists')) {
        const found = api.get<KubeObject>('ReplicaSet', rs.metadata.namespace, rs.metadata.name);
        return { newRS: found, oldRSs };
      }
      const msg = `Failed to create new replica set "${rs.metadata.name}": ${errorMessage(err)}`;
      this.host.cluster.recorder.event(d, 'Warning', 'FailedCreate', msg, SOURCE, this.host.ctx);
      throw err;
    }
    if (count > 0) {
      this.event(d, `Scaled up replica set ${created.metadata.name} from 0 to ${count}`);
    }
    this.setDeploymentRevision(d, String(newRevision));
    this.patchProgressing(
      d,
      'NewReplicaSetCreated',
      `Created new replica set "${created.metadata.name}"`,
      now
    );
    return { newRS: created, oldRSs };
  }

  private setDeploymentRevision(d: KubeObject, revision: string): void {
    if (d.metadata.annotations?.[REVISION] === revision) return;
    this.host.cluster.api.patch(
      'Deployment',
      d.metadata.namespace,
      d.metadata.name,
      { metadata: { annotations: { [REVISION]: revision } } },
      this.host.ctx
    );
  }

  private patchProgressing(d: KubeObject, reason: string, message: string, now: string): void {
    const api = this.host.cluster.api;
    const cur = api.get<KubeObject>('Deployment', d.metadata.namespace, d.metadata.name);
    const conds = ((cur.status?.conditions ?? []) as { type: string }[]).filter(
      (c) => c.type !== 'Progressing'
    );
    conds.push({
      type: 'Progressing',
      status: 'True',
      lastUpdateTime: now,
      lastTransitionTime: now,
      reason,
      message
    } as { type: string });
    const upd = clone(cur);
    upd.status = { ...(upd.status ?? {}), conditions: conds };
    api.update(upd, this.host.ctx, { subresource: 'status' });
  }

  /** NewRSNewReplicas. */
  private newRSNewReplicas(d: KubeObject, all: KubeObject[], newRS: KubeObject): number {
    if (!isRollingUpdate(d)) return replicasOf(d);
    const current = all.reduce((s, rs) => s + replicasOf(rs), 0);
    const maxTotal = replicasOf(d) + maxSurge(d);
    if (current >= maxTotal) return replicasOf(newRS);
    const up = Math.min(maxTotal - current, replicasOf(d) - replicasOf(newRS));
    return replicasOf(newRS) + up;
  }

  private reconcileNewReplicaSet(all: KubeObject[], newRS: KubeObject, d: KubeObject): boolean {
    if (replicasOf(newRS) === replicasOf(d)) return false;
    if (replicasOf(newRS) > replicasOf(d)) return this.scaleAndRecord(newRS, replicasOf(d), d);
    return this.scaleAndRecord(newRS, this.newRSNewReplicas(d, all, newRS), d);
  }

  private reconcileOldReplicaSets(
    all: KubeObject[],
    oldRSs: KubeObject[],
    newRS: KubeObject,
    d: KubeObject
  ): boolean {
    const oldCount = oldRSs.reduce((s, rs) => s + replicasOf(rs), 0);
    if (oldCount === 0) return false;
    const allCount = all.reduce((s, rs) => s + replicasOf(rs), 0);
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = allCount - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    // cleanupUnhealthyReplicas: unavailable old pods go first, oldest ReplicaSet first.
    let cleaned = 0;
    for (const rs of oldRSs) {
      if (cleaned >= maxScaledDown) break;
      const cur = this.fresh(rs);
      const unhealthy = replicasOf(cur) - (cur.status?.availableReplicas ?? 0);
      if (replicasOf(cur) === 0 || unhealthy <= 0) continue;
      const n = Math.min(maxScaledDown - cleaned, unhealthy);
      this.scaleAndRecord(cur, replicasOf(cur) - n, d);
      cleaned += n;
    }
    // scaleDownOldReplicaSetsForRollingUpdate: never below minAvailable available pods.
    const fresh = [...oldRSs, newRS].map((r) => this.fresh(r));
    const available = fresh.reduce((s, rs) => s + (rs.status?.availableReplicas ?? 0), 0);
    let scaledDown = 0;
    if (available > minAvailable) {
      const total = available - minAvailable;
      for (const rs of oldRSs.map((r) => this.fresh(r))) {
        if (scaledDown >= total) break;
        if (replicasOf(rs) === 0) continue;
        const n = Math.min(replicasOf(rs), total - scaledDown);
        this.scaleAndRecord(rs, replicasOf(rs) - n, d);
        scaledDown += n;
      }
    }
    return cleaned + scaledDown > 0;
  }

  private isScalingEvent(d: KubeObject, rsList: KubeObject[]): boolean {
    const tmpl = templateIgnoringHash(d.spec?.template);
    const newRS = rsList.find((rs) => templateIgnoringHash(rs.spec?.template) === tmpl);
    const active = rsList.filter((rs) => replicasOf(rs) > 0 || rs === newRS);
    if (!newRS && !active.length) return false;
    return active.some((rs) => {
      const desired = rs.metadata.annotations?.[DESIRED_REPLICAS];
      return desired !== undefined && parseInt(desired, 10) !== replicasOf(d);
    });
  }

  /** scale: proportional scaling of every active ReplicaSet when spec.replicas changes mid-rollout. */
  private scale(d: KubeObject, newRS: KubeObject | undefined, oldRSs: KubeObject[]): void {
    const all = [...oldRSs, ...(newRS ? [newRS] : [])];
    const active = all.filter((rs) => replicasOf(rs) > 0);
    const activeOrLatest =
      active.length === 1 ? active[0] : active.length === 0 ? (newRS ?? all[all.length - 1]) : undefined;
    if (activeOrLatest) {
      this.scaleAndRecord(activeOrLatest, replicasOf(d), d);
      return;
    }
    if (
      newRS &&
      replicasOf(newRS) === replicasOf(d) &&
      (newRS.status?.availableReplicas ?? 0) === replicasOf(d)
    ) {
      for (const rs of oldRSs) if (replicasOf(rs) > 0) this.scaleAndRecord(rs, 0, d);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const current = active.reduce((s, rs) => s + replicasOf(rs), 0);
    const allowed = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
    const toAdd = allowed - current;
    const sorted = [...active].sort((a, b) => replicasOf(b) - replicasOf(a) || (toAdd > 0 ? -1 : 1));
    const sizes = new Map<KubeObject, number>();
    let added = 0;
    for (const rs of sorted) {
      let proportion = 0;
      if (toAdd !== 0 && toAdd !== added) {
        const annotated =
          parseInt(rs.metadata.annotations?.[MAX_REPLICAS] ?? '', 10) || (d.status?.replicas ?? current);
        const fraction =
          Math.round((replicasOf(rs) * (replicasOf(d) + maxSurge(d))) / annotated) - replicasOf(rs);
        proportion = toAdd > 0 ? Math.min(fraction, toAdd - added) : Math.max(fraction, toAdd - added);
      }
      sizes.set(rs, replicasOf(rs) + proportion);
      added += proportion;
    }
    if (sorted.length && toAdd !== added)
      sizes.set(sorted[0], Math.max(0, sizes.get(sorted[0])! + toAdd - added));
    for (const rs of sorted) this.scaleAndRecord(rs, sizes.get(rs)!, d);
  }

  /** scaleReplicaSetAndRecordEvent: also refreshes the desired/max replicas annotations. */
  private scaleAndRecord(rs: KubeObject, newScale: number, d: KubeObject): boolean {
    const old = replicasOf(rs);
    const desired = String(replicasOf(d));
    const max = String(replicasOf(d) + maxSurge(d));
    const annOk =
      rs.metadata.annotations?.[DESIRED_REPLICAS] === desired &&
      rs.metadata.annotations?.[MAX_REPLICAS] === max;
    if (old === newScale && annOk) return false;
    const upd = clone(rs);
    upd.spec.replicas = newScale;
    upd.metadata.annotations = {
      ...(upd.metadata.annotations ?? {}),
      [DESIRED_REPLICAS]: desired,
      [MAX_REPLICAS]: max
    };
    this.host.cluster.api.update(upd, this.host.ctx);
    if (old === newScale) return false;
    this.event(
      d,
      `Scaled ${newScale > old ? 'up' : 'down'} replica set ${rs.metadata.name} from ${old} to ${newScale}`
    );
    return true;
  }

  /** cleanupDeployment: keep at most revisionHistoryLimit old, fully scaled-down ReplicaSets. */
  private cleanupDeployment(d: KubeObject, oldRSs: KubeObject[]): void {
    const limit = (d.spec?.revisionHistoryLimit as number | undefined) ?? DEFAULT_REVISION_HISTORY_LIMIT;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = cleanable.length - limit;
    if (diff <= 0) return;
    cleanable.sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of cleanable.slice(0, diff)) {
      if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0) continue;
      if ((rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      this.host.cluster.api.delete('ReplicaSet', rs.metadata.namespace, rs.metadata.name, {}, this.host.ctx);
    }
  }

  private event(d: KubeObject, message: string): void {
    this.host.cluster.recorder.event(d, 'Normal', 'ScalingReplicaSet', message, SOURCE, this.host.ctx);
  }
}
