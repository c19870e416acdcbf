/**
 * PodTopologySpread (PreFilter, Filter, PreScore, Score). Hard constraints (DoNotSchedule) bound
 * the skew between topology domains; soft ones (ScheduleAnyway) score
 * `cnt × log(domains + 2) + (maxSkew − 1)` per constraint, normalized so fewer matching pods wins.
 * Pods without constraints get the cluster defaults (`defaultingType: System`) with a selector
 * built from the Services, ReplicaSets, RCs and StatefulSets that select them.
 */
import {
  deepFreeze,
  type KubeObject,
  type LabelSelector,
  type TopologySpreadConstraint
} from '../../api/types';
import type { QueueingHint } from '../events';
import { labelPairsOf, newPodInfo } from '../nodeinfo';
import { matchSelector } from '../helpers';
import { tolerationsTolerateTaint } from '../../api/corev1/taints';
import { status, MAX_NODE_SCORE, type Handle, type NodeInfo, type Plugin, type PodInfo } from '../types';
import type { NodeColumns } from '../columns';
import { podMatchesNodeSelectorAndAffinity } from './NodeAffinity';

export const Name = 'PodTopologySpread';
export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const ErrReasonNodeLabelNotMatch = ErrReasonConstraintsNotMatch + ' (missing required label)';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';

export interface PodTopologySpreadArgs {
  defaultConstraints?: TopologySpreadConstraint[];
  defaultingType?: 'System' | 'List';
}

/** systemDefaultConstraints (pkg/scheduler/framework/plugins/podtopologyspread/plugin.go). */
export const systemDefaultConstraints: TopologySpreadConstraint[] = [
  { topologyKey: HOSTNAME_LABEL, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 }
];

interface Constraint {
  maxSkew: number;
  key: string;
  minDomains: number;
  selector: LabelSelector;
  /** The selector as JSON and the pod's namespace (countMatching's cache key). */
  countKey: string;
  /** The selector's labels as `key\u0000value` when it has no expressions (else null). */
  pairs: string[] | null;
  honorAffinity: boolean;
  honorTaints: boolean;
}

function build(
  pod: PodInfo,
  raw: readonly TopologySpreadConstraint[],
  action: string,
  selector?: LabelSelector
): Constraint[] {
  const labels = pod.pod.metadata.labels ?? {};
  const out: Constraint[] = [];
  for (const c of raw) {
    if (c.whenUnsatisfiable !== action) continue;
    let sel: LabelSelector = selector ?? c.labelSelector ?? { matchLabels: {} };
    if (!selector && !c.labelSelector) continue;
    const keys = (c.matchLabelKeys ?? []).filter((k) => k in labels);
    if (keys.length) {
      sel = {
        matchLabels: sel.matchLabels,
        matchExpressions: [
          ...(sel.matchExpressions ?? []),
          ...keys.map((k) => ({ key: k, operator: 'In', values: [labels[k]] }))
        ]
      };
    }
    // Frozen: it is never changed, and frozen selectors are compiled once (matchLabelSelector).
    deepFreeze(sel);
    out.push({
      maxSkew: c.maxSkew,
      key: c.topologyKey,
      minDomains: c.minDomains ?? 1,
      selector: sel,
      countKey: JSON.stringify(sel) + '\u0000' + pod.namespace,
      pairs: sel.matchExpressions?.length ? null : labelPairsOf(sel.matchLabels),
      honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorTaints: c.nodeTaintsPolicy === 'Honor'
    });
  }
  return out;
}

/**
 * Matching pods per node, by selector and namespace. Scoring a pod counts every node's pods for the
 * same few selectors (one per workload). A count depends only on each pod's labels, namespace and
 * whether it is terminating, which `NodeInfo.podLabelsVersion` names: status writes, which replace
 * a node's pods many times while they start, keep it, so the counts stay. Keyed by node name and
 * checked by version, so a preemption dry run's copied node gets the counts its own pods give. One
 * table per plugin instance (per scheduler).
 */
interface CountEntry {
  version: number;
  counts: Map<string, number>;
}
type CountTable = Map<string, CountEntry>;

/** Pods on `node` in namespace `ns` (always the pod's own, as in `c.countKey`) matching `c`. */
function countMatching(counted: CountTable, node: NodeInfo, c: Constraint, ns: string): number {
  let entry = counted.get(node.name);
  if (!entry || entry.version !== node.podLabelsVersion) {
    entry = { version: node.podLabelsVersion, counts: new Map() };
    counted.set(node.name, entry);
  }
  const key = c.countKey;
  const hit = entry.counts.get(key);
  if (hit !== undefined) return hit;
  // A pair of the selector's that no pod of the namespace on the node carries: none match.
  if (c.pairs) {
    const present = node.labelPairs.get(ns);
    if (!present || c.pairs.some((kv) => !present.has(kv))) {
      entry.counts.set(key, 0);
      return 0;
    }
  }
  let n = 0;
  for (const p of node.pods) {
    if (p.pod.metadata.deletionTimestamp || p.namespace !== ns) continue;
    if (matchSelector(c.selector, p.pod.metadata.labels)) n++;
  }
  entry.counts.set(key, n);
  return n;
}

/**
 * Matching pods per topology domain over every node, for one constraint of one kind of pod: the
 * sums PreFilter and PreScore take over all nodes (`processAllNode`), kept per node position and
 * brought up to date from the positions the cache rewrote since (`NodeColumns.changedSince`), so a
 * cycle costs the nodes that changed, not every node. The figures are the same as the walk's: a
 * node counts when it has the keys (`requireAll`) and is `included` for the pod, so the key holds
 * everything that decides that — the constraint's selector and topology key, the pod's constraint
 * keys, and its node selection and tolerations where the policies honor them.
 */
interface DomainTotals {
  columns: NodeColumns;
  mark: number;
  /** Per position: the node's domain while it is counted, else undefined. */
  value: (string | undefined)[];
  count: number[];
  /** Domain → matching pods; a domain is present while some counted node is in it. */
  totals: Map<string, number>;
  /** Domain → counted nodes in it. */
  members: Map<string, number>;
}
type TotalsTable = Map<string, DomainTotals>;
/** Kinds of pod × constraint kept at once; past it the table starts again. */
const TOTALS_LIMIT = 512;

const specKeys = new WeakMap<object, { selection: string; tolerations: string }>();

/** The parts of the pod's spec `included` reads, as text, once per stored spec. */
function specKey(pod: PodInfo): { selection: string; tolerations: string } {
  const spec = pod.pod.spec ?? {};
  const hit = specKeys.get(spec);
  if (hit) return hit;
  const k = {
    selection: JSON.stringify([
      spec.nodeSelector ?? null,
      spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null
    ]),
    tolerations: JSON.stringify(spec.tolerations ?? null)
  };
  if (Object.isFrozen(spec)) specKeys.set(spec, k);
  return k;
}

/**
 * Every node's matching pods for `cs[i]`, summed per domain (`labels[key] ?? ''`), over the nodes
 * that have all of `cs`' keys (when `requireAll`) and are included for `pod`: the kept sums, or a
 * walk of every node when the handle has no columns to follow (a preemption dry run's copied
 * nodes). The kept map changes with later cycles: a caller that keeps it copies it.
 */
function domainTotals(
  table: TotalsTable,
  counted: CountTable,
  h: Handle,
  pod: PodInfo,
  cs: Constraint[],
  i: number,
  requireAll: boolean
): Map<string, number> {
  const kept = keptTotals(table, counted, h, pod, cs, i, requireAll, true);
  if (kept) return kept.totals;
  const c = cs[i];
  const totals = new Map<string, number>();
  for (const node of h.nodes) {
    if ((requireAll && !hasAllKeys(node, cs)) || !included(c, pod, node)) continue;
    const v = node.labels[c.key] ?? '';
    totals.set(v, (totals.get(v) ?? 0) + countMatching(counted, node, c, pod.namespace));
  }
  return totals;
}

/**
 * The kept per-position figures behind `domainTotals`; with `filtered` false every node counts
 * (Score's per-node counts for the hostname key read `count` by position).
 */
function keptTotals(
  table: TotalsTable,
  counted: CountTable,
  h: Handle,
  pod: PodInfo,
  cs: Constraint[],
  i: number,
  requireAll: boolean,
  filtered: boolean
): DomainTotals | null {
  const cols = h.columns;
  if (!cols || cols.flags.length !== h.nodes.length) return null;
  const c = cs[i];
  const sk = filtered && (c.honorAffinity || c.honorTaints) ? specKey(pod) : undefined;
  const key = !filtered
    ? c.countKey + '\u0001' + c.key
    : [
        c.countKey,
        c.key,
        requireAll ? cs.map((x) => x.key).join('\u0002') : '',
        c.honorAffinity ? sk!.selection : '',
        c.honorTaints ? sk!.tolerations : '',
        'filtered'
      ].join('\u0001');
  let t = table.get(key);
  const changed = t && t.columns === cols ? cols.changedSince(t.mark) : null;
  const set = (p: number) => {
    const node = h.nodes[p];
    const was = t!.value[p];
    if (was !== undefined) {
      const m = t!.members.get(was)! - 1;
      if (m === 0) {
        t!.members.delete(was);
        t!.totals.delete(was);
      } else {
        t!.members.set(was, m);
        t!.totals.set(was, t!.totals.get(was)! - t!.count[p]);
      }
    }
    if (filtered && ((requireAll && !hasAllKeys(node, cs)) || !included(c, pod, node))) {
      t!.value[p] = undefined;
      return;
    }
    const v = node.labels[c.key] ?? '';
    const n = countMatching(counted, node, c, pod.namespace);
    t!.value[p] = v;
    t!.count[p] = n;
    t!.members.set(v, (t!.members.get(v) ?? 0) + 1);
    t!.totals.set(v, (t!.totals.get(v) ?? 0) + n);
  };
  if (!t || !changed) {
    if (!t && table.size >= TOTALS_LIMIT) table.clear();
    const size = h.nodes.length;
    t = {
      columns: cols,
      mark: cols.mark,
      value: new Array<string | undefined>(size),
      count: new Array<number>(size).fill(0),
      totals: new Map(),
      members: new Map()
    };
    table.set(key, t);
    for (let p = 0; p < size; p++) set(p);
  } else {
    for (const p of changed) set(p);
    t.mark = cols.mark;
  }
  return t;
}

function hasAllKeys(node: NodeInfo, cs: Constraint[]): boolean {
  for (const c of cs) if (!(c.key in node.labels)) return false;
  return true;
}

function included(c: Constraint, pod: PodInfo, node: NodeInfo): boolean {
  if (c.honorAffinity && !podMatchesNodeSelectorAndAffinity(pod, node)) return false;
  if (c.honorTaints) {
    for (const t of node.taints) {
      if (
        (t.effect === 'NoSchedule' || t.effect === 'NoExecute') &&
        !tolerationsTolerateTaint(pod.pod.spec?.tolerations, t)
      )
        return false;
    }
  }
  return true;
}

interface PreFilterState {
  constraints: Constraint[];
  counts: Map<string, number>[];
  min: number[];
}

interface PreScoreState {
  constraints: Constraint[];
  counts: Map<string, number>[];
  weights: number[];
  ignored: Set<string>;
}

export function create(args: PodTopologySpreadArgs = {}): Plugin {
  const systemDefaulted = (args.defaultingType ?? 'System') === 'System';
  const defaults = systemDefaulted ? systemDefaultConstraints : (args.defaultConstraints ?? []);
  const constraintsFor = (pod: PodInfo, action: string, h: Handle): Constraint[] => {
    const own = (pod.pod.spec?.topologySpreadConstraints ?? []) as TopologySpreadConstraint[];
    if (own.length) return build(pod, own, action);
    // buildDefaultConstraints (podtopologyspread/common.go): the defaults for this action first, and
    // the default selector (Services, ReplicaSets... that select the pod) only when there are some.
    if (!defaults.some((c) => c.whenUnsatisfiable === action)) return [];
    const sels = h.selectorsFor(pod.pod);
    if (!sels.length) return [];
    const matchLabels: Record<string, string> = {};
    for (const s of sels) Object.assign(matchLabels, s);
    return build(pod, defaults, action, { matchLabels });
  };
  const counted: CountTable = new Map();
  const totalsTable: TotalsTable = new Map();
  const pfKey = 'PreFilter' + Name;
  const psKey = 'PreScore' + Name;
  /** getConstraints: the pod's hard (DoNotSchedule) constraints. */
  const hard = (pod: KubeObject, h: Handle) => constraintsFor(newPodInfo(pod), 'DoNotSchedule', h);
  const nodeMatches = (n: KubeObject | undefined, cs: Constraint[]) =>
    !!n && cs.every((c) => c.key in (n.metadata.labels ?? {}));
  const podMatches = (cs: Constraint[], labels: Record<string, string> | undefined) =>
    cs.some((c) => matchSelector(c.selector, labels));
  /** involvedInTopologySpreading: the waiting pod itself, or a pod on a node in its namespace. */
  const involved = (other: KubeObject, pod: KubeObject) =>
    other.metadata.uid === pod.metadata.uid ||
    (!!other.spec?.nodeName &&
      (other.metadata.namespace ?? 'default') === (pod.metadata.namespace ?? 'default'));
  /** isSchedulableAfterPodChange: a pod the constraints' selectors count was added, deleted or relabelled. */
  const isSchedulableAfterPodChange = (
    pod: KubeObject,
    oldPod: KubeObject | undefined,
    newPod: KubeObject | undefined,
    h: Handle
  ): QueueingHint => {
    if ((newPod && !involved(newPod, pod)) || (oldPod && !involved(oldPod, pod))) return 'QueueSkip';
    const cs = hard(pod, h);
    if (oldPod && newPod) {
      if (
        newPod.metadata.uid === pod.metadata.uid &&
        JSON.stringify(newPod.spec?.tolerations ?? []) !== JSON.stringify(oldPod.spec?.tolerations ?? []) &&
        cs.some((c) => c.honorTaints)
      )
        return 'Queue';
      const before = oldPod.metadata.labels;
      const after = newPod.metadata.labels;
      if (JSON.stringify(before ?? {}) === JSON.stringify(after ?? {})) return 'QueueSkip';
      return cs.some((c) => matchSelector(c.selector, before) !== matchSelector(c.selector, after))
        ? 'Queue'
        : 'QueueSkip';
    }
    const changed = newPod ?? oldPod;
    return changed && podMatches(cs, changed.metadata.labels) ? 'Queue' : 'QueueSkip';
  };
  /**
   * isSchedulableAfterNodeChange: an added or deleted node with every topologyKey; an updated node
   * that gains or loses one, or has them all and changes a key's value or its taints.
   */
  const isSchedulableAfterNodeChange = (
    pod: KubeObject,
    oldNode: KubeObject | undefined,
    newNode: KubeObject | undefined,
    h: Handle
  ): QueueingHint => {
    const cs = hard(pod, h);
    const was = nodeMatches(oldNode, cs);
    const is = nodeMatches(newNode, cs);
    if (oldNode && newNode) {
      if (was !== is) return 'Queue';
      const before = oldNode.metadata.labels ?? {};
      const after = newNode.metadata.labels ?? {};
      const keyChanged = cs.some((c) => before[c.key] !== after[c.key]);
      const taintsChanged =
        JSON.stringify(oldNode.spec?.taints ?? []) !== JSON.stringify(newNode.spec?.taints ?? []);
      return is && (keyChanged || taintsChanged) ? 'Queue' : 'QueueSkip';
    }
    return (newNode ? is : was) ? 'Queue' : 'QueueSkip';
  };
  /**
   * Score (and scoreAll): `cnt × weight + maxSkew − 1` per constraint the node has the key of. With
   * `at`, the hostname key's per-node counts are read by position from the kept figures.
   */
  const scoreNodes: NonNullable<Plugin['scoreAll']> = (state, pod, nodes, out, h, at) => {
    const s = state.get(psKey) as PreScoreState;
    const cs = s.constraints;
    // Score's per-node counts for the hostname key, kept by node position like the domain sums.
    const perNode = cs.map((c, i) =>
      at && c.key === HOSTNAME_LABEL ? keptTotals(totalsTable, counted, h, pod, cs, i, false, false) : null
    );
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k];
      if (s.ignored.size && s.ignored.has(node.name)) {
        out[k] = 0;
        continue;
      }
      let score = 0;
      for (let i = 0; i < cs.length; i++) {
        const c = cs[i];
        const v = node.labels[c.key];
        if (v === undefined) continue;
        const kept = perNode[i];
        const cnt =
          c.key === HOSTNAME_LABEL
            ? kept
              ? kept.count[at![k]]
              : countMatching(counted, node, c, pod.namespace)
            : (s.counts[i].get(v) ?? 0);
        score += cnt * s.weights[i] + (c.maxSkew - 1);
      }
      out[k] = Math.round(score);
    }
  };
  return {
    name: Name,
    eventsToRegister: () => [
      {
        events: [
          'AssignedPodAdd',
          'AssignedPodUpdatePodLabel',
          'AssignedPodDelete',
          'UnschedulablePodUpdate'
        ],
        hint: isSchedulableAfterPodChange
      },
      {
        events: ['NodeAdd', 'NodeDelete', 'NodeUpdateNodeLabel', 'NodeUpdateNodeTaint'],
        hint: isSchedulableAfterNodeChange
      }
    ],
    preFilter(state, pod, h) {
      const cs = constraintsFor(pod, 'DoNotSchedule', h);
      if (!cs.length) return status('Skip');
      // Every domain with a counted node (a copy: the kept sums move on with later cycles).
      const counts = cs.map((_, i) => new Map(domainTotals(totalsTable, counted, h, pod, cs, i, true)));
      const min = cs.map((c, i) => {
        if (counts[i].size < c.minDomains) return 0;
        let m = Infinity;
        for (const v of counts[i].values()) if (v < m) m = v;
        return m;
      });
      state.set(pfKey, { constraints: cs, counts, min } satisfies PreFilterState);
      return null;
    },
    filter(state, pod, node) {
      const s = state.get(pfKey) as PreFilterState | undefined;
      if (!s) return null;
      const podLabels = pod.pod.metadata.labels;
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i];
        const v = node.labels[c.key];
        if (v === undefined) return status('UnschedulableAndUnresolvable', ErrReasonNodeLabelNotMatch);
        const self = matchSelector(c.selector, podLabels) ? 1 : 0;
        const skew = (s.counts[i].get(v) ?? 0) + self - s.min[i];
        if (skew > c.maxSkew) return status('Unschedulable', ErrReasonConstraintsNotMatch);
      }
      return null;
    },
    preScore(state, pod, nodes, h) {
      const cs = constraintsFor(pod, 'ScheduleAnyway', h);
      if (!cs.length) return status('Skip');
      const requireAll = !!pod.pod.spec?.topologySpreadConstraints?.length || !systemDefaulted;
      const ignored = new Set<string>();
      const counts = cs.map(() => new Map<string, number>());
      const size = cs.map(() => 0);
      for (const n of nodes) {
        if (requireAll && !hasAllKeys(n, cs)) {
          ignored.add(n.name);
          continue;
        }
        for (let i = 0; i < cs.length; i++) {
          if (cs[i].key === HOSTNAME_LABEL) continue;
          const v = n.labels[cs[i].key] ?? '';
          if (!counts[i].has(v)) {
            counts[i].set(v, 0);
            size[i]++;
          }
        }
      }
      const weights = cs.map((c, i) =>
        Math.log((c.key === HOSTNAME_LABEL ? nodes.length - ignored.size : size[i]) + 2)
      );
      // The domains' counts over all nodes (per-node counts for the hostname key are Score's).
      for (let i = 0; i < cs.length; i++) {
        if (cs[i].key === HOSTNAME_LABEL) continue;
        const totals = domainTotals(totalsTable, counted, h, pod, cs, i, requireAll);
        for (const v of counts[i].keys()) counts[i].set(v, totals.get(v) ?? 0);
      }
      state.set(psKey, { constraints: cs, counts, weights, ignored } satisfies PreScoreState);
      return null;
    },
    score(state, pod, node, h) {
      const out = [0];
      scoreNodes(state, pod, [node], out, h);
      return out[0];
    },
    scoreAll: scoreNodes,
    normalizeScore(state, _pod, scores, nodes) {
      const s = state.get(psKey) as PreScoreState;
      let min = Infinity;
      let max = 0;
      for (let i = 0; i < scores.length; i++) {
        if (s.ignored.has(nodes[i].name)) continue;
        if (scores[i] < min) min = scores[i];
        if (scores[i] > max) max = scores[i];
      }
      for (let i = 0; i < scores.length; i++) {
        if (s.ignored.has(nodes[i].name)) scores[i] = 0;
        else if (max === 0) scores[i] = MAX_NODE_SCORE;
        else scores[i] = Math.trunc((MAX_NODE_SCORE * (max + min - scores[i])) / max);
      }
    }
  };
}
