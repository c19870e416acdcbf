/**
 * DefaultPreemption (PostFilter): when no node fits, find nodes where evicting lower-priority
 * pods would let the pod fit, keep as few and as unimportant victims as possible (reprieve the
 * most important first), pick one node the way pickOneNodeForPreemption does, and nominate it.
 * PodDisruptionBudgets are not modelled, so no candidate violates one.
 */
import { addPod, cloneNodeInfo, removePod } from '../nodeinfo';
import { fitErrorMessage } from '../fiterror';
import { status, type Handle, type NodeInfo, type Plugin, type PodInfo, type Status } from '../types';

export const Name = 'DefaultPreemption';
export const ErrReasonNotHelpful = 'Preemption is not helpful for scheduling';
export const ErrReasonNoVictims = 'No preemption victims found for incoming pod';

export interface DefaultPreemptionArgs {
  minCandidateNodesPercentage?: number;
  minCandidateNodesAbsolute?: number;
}

interface Candidate {
  node: string;
  victims: PodInfo[];
}

function terminatingByPreemption(p: PodInfo): boolean {
  if (!p.pod.metadata.deletionTimestamp) return false;
  const conds = (p.pod.status?.conditions ?? []) as { type: string; reason?: string }[];
  return conds.some((c) => c.type === 'DisruptionTarget' && c.reason === 'PreemptionByScheduler');
}

function startTime(p: PodInfo): number {
  const t = p.pod.status?.startTime ?? p.pod.metadata.creationTimestamp;
  return t ? Date.parse(t) : 0;
}

/** MoreImportantPod: higher priority, then the one that started earlier. */
function moreImportant(a: PodInfo, b: PodInfo): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  return startTime(a) - startTime(b);
}

export function calculateNumCandidates(numNodes: number, pct: number, abs: number): number {
  let n = Math.trunc((numNodes * pct) / 100);
  if (n < abs) n = abs;
  if (n > numNodes) n = numNodes;
  return n;
}

export function create(args: DefaultPreemptionArgs = {}): Plugin {
  const pct = args.minCandidateNodesPercentage ?? 10;
  const abs = args.minCandidateNodesAbsolute ?? 100;
  return {
    name: Name,
    postFilter(_s, pod, statuses, h) {
      const spec = pod.pod.spec ?? {};
      if (spec.preemptionPolicy === 'Never') {
        return { status: status('Unschedulable', 'preemption: not eligible due to preemptionPolicy=Never.') };
      }
      const nominated = pod.pod.status?.nominatedNodeName as string | undefined;
      const nn = nominated ? h.nodeByName.get(nominated) : undefined;
      // PodEligibleToPreemptOthers: wait for the victims of an earlier preemption to go away.
      if (
        nn &&
        statuses.get(nn.name)?.code !== 'UnschedulableAndUnresolvable' &&
        nn.pods.some((p) => p.priority < pod.priority && terminatingByPreemption(p))
      ) {
        return {
          status: status(
            'Unschedulable',
            'preemption: not eligible due to a terminating pod on the nominated node.'
          )
        };
      }
      const result = new Map<string, Status>();
      const potential: NodeInfo[] = [];
      for (const n of h.nodes) {
        const st = statuses.get(n.name);
        if (st && st.code === 'UnschedulableAndUnresolvable')
          result.set(n.name, status('UnschedulableAndUnresolvable', ErrReasonNotHelpful));
        else potential.push(n);
      }
      const candidates: Candidate[] = [];
      if (potential.length) {
        const want = calculateNumCandidates(potential.length, pct, abs);
        const offset = h.randomInt ? h.randomInt(potential.length) : 0;
        for (let i = 0; i < potential.length && candidates.length < want; i++) {
          const n = potential[(offset + i) % potential.length];
          const r = selectVictimsOnNode(pod, n, h);
          if ('victims' in r) candidates.push({ node: n.name, victims: r.victims });
          else result.set(n.name, r.status);
        }
      }
      if (!candidates.length) {
        return {
          status: status(
            'Unschedulable',
            'preemption: ' + fitErrorMessage(h.nodes.length, result, '', '', h.minor)
          ),
          nominatedNodeName: '',
          nodeStatuses: result
        };
      }
      const best = pickOne(candidates);
      return {
        status: status('Success'),
        nominatedNodeName: best.node,
        victims: best.victims.map((v) => ({ key: v.key, node: best.node }))
      };
    }
  };
}

function selectVictimsOnNode(
  pod: PodInfo,
  node: NodeInfo,
  h: Handle
): { victims: PodInfo[] } | { status: Status } {
  const copy = cloneNodeInfo(node);
  const potential = node.pods.filter((p) => p.priority < pod.priority);
  if (!potential.length) return { status: status('UnschedulableAndUnresolvable', ErrReasonNoVictims) };
  for (const p of potential) removePod(copy, p.key);
  const view = h.nodes.map((n) => (n === node ? copy : n));
  const fits = (): Status | null => (h.runFilters ? h.runFilters(pod, copy, view) : null);
  const st = fits();
  if (st) return { status: st };
  potential.sort(moreImportant);
  const victims: PodInfo[] = [];
  for (const p of potential) {
    addPod(copy, p);
    if (fits()) {
      removePod(copy, p.key);
      victims.push(p);
    }
  }
  if (!victims.length)
    return { status: status('Error', `expected at least one victim pod on node "${node.name}"`) };
  return { victims };
}

/** pickOneNodeForPreemption without PDBs: lowest top victim priority, lowest sum, fewest victims, latest start. */
function pickOne(cs: Candidate[]): Candidate {
  const top = (c: Candidate): number => Math.max(...c.victims.map((v) => v.priority));
  const sum = (c: Candidate): number => c.victims.reduce((s, v) => s + v.priority + 2147483648, 0);
  const earliestTop = (c: Candidate): number => {
    const t = top(c);
    return Math.min(...c.victims.filter((v) => v.priority === t).map(startTime));
  };
  let best = cs;
  for (const [f, dir] of [
    [top, 1],
    [sum, 1],
    [(c: Candidate) => c.victims.length, 1],
    [earliestTop, -1]
  ] as const) {
    if (best.length === 1) break;
    const vals = best.map((c) => f(c) * dir);
    const m = Math.min(...vals);
    best = best.filter((_, i) => vals[i] === m);
  }
  return best[0];
}
