/**
 * The pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go): delete a pod unless a
 * PodDisruptionBudget forbids it. Terminal, Pending and already-terminating pods are deleted without
 * looking at budgets; otherwise the one matching budget must allow a disruption, which the handler
 * takes by decrementing status.disruptionsAllowed and recording the pod in status.disruptedPods.
 */
import type { Cluster } from '../cluster';
import { ApiError, notFound } from './errors';
import { matchLabelSelector } from './selectors';
import { clone, type KubeObject, type RequestContext } from './types';

export interface EvictOptions {
  gracePeriodSeconds?: number;
  /** DeleteOptions.preconditions.uid */
  uid?: string;
  /** `--dry-run=server`: decide, change nothing. */
  dryRun?: boolean;
}

/** policy/v1 DisruptionBudgetCause */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';
export const EVICTION_VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";
/** MaxDisruptedPodSize: evictions the disruption controller has not yet confirmed. */
const MAX_DISRUPTED_POD_SIZE = 2000;

function isReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some(
    (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
  );
}

/** canIgnorePDB */
function canIgnorePDB(pod: KubeObject): boolean {
  const phase = pod.status?.phase;
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp
  );
}

/** PDBs in the pod's namespace whose (non-empty) selector matches the pod. */
export function podDisruptionBudgetsFor(cluster: Cluster, pod: KubeObject): KubeObject[] {
  return cluster.api
    .list<KubeObject>('PodDisruptionBudget', { namespace: pod.metadata.namespace })
    .filter((b) => {
      const sel = b.spec?.selector;
      // A nil or empty selector matches nothing here, unlike a workload selector.
      const empty =
        !sel || (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length);
      return !empty && matchLabelSelector(sel, pod.metadata.labels);
    });
}

function tooManyRequests(cause: string): ApiError {
  return new ApiError(429, 'TooManyRequests', EVICTION_VIOLATES_BUDGET, [
    { field: '', reason: DISRUPTION_BUDGET_CAUSE, message: cause }
  ]);
}

function forbidden(pdb: string, why: string): ApiError {
  return new ApiError(403, 'Forbidden', `poddisruptionbudgets.policy "${pdb}" is forbidden: ${why}`);
}

/** checkAndDecrement: take one disruption from the budget or refuse with 429 / 403. */
function checkAndDecrement(
  cluster: Cluster,
  pdb: KubeObject,
  podName: string,
  ctx: RequestContext,
  dryRun: boolean
): void {
  const st = pdb.status ?? {};
  if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw tooManyRequests(
      `The disruption budget ${pdb.metadata.name} is still being processed by the server.`
    );
  }
  const allowed: number = st.disruptionsAllowed ?? 0;
  if (allowed < 0) throw forbidden(pdb.metadata.name, 'pdb disruptions allowed is negative');
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw forbidden(
      pdb.metadata.name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller'
    );
  }
  if (allowed === 0) {
    throw tooManyRequests(
      `The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`
    );
  }
  if (dryRun) return;
  const upd = clone(pdb);
  upd.status.disruptionsAllowed = allowed - 1;
  if (allowed - 1 === 0) {
    upd.status.conditions = setDisruptionAllowed(
      upd.status.conditions,
      false,
      upd.status.observedGeneration,
      cluster
    );
  }
  upd.status.disruptedPods = { ...(upd.status.disruptedPods ?? {}), [podName]: cluster.api.timestamp() };
  // With the resourceVersion set, a concurrent change of the budget is a conflict, not a lost update.
  cluster.api.update(upd, ctx, { subresource: 'status' });
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

/** pdbhelper.UpdateDisruptionAllowedCondition: DisruptionAllowed, SufficientPods / InsufficientPods. */
export function setDisruptionAllowed(
  conditions: Condition[] | undefined,
  allowed: boolean,
  observedGeneration: number | undefined,
  cluster: Cluster
): Condition[] {
  const status = allowed ? 'True' : 'False';
  const reason = allowed ? 'SufficientPods' : 'InsufficientPods';
  const others = (conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed');
  const old = (conditions ?? []).find((c) => c.type === 'DisruptionAllowed');
  const cond: Condition = {
    type: 'DisruptionAllowed',
    status,
    reason,
    message: '',
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : cluster.api.timestamp()
  };
  return [...others, cond];
}

/**
 * POST /api/v1/namespaces/{ns}/pods/{name}/eviction. Returns normally when the pod was deleted
 * (or would be, with dryRun); throws ApiError (404, 429, 403, 500) or ConnectionError otherwise.
 */
export function evictPod(
  cluster: Cluster,
  namespace: string,
  name: string,
  ctx: RequestContext,
  opts: EvictOptions = {}
): void {
  const api = cluster.api;
  api.reachable(ctx);
  api.requests.set('create pods/eviction', (api.requests.get('create pods/eviction') ?? 0) + 1);
  const pod = api.tryGet<KubeObject>('Pod', namespace, name);
  if (!pod) throw notFound('pods', name);
  const del = () => {
    if (opts.dryRun) return;
    const o: { gracePeriodSeconds?: number; uid?: string } = {};
    if (opts.gracePeriodSeconds !== undefined) o.gracePeriodSeconds = opts.gracePeriodSeconds;
    if (opts.uid !== undefined) o.uid = opts.uid;
    api.delete('Pod', namespace, name, o, ctx);
  };
  if (canIgnorePDB(pod)) return del();
  const pdbs = podDisruptionBudgetsFor(cluster, pod);
  if (pdbs.length > 1) {
    throw new ApiError(
      500,
      '',
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'
    );
  }
  const pdb = pdbs[0];
  if (pdb && !isReady(pod)) {
    // An unready pod does not count as healthy, so evicting it takes nothing from the budget.
    const st = pdb.status ?? {};
    const alwaysAllow = pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow';
    if (alwaysAllow || (st.desiredHealthy > 0 && st.currentHealthy >= st.desiredHealthy)) return del();
  }
  if (pdb) checkAndDecrement(cluster, pdb, name, ctx, !!opts.dryRun);
  del();
}
