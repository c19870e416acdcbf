/**
 * Node selector and node affinity matching (k8s.io/component-helpers/scheduling/corev1/nodeaffinity
 * and k8s.io/apimachinery/pkg/labels NewRequirement). The scheduler's NodeAffinity plugin, the
 * DaemonSet controller, the cluster autoscaler and the lesson checks all call these.
 *
 * A term whose requirements do not parse (a label value that is not a valid label value, In with
 * no values, Gt with a non-integer, a field other than metadata.name with In/NotIn and one value)
 * fails to match, as upstream's lazy parse error makes it; the other terms still count.
 */
import { isQualifiedName, isValidLabelValue } from '../admission/validation/names';

interface Requirement {
  key: string;
  operator: string;
  values?: readonly string[];
}

interface TermLike {
  matchExpressions?: readonly Requirement[];
  matchFields?: readonly Requirement[];
}

interface PreferredTermLike {
  weight: number;
  preference: TermLike;
}

/** The node as the matchers see it: its labels and its name (the only selectable field). */
export interface NodeLabelsAndName {
  labels: Readonly<Record<string, string>>;
  name: string;
}

const INTEGER = /^[+-]?\d+$/;

/** labels.NewRequirement's checks: a requirement that fails them makes its term unusable. */
function labelRequirementParses(r: Requirement): boolean {
  if (!isQualifiedName(r.key)) return false;
  const vals = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (vals.length === 0) return false;
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (vals.length !== 0) return false;
      break;
    case 'Gt':
    case 'Lt':
      if (vals.length !== 1 || !INTEGER.test(vals[0])) return false;
      break;
    default:
      return false;
  }
  return vals.every(isValidLabelValue);
}

/** nodeSelectorRequirementsAsFieldSelector: In / NotIn with exactly one value. */
function fieldRequirementParses(r: Requirement): boolean {
  return (r.operator === 'In' || r.operator === 'NotIn') && (r.values ?? []).length === 1;
}

function matchLabelRequirement(r: Requirement, value: string | undefined): boolean {
  const has = value !== undefined;
  const vals = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && vals.includes(value);
    case 'NotIn':
      return value === undefined || !vals.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !INTEGER.test(value)) return false;
      const a = parseInt(value, 10);
      const b = parseInt(vals[0], 10);
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** fields.Set{"metadata.name": name}: any other field reads as empty. */
function matchFieldRequirement(r: Requirement, name: string): boolean {
  const value = r.key === 'metadata.name' ? name : '';
  const want = (r.values ?? [])[0];
  return r.operator === 'In' ? value === want : value !== want;
}

/** Parse results per term object: a pod's terms are parsed once, not once per node (stored objects are frozen). */
const parsed = new WeakMap<object, boolean>();

/** Whether a term parses (every expression and field is a valid requirement). */
export function nodeSelectorTermParses(term: TermLike): boolean {
  const hit = parsed.get(term);
  if (hit !== undefined) return hit;
  const ok =
    (term.matchExpressions ?? []).every(labelRequirementParses) &&
    (term.matchFields ?? []).every(fieldRequirementParses);
  parsed.set(term, ok);
  return ok;
}

/**
 * One node selector term: all its expressions and fields must match. An empty term matches
 * nothing, and so does a term that does not parse.
 */
export function matchNodeSelectorTerm(term: TermLike | undefined, node: NodeLabelsAndName): boolean {
  if (!term) return false;
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (!exprs.length && !fields.length) return false;
  if (!nodeSelectorTermParses(term)) return false;
  for (const e of exprs) if (!matchLabelRequirement(e, node.labels[e.key])) return false;
  for (const f of fields) if (!matchFieldRequirement(f, node.name)) return false;
  return true;
}

/** NodeSelector: the terms are ORed. */
export function matchNodeSelectorTerms(
  terms: readonly TermLike[] | undefined,
  node: NodeLabelsAndName
): boolean {
  for (const t of terms ?? []) if (matchNodeSelectorTerm(t, node)) return true;
  return false;
}

/** `spec.nodeSelector`: every key must be present with the same value. */
export function matchNodeSelectorMap(
  sel: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>>
): boolean {
  if (sel) for (const k in sel) if (labels[k] !== sel[k]) return false;
  return true;
}

interface PodSpecLike {
  nodeSelector?: Readonly<Record<string, string>>;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: readonly TermLike[] };
    };
  };
}

/**
 * nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): the pod's nodeSelector and its required
 * node affinity terms (when there are any) both hold.
 */
export function podMatchesNodeSelectorAndAffinity(
  pod: { spec?: PodSpecLike },
  node: NodeLabelsAndName
): boolean {
  const spec = pod.spec ?? {};
  if (!matchNodeSelectorMap(spec.nodeSelector, node.labels)) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required && !matchNodeSelectorTerms(required.nodeSelectorTerms, node)) return false;
  return true;
}

/** PreferredSchedulingTerms.Score: the sum of the weights of the matching preferred terms. */
export function preferredTermsScore(
  terms: readonly PreferredTermLike[] | undefined,
  node: NodeLabelsAndName
): number {
  let s = 0;
  for (const t of terms ?? []) if (t.weight !== 0 && matchNodeSelectorTerm(t.preference, node)) s += t.weight;
  return s;
}

/** The node of a Node object as the matchers read it. */
export function nodeLabelsAndName(node: {
  metadata: { name: string; labels?: Record<string, string> };
}): NodeLabelsAndName {
  return { labels: node.metadata.labels ?? {}, name: node.metadata.name };
}

/** The required node affinity of a pod against a Node object (DaemonSet controller's fitsNodeAffinity). */
export function podMatchesNode(
  pod: { spec?: PodSpecLike },
  node: { metadata: { name: string; labels?: Record<string, string> } }
): boolean {
  return podMatchesNodeSelectorAndAffinity(pod, nodeLabelsAndName(node));
}
