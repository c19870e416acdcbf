/** Pod helpers shared by the controllers (k8s.io/kubernetes/pkg/controller and pkg/api/v1/pod). */
import type { KubeObject, Mutable, OwnerReference, PodCondition } from '../../api/types';

export function podKey(p: Pick<KubeObject, 'metadata'>): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
}

export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(p: KubeObject): boolean {
  const phase = p.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !p.metadata.deletionTimestamp;
}

export function isPodTerminated(p: KubeObject): boolean {
  const phase = p.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function podCondition(p: KubeObject, type: string): PodCondition | undefined {
  const conds = p.status?.conditions as PodCondition[] | undefined;
  if (conds) for (let i = 0; i < conds.length; i++) if (conds[i].type === type) return conds[i];
  return undefined;
}

export function isPodReady(p: KubeObject): boolean {
  return podCondition(p, 'Ready')?.status === 'True';
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(
  p: KubeObject,
  minReadySeconds: number,
  nowMs: number,
  timeOf: (ts: string) => number
): boolean {
  const c = podCondition(p, 'Ready');
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  return !!c.lastTransitionTime && timeOf(c.lastTransitionTime) + minReadySeconds * 1000 <= nowMs;
}

export function controllerRef(o: Pick<KubeObject, 'metadata'>): OwnerReference | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller);
}

export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true
  };
}

/**
 * podutil.UpdatePodCondition: replace or add `cond`; lastTransitionTime moves only when the status
 * changes. Returns false when nothing changed.
 */
export function updatePodCondition(
  status: Mutable<{ conditions?: PodCondition[] }>,
  cond: PodCondition,
  nowTs: string
): boolean {
  const conds = (status.conditions ??= []);
  const i = conds.findIndex((c) => c.type === cond.type);
  if (i < 0) {
    conds.push({ ...cond, lastTransitionTime: nowTs });
    return true;
  }
  const old = conds[i];
  const next = { ...cond, lastTransitionTime: old.status === cond.status ? old.lastTransitionTime : nowTs };
  if (
    old.status === next.status &&
    old.reason === next.reason &&
    old.message === next.message &&
    old.lastTransitionTime === next.lastTransitionTime
  ) {
    return false;
  }
  conds[i] = next;
  return true;
}

/** The node a pod is bound to or, for a DaemonSet pod not yet bound, the node its affinity names. */
export function targetNodeName(p: KubeObject): string | undefined {
  if (p.spec?.nodeName) return p.spec.nodeName;
  const terms =
    p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const t of terms ?? []) {
    for (const f of t.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}
