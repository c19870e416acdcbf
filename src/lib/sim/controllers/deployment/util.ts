/**
 * Deployment helpers (pkg/controller/deployment/util/deployment_util.go): template hash, surge and
 * unavailability fenceposts, revisions, annotations and status conditions.
 */
import type { KubeObject } from '../../api/types';

export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
/** Deployment annotations that are not copied to its ReplicaSets (annotationsToSkip). */
const SKIP_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to'
]);

/** The alphabet of rand.SafeEncodeString (no vowels, no confusable digits). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/**
 * Stored templates are frozen, so their canonical text never changes: the controller compares
 * every ReplicaSet's template with its Deployment's on each sync, and computes each text once.
 */
const canonicalTemplates = new WeakMap<object, string>();

/** The template without the pod-template-hash label, in a canonical key order. */
export function templateIgnoringHash(template: unknown): string {
  if (!template || typeof template !== 'object' || !Object.isFrozen(template)) return canonicalText(template);
  let text = canonicalTemplates.get(template);
  if (text === undefined) canonicalTemplates.set(template, (text = canonicalText(template)));
  return text;
}

function canonicalText(template: unknown): string {
  const t = structuredClone((template ?? {}) as { metadata?: { labels?: Record<string, string> } });
  if (t.metadata?.labels) {
    delete t.metadata.labels[POD_TEMPLATE_HASH];
    if (!Object.keys(t.metadata.labels).length) delete t.metadata.labels;
  }
  return JSON.stringify(canonical(t));
}

/**
 * ComputeHash: FNV-1a (32 bit) of the template, then SafeEncodeString of its decimal digits, which
 * is how names like web-7c79c4bf97 come about.
 */
export function podTemplateHash(template: unknown, collisionCount = 0): string {
  let h = 0x811c9dc5;
  const s = templateIgnoringHash(template) + (collisionCount ? String(collisionCount) : '');
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [...String(h >>> 0)].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(
  v: number | string | undefined,
  total: number,
  roundUp: boolean,
  dflt: string
): number {
  const x = v ?? dflt;
  if (typeof x === 'number') return x;
  const m = /^(\d+)%$/.exec(x);
  if (!m) return parseInt(x, 10) || 0;
  const f = (parseInt(m[1], 10) * total) / 100;
  return roundUp ? Math.ceil(f) : Math.floor(f);
}

export function isRollingUpdate(d: KubeObject): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

export function replicasOf(o: KubeObject | undefined): number {
  return (o?.spec?.replicas as number | undefined) ?? 1;
}

/** ResolveFenceposts: surge rounds up, unavailable rounds down; both 0 ⇒ unavailable 1. */
export function resolveFenceposts(d: KubeObject): { surge: number; unavailable: number } {
  const ru = d.spec?.strategy?.rollingUpdate ?? {};
  const desired = replicasOf(d);
  const surge = scaledValue(ru.maxSurge, desired, true, '25%');
  let unavailable = scaledValue(ru.maxUnavailable, desired, false, '25%');
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: KubeObject): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

export function maxUnavailable(d: KubeObject): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicasOf(d));
}

export function revisionOf(o: KubeObject): number {
  const v = parseInt(o.metadata.annotations?.[REVISION] ?? '', 10);
  return Number.isFinite(v) ? v : 0;
}

export function maxRevision(rss: KubeObject[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/**
 * SetNewReplicaSetAnnotations: copy the deployment's annotations, raise the revision (keeping the
 * old one in revision-history) and, for a new ReplicaSet, the desired/max replicas annotations.
 */
export function setNewReplicaSetAnnotations(
  d: KubeObject,
  ann: Record<string, string>,
  newRevision: number,
  exists: boolean
): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIP_ANNOTATIONS.has(k) || ann[k] === v) continue;
    ann[k] = v;
    changed = true;
  }
  const old = ann[REVISION];
  const oldInt = parseInt(old ?? '', 10) || 0;
  if (oldInt < newRevision) {
    ann[REVISION] = String(newRevision);
    changed = true;
    if (old) ann[REVISION_HISTORY] = ann[REVISION_HISTORY] ? `${ann[REVISION_HISTORY]},${old}` : old;
  }
  if (!exists) {
    ann[DESIRED_REPLICAS] = String(replicasOf(d));
    ann[MAX_REPLICAS] = String(replicasOf(d) + maxSurge(d));
    changed = true;
  }
  return changed;
}

export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** SetDeploymentCondition: unchanged status+reason is a no-op; same status keeps lastTransitionTime. */
export function setDeploymentCondition(
  conds: DeploymentCondition[],
  c: DeploymentCondition
): DeploymentCondition[] {
  const cur = conds.find((x) => x.type === c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return conds;
  const next = cur && cur.status === c.status ? { ...c, lastTransitionTime: cur.lastTransitionTime } : c;
  return [...conds.filter((x) => x.type !== c.type), next];
}

export function newCondition(
  type: string,
  status: DeploymentCondition['status'],
  reason: string,
  message: string,
  nowTs: string
): DeploymentCondition {
  return { type, status, lastUpdateTime: nowTs, lastTransitionTime: nowTs, reason, message };
}
