/**
 * Does a pod fit a node by name, nodeSelector, required node affinity and taints? The predicate
 * the DaemonSet controller runs (pkg/controller/daemon/daemon_controller.go predicates), written
 * small until the scheduler's plugins can be shared.
 */
import type {
  KubeObject,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Taint,
  Toleration
} from '../../api/types';
import { tolerationsTolerateTaint } from './taints';

function matchRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const vals = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && vals.includes(value);
    case 'NotIn':
      return value === undefined || !vals.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || vals.length !== 1) return false;
      const a = parseInt(value, 10);
      const b = parseInt(vals[0], 10);
      if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A term matches when all its expressions and fields match; an empty term matches nothing. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, node: KubeObject): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (!exprs.length && !fields.length) return false;
  const labels = node.metadata.labels ?? {};
  return (
    exprs.every((r) => matchRequirement(r, labels[r.key])) &&
    fields.every((r) => r.key === 'metadata.name' && matchRequirement(r, node.metadata.name))
  );
}

export function fitsNodeAffinity(pod: KubeObject, node: KubeObject): boolean {
  const sel = (pod.spec?.nodeSelector ?? {}) as Record<string, string>;
  const labels = node.metadata.labels ?? {};
  if (!Object.entries(sel).every(([k, v]) => labels[k] === v)) return false;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms as NodeSelectorTerm[] | undefined;
  if (!terms) return true;
  return terms.some((t) => matchNodeSelectorTerm(t, node));
}

/** Untolerated taints of the given effects. */
export function untoleratedTaints(pod: KubeObject, node: KubeObject, effects: string[]): Taint[] {
  const tols = pod.spec?.tolerations as Toleration[] | undefined;
  return ((node.spec?.taints ?? []) as Taint[]).filter(
    (t) => effects.includes(t.effect) && !tolerationsTolerateTaint(tols, t)
  );
}
