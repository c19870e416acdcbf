/**
 * Scale-up planning (cluster-autoscaler core/scaleup): for each node group below its max, which of
 * the unschedulable pods would fit on its template node, how many new nodes the binpacking
 * estimator needs for them, and which option the expanders choose.
 */
import { parse } from 'yaml';
import type { Cluster } from '../../cluster';
import type { KubeObject } from '../../api/types';
import { simulateScheduling } from '../../scheduler/simulate';
import { getResource, podRequests } from '../../scheduler/resources';
import { parseQuantity } from '../../api/quantity';
import { podKey } from '../util/pods';
import { daemonSetPodsFor, templateNode, type NodeGroup } from './template';

export type Expander = 'random' | 'most-pods' | 'least-waste' | 'least-nodes' | 'priority';
export const EXPANDERS: Expander[] = ['random', 'most-pods', 'least-waste', 'least-nodes', 'priority'];
export const PRIORITY_CONFIGMAP = 'cluster-autoscaler-priority-expander';
export const MAX_GROUP_SIZE_REACHED = 'max node group size reached';
/** orchestrator.BackoffReason */
export const BACKOFF_REASON = 'in backoff after failed scale-up';
/** orchestrator.NewMaxResourceLimitReached: `max cluster cpu, memory limit reached`. */
export const maxResourceLimitReached = (resources: string[]) =>
  `max cluster ${resources.join(', ')} limit reached`;

export interface ScaleUpOption {
  group: string;
  current: number;
  newNodes: number;
  max: number;
  /** Pod keys the new nodes would take. */
  pods: string[];
  /** Requests and allocatable (milli) over the new nodes, for least-waste. */
  requested: { cpu: number; memory: number };
  available: { cpu: number; memory: number };
}

export interface ScaleUpPlan {
  options: ScaleUpOption[];
  best?: ScaleUpOption;
  /** Pod key → `pod didn't trigger scale-up: ...` reasons, for pods no option helps. */
  notHelped: Record<string, string>;
}

function templates(cluster: Cluster, group: NodeGroup, n: number): { nodes: KubeObject[]; ds: KubeObject[] } {
  const nodes: KubeObject[] = [];
  const ds: KubeObject[] = [];
  for (let i = 0; i < n; i++) {
    const node = templateNode(cluster, group, `template-node-for-${group.name}-${i + 1}`);
    nodes.push(node);
    ds.push(...daemonSetPodsFor(cluster, node));
  }
  return { nodes, ds };
}

/** Plan a scale-up for `pending` given each group's current target size. */
export function planScaleUp(
  cluster: Cluster,
  groups: NodeGroup[],
  sizes: Record<string, number>,
  pending: KubeObject[],
  expanders: Expander[],
  /** Groups not considered, with the reason (backoff, cluster-wide resource limits). */
  skipped: Record<string, string> = {}
): ScaleUpPlan {
  const reasons: Record<string, Record<string, number>> = {};
  const note = (pod: string, r: string) => {
    const m = (reasons[pod] ??= {});
    m[r] = (m[r] ?? 0) + 1;
  };
  const options: ScaleUpOption[] = [];
  // Pods that fit some group's template: they get no NotTriggerScaleUp even when max limits them.
  const schedulable = new Set<string>();
  for (const group of groups) {
    const current = sizes[group.name] ?? 0;
    // IsNodeGroupReadyToScaleUp (backoff) comes before the max-size check, resource limits after.
    if (skipped[group.name] === BACKOFF_REASON) {
      for (const p of pending) note(podKey(p), BACKOFF_REASON);
      continue;
    }
    if (current >= group.max) {
      for (const p of pending) note(podKey(p), MAX_GROUP_SIZE_REACHED);
      continue;
    }
    if (skipped[group.name]) {
      for (const p of pending) note(podKey(p), skipped[group.name]);
      continue;
    }
    // Which pods fit on one empty template node at all (the filters, with DaemonSet pods placed).
    const one = templates(cluster, group, 1);
    const fits: KubeObject[] = [];
    for (const p of pending) {
      const r = simulateScheduling({ nodes: one.nodes, pods: [...one.ds, p], explain: true }).pods[0];
      if (r?.selectedNode) {
        fits.push(p);
        schedulable.add(podKey(p));
      } else {
        const f = Object.values(r?.nodes ?? {})[0]?.filter ?? {};
        const rs = Object.values(f).flatMap((x) => x.reasons);
        for (const reason of rs.length ? rs : [r?.message ?? 'unschedulable']) note(podKey(p), reason);
      }
    }
    if (!fits.length) continue;
    // Binpacking estimator: add template nodes until every fitting pod is placed or max is hit.
    let best: { n: number; placed: string[]; nodes: KubeObject[] } | undefined;
    for (let n = 1; n <= group.max - current; n++) {
      const t = templates(cluster, group, n);
      const res = simulateScheduling({ nodes: t.nodes, pods: [...t.ds, ...fits], explain: false });
      const placed = res.pods.filter((x) => x.selectedNode).map((x) => x.pod);
      best = { n, placed, nodes: t.nodes };
      if (placed.length === fits.length) break;
    }
    if (!best) continue;
    const placedSet = new Set(best.placed);
    const alloc = best.nodes[0].status.allocatable as Record<string, string>;
    const requested = { cpu: 0, memory: 0 };
    for (const p of fits) {
      if (!placedSet.has(podKey(p))) continue;
      const r = podRequests(p);
      requested.cpu += getResource(r, 'cpu');
      requested.memory += getResource(r, 'memory');
    }
    options.push({
      group: group.name,
      current,
      newNodes: best.n,
      max: group.max,
      pods: best.placed,
      requested,
      available: {
        cpu: parseQuantity(alloc.cpu ?? '0') * best.n,
        memory: parseQuantity(alloc.memory ?? '0') * best.n
      }
    });
  }
  const helped = new Set([...options.flatMap((o) => o.pods), ...schedulable]);
  const notHelped: Record<string, string> = {};
  for (const p of pending) {
    const k = podKey(p);
    if (helped.has(k)) continue;
    const m = reasons[k] ?? {};
    const parts = Object.keys(m)
      .sort()
      .map((r) => `${m[r]} ${r}`);
    notHelped[k] = parts.length
      ? `pod didn't trigger scale-up: ${parts.join(', ')}`
      : "pod didn't trigger scale-up (it wouldn't fit if a new node is added)";
  }
  const best = options.length ? choose(cluster, options, expanders) : undefined;
  return { options, best, notHelped };
}

/** The expander chain: each keeps its best options, then a random choice among what is left. */
export function choose(cluster: Cluster, options: ScaleUpOption[], expanders: Expander[]): ScaleUpOption {
  let left = options;
  for (const e of expanders) {
    if (left.length <= 1) break;
    left = filterBest(cluster, left, e);
  }
  return left.length === 1 ? left[0] : left[cluster.engine.random.int(left.length)];
}

function keepMin(options: ScaleUpOption[], score: (o: ScaleUpOption) => number): ScaleUpOption[] {
  const scores = options.map(score);
  const min = Math.min(...scores);
  return options.filter((_, i) => scores[i] === min);
}

function filterBest(cluster: Cluster, options: ScaleUpOption[], e: Expander): ScaleUpOption[] {
  switch (e) {
    case 'random':
      return [options[cluster.engine.random.int(options.length)]];
    case 'most-pods':
      return keepMin(options, (o) => -o.pods.length);
    case 'least-nodes':
      return keepMin(options, (o) => o.newNodes);
    case 'least-waste':
      // leastwaste: wasted CPU share + wasted memory share of the new nodes.
      return keepMin(options, (o) => {
        const cpu = o.available.cpu ? (o.available.cpu - o.requested.cpu) / o.available.cpu : 0;
        const mem = o.available.memory ? (o.available.memory - o.requested.memory) / o.available.memory : 0;
        return cpu + mem;
      });
    case 'priority':
      return byPriority(cluster, options);
  }
}

/** priority expander: `priorities` maps a priority to group-name regexps; highest match wins. */
function byPriority(cluster: Cluster, options: ScaleUpOption[]): ScaleUpOption[] {
  const cm = cluster.api.tryGet<KubeObject>('ConfigMap', 'kube-system', PRIORITY_CONFIGMAP);
  let table: Record<string, string[]> = {};
  try {
    table =
      (parse(String((cm?.data as Record<string, string> | undefined)?.priorities ?? '')) as Record<
        string,
        string[]
      >) ?? {};
  } catch {
    return options;
  }
  const prio = (o: ScaleUpOption) => {
    let best = -Infinity;
    for (const [p, res] of Object.entries(table)) {
      for (const re of res ?? []) if (new RegExp(re).test(o.group)) best = Math.max(best, Number(p));
    }
    return best;
  };
  const top = keepMin(options, (o) => -prio(o));
  return top.length && prio(top[0]) > -Infinity ? top : options;
}
