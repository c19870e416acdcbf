/**
 * NodeAffinity (PreFilter, Filter, PreScore, Score): nodeSelector and required node affinity must
 * match; preferred terms add their weights, normalized by the maximum (DefaultNormalizeScore).
 * `addedAffinity` (NodeAffinityArgs) is enforced on every pod of the profile.
 */
import type { NodeAffinity, NodeSelectorTerm, PreferredSchedulingTerm } from 'kubernetes-types/core/v1';
import { matchNodeSelectorTerm, matchNodeSelectorTerms, normalizeByMax } from '../helpers';
import { status, type NodeInfo, type Plugin, type PodInfo } from '../types';

export const Name = 'NodeAffinity';
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
export const ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";

export interface NodeAffinityArgs {
  addedAffinity?: NodeAffinity;
}

export function podMatchesNodeSelectorAndAffinity(pod: PodInfo, node: NodeInfo): boolean {
  const sel = pod.pod.spec?.nodeSelector as Record<string, string> | undefined;
  if (sel) for (const k in sel) if (node.labels[k] !== sel[k]) return false;
  const terms = pod.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms as NodeSelectorTerm[] | undefined;
  if (terms && !matchNodeSelectorTerms(terms, node.labels, node.name)) return false;
  return true;
}

const preScoreKey = 'PreScore' + Name;

export function create(args: NodeAffinityArgs = {}): Plugin {
  const added = args.addedAffinity;
  const addedTerms = added?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const addedPreferred = added?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return {
    name: Name,
    preFilter(_s, pod) {
      const spec = pod.pod.spec ?? {};
      const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (!required && !spec.nodeSelector && !addedTerms) return status('Skip');
      return null;
    },
    filter(_s, pod, node) {
      if (addedTerms && !matchNodeSelectorTerms(addedTerms, node.labels, node.name)) {
        return status('UnschedulableAndUnresolvable', ErrReasonEnforced);
      }
      if (!podMatchesNodeSelectorAndAffinity(pod, node)) {
        return status('UnschedulableAndUnresolvable', ErrReasonPod);
      }
      return null;
    },
    preScore(state, pod) {
      const preferred = (pod.pod.spec?.affinity?.nodeAffinity
        ?.preferredDuringSchedulingIgnoredDuringExecution ?? []) as PreferredSchedulingTerm[];
      const all = [...addedPreferred, ...preferred].filter((t) => t.weight !== 0);
      if (!all.length) return status('Skip');
      state.set(preScoreKey, all);
      return null;
    },
    score(state, _pod, node) {
      const terms = (state.get(preScoreKey) ?? []) as PreferredSchedulingTerm[];
      let s = 0;
      for (const t of terms) if (matchNodeSelectorTerm(t.preference, node.labels, node.name)) s += t.weight;
      return s;
    },
    normalizeScore(_s, _p, scores) {
      normalizeByMax(scores, false);
    }
  };
}
