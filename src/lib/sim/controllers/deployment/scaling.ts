/**
 * Scaling a Deployment's ReplicaSets (pkg/controller/deployment/sync.go): scaleReplicaSetAndRecordEvent,
 * proportional scaling when spec.replicas changes mid-rollout, and cleanupDeployment.
 */
import type { KubeObject } from '../../api/types';
import { clone } from '../../api/types';
import type { ControllerHost } from '../controller';
import {
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  isRollingUpdate,
  maxSurge,
  replicasOf,
  revisionOf,
  templateIgnoringHash
} from './util';

const SOURCE = { component: 'deployment-controller' };
/** Defaults the API server applies (apps/v1 SetDefaults_Deployment). */
const DEFAULT_REVISION_HISTORY_LIMIT = 10;

export class ReplicaSetScaler {
  constructor(private host: ControllerHost) {}

  isScalingEvent(d: KubeObject, rsList: KubeObject[]): boolean {
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
  scale(d: KubeObject, newRS: KubeObject | undefined, oldRSs: KubeObject[]): void {
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
  scaleAndRecord(rs: KubeObject, newScale: number, d: KubeObject): boolean {
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
  cleanupDeployment(d: KubeObject, oldRSs: KubeObject[]): void {
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

  event(d: KubeObject, message: string): void {
    this.host.cluster.recorder.event(d, 'Normal', 'ScalingReplicaSet', message, SOURCE, this.host.ctx);
  }
}
