/**
 * What `kubectl rollout undo` and `kubectl rollout restart` do to a Deployment (kubectl's
 * polymorphichelpers rollback.go and objectrestarter.go): both are plain writes through the API;
 * the deployment controller then rolls out the changed template.
 */
import type { Cluster } from '../../cluster';
import type { KubeObject, RequestContext } from '../../api/types';
import { clone } from '../../api/types';
import { ApiError } from '../../api/errors';
import { controllerRef } from '../util/pods';
import {
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  POD_TEMPLATE_HASH,
  REVISION,
  REVISION_HISTORY,
  revisionOf,
  templateIgnoringHash
} from './util';

const KUBECTL: RequestContext = { component: 'kubectl' };
const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';
const SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to'
]);

function ownedReplicaSets(cluster: Cluster, d: KubeObject): KubeObject[] {
  return cluster.api
    .list<KubeObject>('ReplicaSet', { namespace: d.metadata.namespace })
    .filter((rs) => controllerRef(rs)?.uid === d.metadata.uid);
}

/** `kubectl rollout history deployment/<name>`: revisions, oldest first. */
export function rolloutHistory(
  cluster: Cluster,
  namespace: string,
  name: string
): { revision: number; replicaSet: string; changeCause?: string }[] {
  const d = cluster.api.get<KubeObject>('Deployment', namespace, name);
  return ownedReplicaSets(cluster, d)
    .filter((rs) => revisionOf(rs) > 0)
    .map((rs) => ({
      revision: revisionOf(rs),
      replicaSet: rs.metadata.name,
      ...(rs.metadata.annotations?.['kubernetes.io/change-cause']
        ? { changeCause: rs.metadata.annotations['kubernetes.io/change-cause'] }
        : {})
    }))
    .sort((a, b) => a.revision - b.revision);
}

/**
 * `kubectl rollout undo deployment/<name> [--to-revision=N]`: copy the template (without its
 * pod-template-hash) and annotations of that revision's ReplicaSet back into the Deployment.
 * Returns kubectl's output line; throws ApiError with kubectl's wording otherwise.
 */
export function rolloutUndo(
  cluster: Cluster,
  namespace: string,
  name: string,
  toRevision = 0,
  ctx = KUBECTL
): string {
  const api = cluster.api;
  const d = api.get<KubeObject>('Deployment', namespace, name);
  if (d.spec?.paused) {
    throw new ApiError(
      400,
      'BadRequest',
      `you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again`
    );
  }
  const rss = ownedReplicaSets(cluster, d).sort((a, b) => revisionOf(a) - revisionOf(b));
  let target: KubeObject | undefined;
  if (toRevision === 0) {
    const current = revisionOf(d);
    const previous = rss.filter((rs) => revisionOf(rs) !== current && revisionOf(rs) > 0);
    target = previous[previous.length - 1];
    if (!target) throw new ApiError(400, 'BadRequest', `no rollout history found for deployment "${name}"`);
  } else {
    target = rss.find((rs) => revisionOf(rs) === toRevision);
    if (!target)
      throw new ApiError(400, 'BadRequest', `unable to find specified revision ${toRevision} in history`);
  }
  if (templateIgnoringHash(target.spec?.template) === templateIgnoringHash(d.spec?.template)) {
    return `deployment.apps/${name} skipped rollback (current template already matches revision ${revisionOf(target)})`;
  }
  const upd = clone(d);
  const template = clone(target.spec.template);
  if (template.metadata?.labels) delete template.metadata.labels[POD_TEMPLATE_HASH];
  upd.spec.template = template;
  const ann = { ...(upd.metadata.annotations ?? {}) };
  for (const [k, v] of Object.entries(target.metadata.annotations ?? {}))
    if (!SKIP.has(k)) ann[k] = v as string;
  upd.metadata.annotations = ann;
  api.update(upd, ctx);
  return `deployment.apps/${name} rolled back`;
}

/** `kubectl rollout restart deployment/<name>`: stamp the pod template with restartedAt. */
export function rolloutRestart(cluster: Cluster, namespace: string, name: string, ctx = KUBECTL): string {
  const api = cluster.api;
  const d = api.get<KubeObject>('Deployment', namespace, name);
  if (d.spec?.paused) {
    throw new ApiError(400, 'BadRequest', `can't restart paused deployment (run rollout resume first)`);
  }
  api.patch(
    'Deployment',
    namespace,
    name,
    { spec: { template: { metadata: { annotations: { [RESTARTED_AT]: api.timestamp() } } } } },
    ctx
  );
  return `deployment.apps/${name} restarted`;
}
