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
import { ReplicaSetScaler } from './scaling';

const SOURCE = { component: 'deployment-controller' };

export class DeploymentController implements Controller {
  readonly name = 'deployment-controller';

  private scaler: ReplicaSetScaler;

  constructor(private host: ControllerHost) {
    this.scaler = new ReplicaSetScaler(host);
  }

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

  resyncKeys(): string[] {
    return this.host.cluster.api.list('Deployment').map(podKey);
  }

  sync(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    let d = api.tryGet<KubeObject>('Deployment', ns, name);
    if (!d) return;
    const rsList = this.listOwned(d).sort(
      (a, b) => api.timeOf(a.metadata.creationTimestamp) - api.timeOf(b.metadata.creationTimestamp)
    );
    const writer = this.statusWriter();
    if (d.metadata.deletionTimestamp || d.spec?.paused) {
      const { newRS } = this.getAllReplicaSets(d, rsList, false);
      if (d.spec?.paused && !d.metadata.deletionTimestamp && this.scaler.isScalingEvent(d, rsList)) {
        this.scaler.scale(
          d,
          newRS,
          rsList.filter((rs) => rs !== newRS)
        );
      }
      syncRolloutStatus(this.host, d, rsList, newRS, writer);
      return;
    }
    if (this.scaler.isScalingEvent(d, rsList)) {
      const { newRS, oldRSs } = this.getAllReplicaSets(d, rsList, false);
      this.scaler.scale(d, newRS, oldRSs);
      d = api.get<KubeObject>('Deployment', ns, name);
      syncRolloutStatus(this.host, d, this.ownedRSs(d), newRS && this.fresh(newRS), writer);
      return;
    }
    if (isRollingUpdate(d)) this.rolloutRolling(d, rsList, writer);
    else this.rolloutRecreate(d, rsList, writer);
  }

  private ownedRSs(d: KubeObject): KubeObject[] {
    const api = this.host.cluster.api;
    return this.listOwned(d).sort(
      (a, b) => api.timeOf(a.metadata.creationTimestamp) - api.timeOf(b.metadata.creationTimestamp)
    );
  }

  /** The ReplicaSets the deployment controls, from the owner index (as the informer's indexer). */
  private listOwned(d: KubeObject): KubeObject[] {
    const { uid, namespace } = d.metadata;
    return this.host.cluster.api.listByController('ReplicaSet', uid!, namespace, { order: 'list' });
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
      // The API server copies what it keeps of a request: the stored object's own parts will do,
      // and the status (calculateStatus builds it for this write) is handed over.
      const cur = api.get<KubeObject>('Deployment', d.metadata.namespace, d.metadata.name);
      return api.update({ ...cur, status }, this.host.ctx, { subresource: 'status', handOver: true });
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
      this.scaler.cleanupDeployment(
        after,
        oldRSs.map((r) => this.fresh(r))
      );
  }

  private rolloutRecreate(d: KubeObject, rsList: KubeObject[], writer: StatusWriter): void {
    const api = this.host.cluster.api;
    let { newRS, oldRSs } = this.getAllReplicaSets(d, rsList, false);
    let scaledDown = false;
    for (const rs of oldRSs)
      if (replicasOf(rs) > 0 && this.scaler.scaleAndRecord(rs, 0, d)) scaledDown = true;
    const all = () => [...oldRSs.map((r) => this.fresh(r)), ...(newRS ? [this.fresh(newRS)] : [])];
    if (scaledDown || this.oldPodsRunning(newRS, oldRSs)) {
      syncRolloutStatus(this.host, d, all(), newRS && this.fresh(newRS), writer);
      return;
    }
    if (!newRS) ({ newRS, oldRSs } = this.getAllReplicaSets(d, rsList, true));
    d = api.get<KubeObject>('Deployment', d.metadata.namespace, d.metadata.name);
    if (newRS && replicasOf(this.fresh(newRS)) !== replicasOf(d))
      this.scaler.scaleAndRecord(this.fresh(newRS), replicasOf(d), d);
    const after = syncRolloutStatus(this.host, d, all(), newRS && this.fresh(newRS), writer);
    if (after)
      this.scaler.cleanupDeployment(
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
      // The annotations are worked out on their own copy; the ReplicaSet is copied only to write it.
      const ann: Record<string, string> = { ...(existing.metadata.annotations ?? {}) };
      const annChanged = setNewReplicaSetAnnotations(d, ann, newRevision, true);
      const minReadyChanged = (existing.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
      if (annChanged || minReadyChanged) {
        const upd = clone(existing);
        upd.metadata.annotations = ann;
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
      this.scaler.event(d, `Scaled up replica set ${created.metadata.name} from 0 to ${count}`);
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
    if (replicasOf(newRS) > replicasOf(d)) return this.scaler.scaleAndRecord(newRS, replicasOf(d), d);
    return this.scaler.scaleAndRecord(newRS, this.newRSNewReplicas(d, all, newRS), d);
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
      this.scaler.scaleAndRecord(cur, replicasOf(cur) - n, d);
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
        this.scaler.scaleAndRecord(rs, replicasOf(rs) - n, d);
        scaledDown += n;
      }
    }
    return cleaned + scaledDown > 0;
  }
}
