/**
 * Scheduling explanations as a read model: the scheduler's recorded attempt (per node and plugin:
 * filter verdicts with upstream reason strings, raw / normalized / weighted scores, PreFilter and
 * PreScore Skip markers, the PostFilter result and the chosen node), plus a summary that counts
 * the rejections the way FitError does and names each (plugin, reason) pair's kind, so the lab's
 * plain-language explanation reads structure, never the FailedScheduling text.
 *
 * Built in the lab session (it imports the plugins' reason constants); the page imports only the
 * types from sim/observe.
 */
import type { Cluster } from '../cluster';
import { getSchedulingHistory } from '../scheduler/component';
import type { SchedulingAttempt } from '../scheduler/types';
import * as DefaultPreemption from '../scheduler/plugins/DefaultPreemption';
import * as InterPodAffinity from '../scheduler/plugins/InterPodAffinity';
import * as NodeAffinity from '../scheduler/plugins/NodeAffinity';
import * as NodeName from '../scheduler/plugins/NodeName';
import * as NodePorts from '../scheduler/plugins/NodePorts';
import * as NodeResourcesFit from '../scheduler/plugins/NodeResourcesFit';
import * as NodeUnschedulable from '../scheduler/plugins/NodeUnschedulable';
import * as PodTopologySpread from '../scheduler/plugins/PodTopologySpread';
import * as TaintToleration from '../scheduler/plugins/TaintToleration';

/** What a rejection means, one key per sentence of the lab's explanation (`lab.explain.<kind>`). */
export type RejectionKind =
  | 'insufficient'
  | 'tooManyPods'
  | 'taint'
  | 'nodeAffinity'
  | 'unschedulable'
  | 'ports'
  | 'spread'
  | 'podAffinity'
  | 'podAntiAffinity'
  | 'existingAntiAffinity'
  | 'nodeName'
  | 'preemptionNotHelpful'
  | 'noVictims';

export interface Rejection {
  plugin: string;
  /** The upstream reason string. */
  reason: string;
  /** Nodes that gave this reason. */
  count: number;
  /** Absent for a reason the lab has no sentence for: show `<count> <reason>`. */
  kind?: RejectionKind;
  /** For `insufficient`: the resource name. */
  resource?: string;
}

export interface SchedulingSummary {
  totalNodes: number;
  /** The cluster had no nodes at all (ErrNoNodesAvailable). */
  noNodes: boolean;
  /** Evaluated nodes that passed every filter. */
  passed: number;
  selectedNode: string | null;
  /** Filter (or PreFilter) rejections, counted per reason and sorted as FitError sorts them. */
  rejections: Rejection[];
  /** Why preemption could not make room, counted per reason. */
  preemption: Rejection[];
  /** A message that is not a count of reasons (a PreemptionPolicy note, a bind error). */
  notes: string[];
}

/** The attempt exactly as the scheduler recorded it, with its summary. */
export type SchedulingExplanation = SchedulingAttempt & { summary: SchedulingSummary };

const KINDS: Record<string, Record<string, RejectionKind>> = {
  [NodeResourcesFit.Name]: { [NodeResourcesFit.ErrReasonTooManyPods]: 'tooManyPods' },
  [TaintToleration.Name]: { [TaintToleration.ErrReasonNotMatch]: 'taint' },
  [NodeAffinity.Name]: { [NodeAffinity.ErrReasonPod]: 'nodeAffinity' },
  [NodeUnschedulable.Name]: { [NodeUnschedulable.ErrReasonUnschedulable]: 'unschedulable' },
  [NodePorts.Name]: { [NodePorts.ErrReason]: 'ports' },
  [PodTopologySpread.Name]: {
    [PodTopologySpread.ErrReasonConstraintsNotMatch]: 'spread',
    [PodTopologySpread.ErrReasonNodeLabelNotMatch]: 'spread'
  },
  [InterPodAffinity.Name]: {
    [InterPodAffinity.ErrReasonAffinityRulesNotMatch]: 'podAffinity',
    [InterPodAffinity.ErrReasonAntiAffinityRulesNotMatch]: 'podAntiAffinity',
    [InterPodAffinity.ErrReasonExistingAntiAffinityRulesNotMatch]: 'existingAntiAffinity'
  },
  [NodeName.Name]: { [NodeName.ErrReason]: 'nodeName' },
  [DefaultPreemption.Name]: {
    [DefaultPreemption.ErrReasonNotHelpful]: 'preemptionNotHelpful',
    [DefaultPreemption.ErrReasonNoVictims]: 'noVictims'
  }
};

const INSUFFICIENT = NodeResourcesFit.insufficient('');
const OLD_TAINT_REASON = 'node(s) had untolerated taint {';

function classify(plugin: string, reason: string): Pick<Rejection, 'kind' | 'resource'> {
  const kind = KINDS[plugin]?.[reason];
  if (kind) return { kind };
  // TaintToleration before v1.35 named the taint in its reason.
  if (plugin === TaintToleration.Name && reason.startsWith(OLD_TAINT_REASON)) return { kind: 'taint' };
  if (plugin === NodeResourcesFit.Name && reason.startsWith(INSUFFICIENT)) {
    const resource = reason.slice(INSUFFICIENT.length);
    if (NodeResourcesFit.insufficient(resource) === reason) return { kind: 'insufficient', resource };
  }
  return {};
}

/** Count reasons per node, sorted as FitError's histogram ("<count> <reason>", byte order). */
function histogram(verdicts: Iterable<{ plugin: string; reasons: readonly string[] }>): Rejection[] {
  const counts = new Map<string, Rejection>();
  for (const v of verdicts) {
    for (const reason of v.reasons) {
      const r = counts.get(reason);
      if (r) r.count++;
      else counts.set(reason, { plugin: v.plugin, reason, count: 1, ...classify(v.plugin, reason) });
    }
  }
  const key = (r: Rejection) => `${r.count} ${r.reason}`;
  return [...counts.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const failing = (code: string) => code !== 'Success' && code !== 'Skip';

export function summarize(a: SchedulingAttempt): SchedulingSummary {
  const s: SchedulingSummary = {
    totalNodes: a.totalNodes,
    noNodes: a.totalNodes === 0,
    passed: 0,
    selectedNode: a.selectedNode,
    rejections: [],
    preemption: [],
    notes: []
  };
  if (s.noNodes) return s;
  const pre = Object.entries(a.preFilter).find(([, st]) => failing(st.code));
  if (pre) {
    s.rejections = [{ plugin: pre[0], reason: pre[1].reasons.join(', '), count: a.totalNodes }];
  } else {
    const verdicts: { plugin: string; reasons: string[] }[] = [];
    for (const n of Object.values(a.nodes)) {
      const f = Object.entries(n.filter).find(([, st]) => failing(st.code));
      if (f) verdicts.push({ plugin: f[0], reasons: f[1].reasons });
      else s.passed++;
    }
    s.rejections = histogram(verdicts);
  }
  const pf = a.postFilter;
  if (pf?.nodes) {
    // A node where removing victims was not enough carries the filter's own verdict and plugin.
    s.preemption = histogram(
      Object.values(pf.nodes).map((st) => ({
        plugin: st.plugin ?? DefaultPreemption.Name,
        reasons: st.reasons
      }))
    );
  } else if (pf && failing(pf.code) && pf.reasons.length) {
    s.notes.push(pf.reasons.join(', ').replace(/^preemption: /, ''));
  }
  if (!a.selectedNode && !s.rejections.length && a.message) s.notes.push(a.message);
  return s;
}

export function explainAttempt(a: SchedulingAttempt): SchedulingExplanation {
  return { ...a, summary: summarize(a) };
}

/** The explained attempts the scheduler keeps for a pod (`<namespace>/<name>`), oldest first. */
export function schedulingExplanations(cluster: Cluster, podKey: string): SchedulingExplanation[] {
  return getSchedulingHistory(cluster, podKey).map(explainAttempt);
}
