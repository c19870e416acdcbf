/**
 * NodeAffinity (PreFilter, Filter, PreScore, Score): nodeSelector and required node affinity must
 * match; preferred terms add their weights, normalized by the maximum (DefaultNormalizeScore).
 * `addedAffinity` (NodeAffinityArgs) is enforced on every pod of the profile.
 */
import type { NodeAffinity, PreferredSchedulingTerm } from 'kubernetes-types/core/v1';
import { normalizeByMax } from '../helpers';
import type { KubeObject } from '../../api/types';
import {
  matchNodeSelectorTerms,
  nodeLabelsAndName,
  podMatchesNodeSelectorAndAffinity as corev1Matches,
  preferredTermsScore
} from '../../api/corev1/nodeaffinity';
import type { QueueingHint } from '../events';
import { status, type NodeInfo, type Plugin, type PodInfo } from '../types';

export const Name = 'NodeAffinity';
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
export const ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";

export interface NodeAffinityArgs {
  addedAffinity?: NodeAffinity;
}

export function podMatchesNodeSelectorAndAffinity(pod: PodInfo, node: NodeInfo): boolean {
  return corev1Matches(pod.pod, node);
}

const preScoreKey = 'PreScore' + Name;

export function create(args: NodeAffinityArgs = {}): Plugin {
  const added = args.addedAffinity;
  const addedTerms = added?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const addedPreferred = added?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  /**
   * isSchedulableAfterNodeChange: an added node that matches the pod's required node affinity (and
   * the profile's addedAffinity), or an updated one that matches now and did not before.
   */
  const isSchedulableAfterNodeChange = (
    pod: KubeObject,
    oldNode: KubeObject | undefined,
    newNode: KubeObject | undefined
  ): QueueingHint => {
    if (!newNode) return 'QueueSkip';
    const after = nodeLabelsAndName(newNode);
    if (addedTerms && !matchNodeSelectorTerms(addedTerms, after)) return 'QueueSkip';
    if (!corev1Matches(pod, after)) return 'QueueSkip';
    if (!oldNode) return 'Queue';
    return corev1Matches(pod, nodeLabelsAndName(oldNode)) ? 'QueueSkip' : 'Queue';
  };
  return {
    name: Name,
    // No preCheck with queueing hints: Node Add and UpdateNodeLabel only.
    eventsToRegister: () => [
      { events: ['NodeAdd', 'NodeUpdateNodeLabel'], hint: isSchedulableAfterNodeChange }
    ],
    preFilter(_s, pod) {
      const spec = pod.pod.spec ?? {};
      const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (!required && !spec.nodeSelector && !addedTerms) return status('Skip');
      return null;
    },
    filter(_s, pod, node) {
      if (addedTerms && !matchNodeSelectorTerms(addedTerms, node)) {
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
      return preferredTermsScore(terms, node);
    },
    normalizeScore(_s, _p, scores) {
      normalizeByMax(scores, false);
    }
  };
}
