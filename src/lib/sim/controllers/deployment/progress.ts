/**
 * Deployment status and its Available / Progressing conditions (pkg/controller/deployment/progress.go
 * and sync.go calculateStatus).
 */
import type { KubeObject } from '../../api/types';
import type { ControllerHost } from '../controller';
import { jsonEqual } from '../util/jsonequal';
import {
  maxUnavailable,
  newCondition,
  replicasOf,
  setDeploymentCondition,
  type DeploymentCondition
} from './util';

export type StatusWriter = (d: KubeObject, status: Record<string, unknown>) => KubeObject;

/** apps/v1 default progressDeadlineSeconds. */
const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

interface DeploymentStatus {
  observedGeneration?: number;
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  unavailableReplicas: number;
  conditions: DeploymentCondition[];
}

function sum(rss: KubeObject[], field: string): number {
  return rss.reduce((s, rs) => s + ((rs.status?.[field] as number | undefined) ?? 0), 0);
}

function calculateStatus(
  d: KubeObject,
  all: KubeObject[],
  newRS: KubeObject | undefined,
  nowTs: string
): DeploymentStatus {
  const available = sum(all, 'availableReplicas');
  const total = sum(all, 'replicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: total,
    updatedReplicas: newRS ? sum([newRS], 'replicas') : 0,
    readyReplicas: sum(all, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    conditions: [...((d.status?.conditions ?? []) as DeploymentCondition[])]
  };
  const cond =
    available >= replicasOf(d) - maxUnavailable(d)
      ? newCondition(
          'Available',
          'True',
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
          nowTs
        )
      : newCondition(
          'Available',
          'False',
          'MinimumReplicasUnavailable',
          'Deployment does not have minimum availability.',
          nowTs
        );
  status.conditions = setDeploymentCondition(status.conditions, cond);
  return status;
}

export function deploymentComplete(d: KubeObject, s: DeploymentStatus): boolean {
  const want = replicasOf(d);
  return (
    s.updatedReplicas === want &&
    s.replicas === want &&
    s.availableReplicas === want &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

function deploymentProgressing(d: KubeObject, s: DeploymentStatus): boolean {
  const old = (d.status ?? {}) as Partial<DeploymentStatus>;
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = s.replicas - s.updatedReplicas;
  return (
    s.updatedReplicas > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    s.readyReplicas > (old.readyReplicas ?? 0) ||
    s.availableReplicas > (old.availableReplicas ?? 0)
  );
}

/**
 * syncRolloutStatus. Returns the deployment when the rollout is complete (the caller then cleans
 * up old ReplicaSets), otherwise undefined.
 */
export function syncRolloutStatus(
  host: ControllerHost,
  d: KubeObject,
  all: KubeObject[],
  newRS: KubeObject | undefined,
  write: StatusWriter
): KubeObject | undefined {
  const api = host.cluster.api;
  const nowTs = api.timestamp();
  const status = calculateStatus(d, all, newRS, nowTs);
  const deadline =
    (d.spec?.progressDeadlineSeconds as number | undefined) ?? DEFAULT_PROGRESS_DEADLINE_SECONDS;
  const cur = status.conditions.find((c) => c.type === 'Progressing');
  const isComplete = status.replicas === status.updatedReplicas && cur?.reason === 'NewReplicaSetAvailable';
  const rsName = newRS?.metadata.name;
  if (!isComplete) {
    if (deploymentComplete(d, status)) {
      const msg = rsName
        ? `ReplicaSet "${rsName}" has successfully progressed.`
        : 'Deployment has successfully progressed.';
      status.conditions = setDeploymentCondition(
        status.conditions,
        newCondition('Progressing', 'True', 'NewReplicaSetAvailable', msg, nowTs)
      );
    } else if (deploymentProgressing(d, status)) {
      const msg = rsName ? `ReplicaSet "${rsName}" is progressing.` : 'Deployment is progressing.';
      const c = newCondition('Progressing', 'True', 'ReplicaSetUpdated', msg, nowTs);
      if (cur?.status === 'True') c.lastTransitionTime = cur.lastTransitionTime;
      status.conditions = [...status.conditions.filter((x) => x.type !== 'Progressing'), c];
    } else if (cur && cur.reason !== 'NewReplicaSetAvailable' && cur.reason !== 'ProgressDeadlineExceeded') {
      const from = api.timeOf(cur.lastUpdateTime);
      if (from + deadline * 1000 < host.now()) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" has timed out progressing.`
          : 'Deployment has timed out progressing.';
        status.conditions = setDeploymentCondition(
          status.conditions,
          newCondition('Progressing', 'False', 'ProgressDeadlineExceeded', msg, nowTs)
        );
      } else {
        // requeueStuckDeployment: look again just after the deadline passes.
        host.enqueueAfter(
          `${d.metadata.namespace}/${d.metadata.name}`,
          from + deadline * 1000 + 1000 - host.now()
        );
      }
    }
  }
  const complete = deploymentComplete(d, status);
  if (jsonEqual(status, normalise(d.status))) return complete ? d : undefined;
  const written = write(d, status as unknown as Record<string, unknown>);
  return complete ? written : undefined;
}

function normalise(s: unknown): unknown {
  if (!s) return s;
  const o = s as Record<string, unknown>;
  return {
    observedGeneration: o.observedGeneration,
    replicas: o.replicas,
    updatedReplicas: o.updatedReplicas,
    readyReplicas: o.readyReplicas,
    availableReplicas: o.availableReplicas,
    unavailableReplicas: o.unavailableReplicas,
    conditions: o.conditions
  };
}
