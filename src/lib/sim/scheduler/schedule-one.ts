/**
 * One scheduling cycle (pkg/scheduler/schedule_one.go): PreFilter, Filter over a share of the
 * nodes from a round-robin start index, PostFilter when nothing fits, PreScore/Score/Normalize,
 * selectHost with reservoir sampling over the best scores, then Reserve, Permit and Bind.
 */
import {
  AttemptBuilder,
  materializeAttempt,
  nodeRing,
  packColumn,
  statusRecord,
  type AttemptRecord
} from './explanation';
import { fitErrorMessage } from './fiterror';
import type { Framework, FilterRecord } from './framework';
import type { Code, CycleState, Handle, NodeInfo, PodInfo, SchedulingAttempt, Status } from './types';

/** schedule_one.go minFeasibleNodesToFind and minFeasibleNodesPercentageToFind. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

export function numFeasibleNodesToFind(percentage: number | undefined, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let adaptive = percentage ?? 0;
  if (adaptive >= 100) return numAllNodes;
  if (adaptive <= 0) {
    adaptive = 50 - Math.trunc(numAllNodes / 125);
    if (adaptive < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) adaptive = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const n = Math.trunc((numAllNodes * adaptive) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

export interface CycleOptions {
  /** Round-robin start index into the node list; updated by the cycle. */
  nextStartNodeIndex: number;
  percentageOfNodesToScore?: number;
  minor: number;
  randomInt(n: number): number;
  explain: boolean;
  now: number;
  /** Bind: returns an error message when the write failed. */
  bind(pod: PodInfo, node: string): string | null;
}

export interface CycleResult {
  selectedNode: string | null;
  message: string;
  nominatedNodeName?: string;
  victims?: { key: string; node: string }[];
  /** An Error (bind failed): retried with backoff, not counted as unschedulable. */
  error?: string;
  /** Plugins whose rejections made the pod unschedulable (queueing hints). */
  unschedulablePlugins: string[];
  /** The attempt's explanation as kept (when explaining). */
  record: AttemptRecord | null;
  /** The same, in the shape the explanation views read (built when read). */
  readonly attempt: SchedulingAttempt | null;
  nextStartNodeIndex: number;
}

/**
 * Scratch arrays reused from cycle to cycle (one cycle runs at a time; nothing keeps them): the
 * filter verdicts of a batch, the positions 0..n-1, the weighted totals and one plugin's scores.
 */
let verdicts: (Status | null)[] = [];
let iota = new Int32Array(0);
let totals = new Float64Array(0);
let scoreBuf: number[] = [];

function positions(from: number, count: number, numAll: number): Int32Array {
  if (from + count <= numAll) {
    if (iota.length < numAll) {
      iota = new Int32Array(numAll);
      for (let i = 0; i < numAll; i++) iota[i] = i;
    }
    return iota.subarray(from, from + count);
  }
  const pos = new Int32Array(count);
  for (let k = 0; k < count; k++) pos[k] = (from + k) % numAll;
  return pos;
}

export function scheduleOne(
  fw: Framework,
  baseHandle: Handle,
  pod: PodInfo,
  opts: CycleOptions
): CycleResult {
  const h = baseHandle;
  const nodes = h.nodes;
  const numAll = nodes.length;
  const explain = opts.explain;
  const attempt = explain ? new AttemptBuilder(opts.now, pod.key, fw.name, numAll) : null;
  const out = (
    r: Omit<CycleResult, 'attempt' | 'record' | 'nextStartNodeIndex'>,
    next: number
  ): CycleResult => {
    let record: AttemptRecord | null = null;
    if (attempt) {
      attempt.selectedNode = r.selectedNode;
      attempt.message = r.message || r.error || '';
      if (r.nominatedNodeName) attempt.nominatedNodeName = r.nominatedNodeName;
      if (r.victims?.length) attempt.victims = r.victims.map((v) => v.key);
      record = attempt.finish();
    }
    let read: SchedulingAttempt | null | undefined;
    return {
      ...r,
      record,
      get attempt() {
        return read === undefined ? (read = record && materializeAttempt(record)) : read;
      },
      nextStartNodeIndex: next
    };
  };
  const state: CycleState = new Map();
  const skipped = new Set<string>();
  const statuses = new Map<string, Status>();
  let next = opts.nextStartNodeIndex;
  if (numAll === 0) {
    return out(
      {
        selectedNode: null,
        // ErrNoNodesAvailable (schedule_one.go): not a FitError, so no "0/0 nodes are available".
        message: 'no nodes available to schedule pods',
        unschedulablePlugins: []
      },
      next
    );
  }
  const preRecord = attempt ? (attempt.preFilter as FilterRecord) : undefined;
  const preSt = fw.runPreFilter(state, pod, h, skipped, preRecord);
  let feasible: NodeInfo[] = [];
  /** Positions of the feasible nodes in `nodes` (and h.columns), when the walk found them. */
  let feasibleAt: Int32Array | undefined;
  if (preSt) {
    for (const n of nodes) statuses.set(n.name, preSt);
  } else {
    const active = fw.activeFilters(skipped);
    if (attempt)
      attempt.filters(
        fw.points.filter.filter((p) => skipped.has(p.name)).map((p) => p.name),
        active.map((p) => p.name)
      );
    // evaluateNominatedNode: a pod that preempted tries its nominated node first.
    const nominated = pod.pod.status?.nominatedNodeName as string | undefined;
    const nn = nominated ? h.nodeByName.get(nominated) : undefined;
    if (nn) {
      const st = fw.runFilter(state, pod, nn, h, active);
      if (attempt) attempt.nominated(nn.name, st?.plugin, st?.code ?? 'Success', st ? st.reasons : null);
      if (!st) feasible = [nn];
    }
    if (!feasible.length) {
      const want = numFeasibleNodesToFind(
        fw.profile.percentageOfNodesToScore ?? opts.percentageOfNodesToScore,
        numAll
      );
      let processed = 0;
      const start = next % numAll;
      if (attempt) attempt.walk(nodeRing(nodes), start);
      // Each plugin filters a chunk of nodes in one loop (the same verdicts as node by node). A
      // chunk never holds more nodes than feasible ones still wanted, so the walk stops exactly
      // where the one-node-at-a-time walk would; an attempt records each node's verdict in order.
      const at: number[] = [];
      while (feasible.length < want && processed < numAll) {
        const chunk = Math.min(want - feasible.length, numAll - processed);
        const from = (start + processed) % numAll;
        const cand =
          from + chunk <= numAll
            ? nodes.slice(from, from + chunk)
            : nodes.slice(from).concat(nodes.slice(0, from + chunk - numAll));
        const pos = positions(from, chunk, numAll);
        if (verdicts.length < chunk) verdicts = new Array<Status | null>(chunk).fill(null);
        else verdicts.fill(null, 0, chunk);
        const out = verdicts;
        fw.runFilterBatch(state, pod, cand, out, h, active, pos);
        let passed = 0;
        for (let k = 0; k < chunk; k++) {
          const st = out[k];
          if (attempt) attempt.node(cand[k].name, st?.plugin, st?.code ?? 'Success', st ? st.reasons : null);
          if (st) statuses.set(cand[k].name, st);
          else passed++;
        }
        if (passed === chunk && feasible.length === 0) {
          feasible = cand;
          feasibleAt = pos;
        } else {
          if (feasibleAt) at.push(...feasibleAt);
          feasibleAt = undefined;
          for (let k = 0; k < chunk; k++)
            if (out[k] === null) {
              feasible.push(cand[k]);
              at.push(pos[k]);
            }
        }
        processed += chunk;
      }
      if (!feasibleAt) feasibleAt = Int32Array.from(at);
      next = (start + processed) % numAll;
      if (attempt) attempt.evaluatedNodes = processed;
    } else if (attempt) attempt.evaluatedNodes = 1;
  }
  const unschedulablePlugins = statuses.size
    ? [...new Set([...statuses.values()].map((s) => s.plugin ?? ''))].filter(Boolean)
    : [];
  if (!feasible.length) {
    let postMsg = '';
    let nominatedNodeName: string | undefined;
    let victims: { key: string; node: string }[] | undefined;
    // PostFilter (preemption) also draws random numbers and runs the filters on copied nodes.
    const post: Handle = {
      ...baseHandle,
      randomInt: opts.randomInt,
      runFilters: (p, node, nodes) => fw.filtersFor(p, node, { ...baseHandle, nodes, columns: undefined })
    };
    for (const p of fw.points.postFilter) {
      const r = p.postFilter!(state, pod, statuses, post);
      if (attempt) {
        attempt.postFilter = { code: r.status.code, reasons: r.status.reasons.slice() };
        if (r.nodeStatuses?.size) {
          const nodes: Record<string, { code: Code; reasons: string[]; plugin?: string }> = {};
          for (const [n, st] of r.nodeStatuses)
            nodes[n] = {
              code: st.code,
              reasons: st.reasons.slice(),
              ...(st.plugin ? { plugin: st.plugin } : {})
            };
          attempt.postFilter.nodes = nodes;
        }
      }
      if (r.status.code === 'Success') {
        nominatedNodeName = r.nominatedNodeName;
        victims = r.victims;
        break;
      }
      postMsg = r.status.reasons.join(', ');
      if (r.status.code !== 'Unschedulable') break;
    }
    const message = fitErrorMessage(
      numAll,
      statuses,
      preSt ? preSt.reasons.join(', ') : '',
      postMsg,
      opts.minor
    );
    return out({ selectedNode: null, message, nominatedNodeName, victims, unschedulablePlugins }, next);
  }
  let selected: NodeInfo;
  if (feasible.length === 1) selected = feasible[0];
  else selected = scoreAndSelect(fw, state, pod, feasible, feasibleAt, h, opts, attempt);
  for (const p of fw.points.reserve) {
    const st = p.reserve!(state, pod, selected.name);
    if (st && st.code !== 'Success') {
      for (const q of fw.points.reserve) q.unreserve?.(state, pod, selected.name);
      return out(
        { selectedNode: null, message: '', error: st.reasons.join(', '), unschedulablePlugins: [p.name] },
        next
      );
    }
  }
  for (const p of fw.points.permit) {
    const st = p.permit!(state, pod, selected.name);
    if (st && st.code !== 'Success' && st.code !== 'Wait') {
      for (const q of fw.points.reserve) q.unreserve?.(state, pod, selected.name);
      return out(
        { selectedNode: null, message: st.reasons.join(', '), unschedulablePlugins: [p.name] },
        next
      );
    }
  }
  const err = opts.bind(pod, selected.name);
  if (err) {
    for (const q of fw.points.reserve) q.unreserve?.(state, pod, selected.name);
    return out({ selectedNode: null, message: '', error: err, unschedulablePlugins: [] }, next);
  }
  return out({ selectedNode: selected.name, message: '', unschedulablePlugins: [] }, next);
}

function scoreAndSelect(
  fw: Framework,
  state: CycleState,
  pod: PodInfo,
  feasible: NodeInfo[],
  at: Int32Array | undefined,
  h: Handle,
  opts: CycleOptions,
  attempt: AttemptBuilder | null
): NodeInfo {
  const skipped = new Set<string>();
  if (attempt) attempt.scoring();
  for (const p of fw.points.preScore) {
    const st = p.preScore!(state, pod, feasible, h);
    if (!st) continue;
    if (attempt) attempt.preScore[p.name] = statusRecord(st.code, st.reasons.slice());
    if (st.code === 'Skip') skipped.add(p.name);
  }
  const n = feasible.length;
  if (totals.length < n) totals = new Float64Array(n);
  else totals.fill(0, 0, n);
  const total = totals;
  const plugins = fw.points.score;
  if (scoreBuf.length !== n) scoreBuf = new Array<number>(n).fill(0);
  const scores = scoreBuf;
  for (let j = 0; j < plugins.length; j++) {
    const p = plugins[j];
    if (skipped.size && skipped.has(p.name)) continue;
    if (p.scoreAll) p.scoreAll(state, pod, feasible, scores, h, at);
    else for (let i = 0; i < feasible.length; i++) scores[i] = p.score!(state, pod, feasible[i], h);
    const raw = attempt ? packColumn(scores, n) : null;
    p.normalizeScore?.(state, pod, scores, feasible);
    const w = fw.weights[j];
    for (let i = 0; i < n; i++) total[i] += scores[i] * w;
    if (attempt) attempt.score(p.name, w, raw!, packColumn(scores, n));
  }
  // selectHost: reservoir sampling keeps every top-scoring node equally likely.
  let best = 0;
  let count = 1;
  for (let i = 1; i < n; i++) {
    if (total[i] > total[best]) {
      best = i;
      count = 1;
    } else if (total[i] === total[best]) {
      count++;
      if (opts.randomInt(count) === 0) best = i;
    }
  }
  return feasible[best];
}
