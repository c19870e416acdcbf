/**
 * InterPodAffinity (PreFilter, Filter, PreScore, Score). Required terms: the pod's affinity and
 * anti-affinity, and existing pods' anti-affinity against it, counted per topology pair.
 * Preferred terms (both directions) and existing pods' required affinity (hardPodAffinityWeight)
 * add weights per topology pair, normalized min-max to 0-100.
 */
import type { KubeObject, PodAffinityTerm, WeightedPodAffinityTerm } from '../../api/types';
import { matchLabelSelector } from '../../api/selectors';
import type { ClusterEventWithHint, QueueingHint } from '../events';
import { matchSelector } from '../helpers';
import { status, MAX_NODE_SCORE, type Handle, type NodeInfo, type Plugin, type PodInfo } from '../types';

export const Name = 'InterPodAffinity';
export const ErrReasonExistingAntiAffinityRulesNotMatch =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

export interface InterPodAffinityArgs {
  hardPodAffinityWeight?: number;
  ignorePreferredTermsOfExistingPods?: boolean;
}

/** Does `target` match `term` declared by a pod in namespace `ownerNs`? */
function termMatches(term: PodAffinityTerm, ownerNs: string, target: KubeObject, h: Handle): boolean {
  const ns = target.metadata.namespace ?? 'default';
  const nss = term.namespaces ?? [];
  let nsOk: boolean;
  if (!nss.length && !term.namespaceSelector) nsOk = ns === ownerNs;
  else {
    nsOk = nss.includes(ns);
    if (!nsOk && term.namespaceSelector)
      nsOk = matchLabelSelector(term.namespaceSelector, h.namespaceLabels(ns) ?? {});
  }
  return nsOk && matchSelector(term.labelSelector, target.metadata.labels);
}

const pair = (k: string, v: string): string => k + '\u0000' + v;

function required(pod: KubeObject, kind: 'podAffinity' | 'podAntiAffinity'): PodAffinityTerm[] {
  return pod.spec?.affinity?.[kind]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
}
function preferred(pod: KubeObject, kind: 'podAffinity' | 'podAntiAffinity'): WeightedPodAffinityTerm[] {
  return pod.spec?.affinity?.[kind]?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
}

/**
 * podMatchesAllAffinityTerms as the queueing hints call it: no terms match nothing; otherwise
 * `target` matches every term. The hints read the pending pod's terms without resolving their
 * namespaceSelector to namespaces and match with no namespace labels (`term.Matches(pod, nil)`):
 * a listed namespace (or the pod's own, when the term names none) matches, an empty selector
 * matches every namespace, any other selector none.
 */
function matchesAllTerms(terms: PodAffinityTerm[], owner: KubeObject, target: KubeObject): boolean {
  if (!terms.length) return false;
  const own = owner.metadata.namespace ?? 'default';
  const ns = target.metadata.namespace ?? 'default';
  return terms.every((t) => {
    const nss = t.namespaces?.length ? t.namespaces : t.namespaceSelector ? [] : [own];
    const sel = t.namespaceSelector;
    const everyNs =
      !!sel && !Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length;
    return (nss.includes(ns) || everyNs) && matchSelector(t.labelSelector, target.metadata.labels);
  });
}

/**
 * isSchedulableAfterPodChange: only pods on nodes count. An added pod that matches all the pod's
 * affinity terms, a deleted one that matched its anti-affinity terms, or a relabelled one that
 * starts matching the affinity or stops matching the anti-affinity may make room.
 */
export function isSchedulableAfterPodChange(
  pod: KubeObject,
  oldPod: KubeObject | undefined,
  newPod: KubeObject | undefined
): QueueingHint {
  if ((newPod && !newPod.spec?.nodeName) || (oldPod && !oldPod.spec?.nodeName)) return 'QueueSkip';
  const terms = required(pod, 'podAffinity');
  const anti = required(pod, 'podAntiAffinity');
  if (oldPod && newPod) {
    if (!matchesAllTerms(terms, pod, oldPod) && matchesAllTerms(terms, pod, newPod)) return 'Queue';
    if (matchesAllTerms(anti, pod, oldPod) && !matchesAllTerms(anti, pod, newPod)) return 'Queue';
    return 'QueueSkip';
  }
  if (newPod) return matchesAllTerms(terms, pod, newPod) ? 'Queue' : 'QueueSkip';
  return oldPod && matchesAllTerms(anti, pod, oldPod) ? 'Queue' : 'QueueSkip';
}

/**
 * isSchedulableAfterNodeChange. Affinity: a new node with one of the terms' topology keys, or an
 * updated node that gains a key or moves to another value of it. Anti-affinity: any new node (one
 * without the key satisfies it), or an updated node that loses a key or moves to another value.
 */
export function isSchedulableAfterNodeChange(
  pod: KubeObject,
  oldNode: KubeObject | undefined,
  newNode: KubeObject | undefined
): QueueingHint {
  if (!newNode) return 'QueueSkip';
  const after = newNode.metadata.labels ?? {};
  const before = oldNode?.metadata.labels;
  for (const t of required(pod, 'podAffinity')) {
    const k = t.topologyKey;
    if (!before) {
      if (k in after) return 'Queue';
    } else if (k in after && (!(k in before) || before[k] !== after[k])) return 'Queue';
  }
  for (const t of required(pod, 'podAntiAffinity')) {
    const k = t.topologyKey;
    if (!before) return 'Queue';
    if (k in before && (!(k in after) || before[k] !== after[k])) return 'Queue';
  }
  return 'QueueSkip';
}

/** Pod Add | UpdatePodLabel | Delete, and Node Add | UpdateNodeLabel (no preCheck, so no UpdateNodeTaint). */
const eventsToRegister = (): ClusterEventWithHint[] => [
  {
    events: ['AssignedPodAdd', 'AssignedPodUpdatePodLabel', 'AssignedPodDelete'],
    hint: isSchedulableAfterPodChange
  },
  { events: ['NodeAdd', 'NodeUpdateNodeLabel'], hint: isSchedulableAfterNodeChange }
];

interface FilterState {
  affinity: PodAffinityTerm[];
  anti: PodAffinityTerm[];
  existingAnti: Map<string, number>;
  affinityCounts: Map<string, number>;
  antiCounts: Map<string, number>;
}

export function create(args: InterPodAffinityArgs = {}): Plugin {
  const hardWeight = args.hardPodAffinityWeight ?? 1;
  const pfKey = 'PreFilter' + Name;
  const psKey = 'PreScore' + Name;
  const inc = (m: Map<string, number>, k: string, d: number): void => {
    m.set(k, (m.get(k) ?? 0) + d);
  };
  return {
    name: Name,
    eventsToRegister,
    preFilter(state, pod, h) {
      const affinity = required(pod.pod, 'podAffinity');
      const anti = required(pod.pod, 'podAntiAffinity');
      if (!affinity.length && !anti.length && h.stats.podsWithRequiredAntiAffinity === 0)
        return status('Skip');
      const existingAnti = new Map<string, number>();
      const affinityCounts = new Map<string, number>();
      const antiCounts = new Map<string, number>();
      let anyExistingAnti = false;
      for (const n of h.nodes) {
        if (n.podsWithRequiredAntiAffinity > 0) {
          anyExistingAnti = true;
          for (const ep of n.pods) {
            if (!ep.hasRequiredAntiAffinity) continue;
            for (const t of required(ep.pod, 'podAntiAffinity')) {
              const v = n.labels[t.topologyKey];
              if (v !== undefined && termMatches(t, ep.namespace, pod.pod, h))
                inc(existingAnti, pair(t.topologyKey, v), 1);
            }
          }
        }
        if (!affinity.length && !anti.length) continue;
        for (const ep of n.pods) {
          if (affinity.length && affinity.every((t) => termMatches(t, pod.namespace, ep.pod, h))) {
            for (const t of affinity) {
              const v = n.labels[t.topologyKey];
              if (v !== undefined) inc(affinityCounts, pair(t.topologyKey, v), 1);
            }
          }
          for (const t of anti) {
            const v = n.labels[t.topologyKey];
            if (v !== undefined && termMatches(t, pod.namespace, ep.pod, h))
              inc(antiCounts, pair(t.topologyKey, v), 1);
          }
        }
      }
      if (!affinity.length && !anti.length && !anyExistingAnti) return status('Skip');
      state.set(pfKey, { affinity, anti, existingAnti, affinityCounts, antiCounts } satisfies FilterState);
      return null;
    },
    filter(state, pod, node, h) {
      const s = state.get(pfKey) as FilterState | undefined;
      if (!s) return null;
      if (!satisfyAffinity(s, pod, node, h))
        return status('UnschedulableAndUnresolvable', ErrReasonAffinityRulesNotMatch);
      for (const t of s.anti) {
        const v = node.labels[t.topologyKey];
        if (v !== undefined && (s.antiCounts.get(pair(t.topologyKey, v)) ?? 0) > 0) {
          return status('Unschedulable', ErrReasonAntiAffinityRulesNotMatch);
        }
      }
      if (s.existingAnti.size) {
        for (const k in node.labels) {
          if ((s.existingAnti.get(pair(k, node.labels[k])) ?? 0) > 0) {
            return status('Unschedulable', ErrReasonExistingAntiAffinityRulesNotMatch);
          }
        }
      }
      return null;
    },
    preScore(state, pod, _nodes, h) {
      const prefAff = preferred(pod.pod, 'podAffinity');
      const prefAnti = preferred(pod.pod, 'podAntiAffinity');
      const hasConstraints = prefAff.length > 0 || prefAnti.length > 0;
      if (args.ignorePreferredTermsOfExistingPods && !hasConstraints) return status('Skip');
      if (!hasConstraints && h.stats.podsWithAffinity === 0) return status('Skip');
      const topo = new Map<string, number>();
      const process = (
        terms: WeightedPodAffinityTerm[],
        ownerNs: string,
        target: KubeObject,
        node: NodeInfo,
        mult: number
      ): void => {
        for (const wt of terms) {
          const t = wt.podAffinityTerm;
          const v = node.labels[t.topologyKey];
          if (v !== undefined && termMatches(t, ownerNs, target, h))
            inc(topo, pair(t.topologyKey, v), wt.weight * mult);
        }
      };
      for (const n of h.nodes) {
        if (!hasConstraints && n.podsWithAffinity === 0) continue;
        for (const ep of n.pods) {
          if (!hasConstraints && !ep.hasAffinityTerms) continue;
          process(prefAff, pod.namespace, ep.pod, n, 1);
          process(prefAnti, pod.namespace, ep.pod, n, -1);
          if (hardWeight > 0) {
            for (const t of required(ep.pod, 'podAffinity')) {
              const v = n.labels[t.topologyKey];
              if (v !== undefined && termMatches(t, ep.namespace, pod.pod, h))
                inc(topo, pair(t.topologyKey, v), hardWeight);
            }
          }
          if (!args.ignorePreferredTermsOfExistingPods) {
            process(preferred(ep.pod, 'podAffinity'), ep.namespace, pod.pod, n, 1);
            process(preferred(ep.pod, 'podAntiAffinity'), ep.namespace, pod.pod, n, -1);
          }
        }
      }
      if (!topo.size) return status('Skip');
      state.set(psKey, topo);
      return null;
    },
    score(state, _pod, node) {
      const topo = state.get(psKey) as Map<string, number>;
      let s = 0;
      for (const k in node.labels) s += topo.get(pair(k, node.labels[k])) ?? 0;
      return s;
    },
    normalizeScore(_s, _p, scores) {
      let min = Infinity;
      let max = -Infinity;
      for (const s of scores) {
        if (s > max) max = s;
        if (s < min) min = s;
      }
      const diff = max - min;
      for (let i = 0; i < scores.length; i++) {
        scores[i] = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((scores[i] - min) / diff)) : 0;
      }
    }
  };
}

function satisfyAffinity(s: FilterState, pod: PodInfo, node: NodeInfo, h: Handle): boolean {
  let podsExist = true;
  for (const t of s.affinity) {
    const v = node.labels[t.topologyKey];
    if (v === undefined) return false;
    if ((s.affinityCounts.get(pair(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  // The first pod of a group that is affine to itself may go anywhere the topology keys exist.
  return s.affinityCounts.size === 0 && s.affinity.every((t) => termMatches(t, pod.namespace, pod.pod, h));
}
