/**
 * A profile's framework: the plugin instances per extension point and the runners for each point
 * (RunPreFilterPlugins, RunFilterPlugins, RunScorePlugins...), recording every verdict when asked.
 */
import type { ResolvedProfile } from './config';
import { buildQueueingHintMap, type QueueingHintMap } from './events';
import { SKIP_VERDICT as SKIP, SUCCESS_VERDICT as SUCCESS } from './explanation';
import { registry } from './registry';
import type { Code, CycleState, ExtensionPoint, Handle, NodeInfo, Plugin, PodInfo, Status } from './types';

export interface FilterRecord {
  [plugin: string]: { code: Code; reasons: string[] };
}

/**
 * The verdicts that carry no reasons, one frozen object each (shared by every recorded attempt).
 */
const SKIP_VERDICT = SKIP as { code: Code; reasons: string[] };
const SUCCESS_VERDICT = SUCCESS as { code: Code; reasons: string[] };

export class Framework {
  readonly profile: ResolvedProfile;
  readonly points: Record<ExtensionPoint, Plugin[]>;
  readonly weights: number[];
  /** The events each plugin that can reject a pod registered, with their queueing hints. */
  readonly queueingHints: QueueingHintMap;

  constructor(profile: ResolvedProfile, minor: number) {
    this.profile = profile;
    const instances = new Map<string, Plugin>();
    const get = (name: string): Plugin => {
      let p = instances.get(name);
      if (!p) {
        p = registry[name].create(profile.args[name] ?? {}, { minor });
        instances.set(name, p);
      }
      return p;
    };
    this.points = {} as Record<ExtensionPoint, Plugin[]>;
    for (const [point, names] of Object.entries(profile.plugins) as [ExtensionPoint, string[]][]) {
      // The registry lists the points upstream's plugin implements; ours may not need every one.
      this.points[point] = names
        .map(get)
        .filter((p) => point === 'queueSort' || typeof p[point] === 'function');
    }
    this.weights = this.points.score.map((p) => profile.weights[p.name] ?? 1);
    // The plugins that can reject a pod (upstream's enqueueExtensions: PreEnqueue, PreFilter,
    // Filter, Reserve, Permit), each once.
    const rejecting = new Set<Plugin>();
    for (const point of ['preFilter', 'filter', 'reserve', 'permit'] as const)
      for (const p of this.points[point] ?? []) rejecting.add(p);
    this.queueingHints = buildQueueingHintMap([...rejecting]);
  }

  get name(): string {
    return this.profile.schedulerName;
  }

  /** PreFilter: Skip marks the plugin's Filter as skipped; a failure rejects every node. */
  runPreFilter(
    state: CycleState,
    pod: PodInfo,
    h: Handle,
    skipped: Set<string>,
    record?: FilterRecord
  ): Status | null {
    for (const p of this.points.preFilter) {
      const st = p.preFilter!(state, pod, h);
      if (!st) continue;
      if (st.code === 'Skip') {
        skipped.add(p.name);
        if (record) record[p.name] = SKIP_VERDICT;
        continue;
      }
      if (st.code !== 'Success') {
        st.plugin = p.name;
        if (record) record[p.name] = { code: st.code, reasons: st.reasons };
        return st;
      }
    }
    return null;
  }

  /** The Filter plugins that run this cycle (those whose PreFilter returned Skip sit out). */
  activeFilters(skipped: Set<string>): Plugin[] {
    return skipped.size ? this.points.filter.filter((p) => !skipped.has(p.name)) : this.points.filter;
  }

  /** Filter plugins in order; the first failure ends the run for this node. */
  runFilter(
    state: CycleState,
    pod: PodInfo,
    node: NodeInfo,
    h: Handle,
    active: Plugin[],
    record?: FilterRecord,
    skipped?: Set<string>
  ): Status | null {
    if (record && skipped) {
      for (const p of this.points.filter) if (skipped.has(p.name)) record[p.name] = SKIP_VERDICT;
    }
    for (let i = 0; i < active.length; i++) {
      const p = active[i];
      const st = p.filter!(state, pod, node, h);
      if (st !== null && st.code !== 'Success' && st.code !== 'Skip') {
        st.plugin = p.name;
        if (record) record[p.name] = { code: st.code, reasons: st.reasons };
        return st;
      }
      if (record) record[p.name] = SUCCESS_VERDICT;
    }
    return null;
  }

  /** Filter a batch of nodes into `out` (null = passed), plugin by plugin, first failure wins. */
  runFilterBatch(
    state: CycleState,
    pod: PodInfo,
    nodes: NodeInfo[],
    out: (Status | null)[],
    h: Handle,
    active: Plugin[],
    at?: Int32Array
  ): void {
    for (let j = 0; j < active.length; j++) {
      const p = active[j];
      let failed = 0;
      if (p.filterAll) failed = p.filterAll(state, pod, nodes, out, h, at);
      else {
        for (let k = 0; k < nodes.length; k++) {
          if (out[k] !== null) continue;
          const st = p.filter!(state, pod, nodes[k], h);
          if (st !== null && st.code !== 'Success' && st.code !== 'Skip') {
            out[k] = st;
            failed++;
          }
        }
      }
      if (failed === 0) continue;
      for (let k = 0; k < nodes.length; k++) {
        const st = out[k];
        if (st !== null && st.plugin === undefined) st.plugin = p.name;
      }
    }
  }

  /** PreFilter then Filter for one node, in a fresh cycle state (preemption's dry runs). */
  filtersFor(pod: PodInfo, node: NodeInfo, h: Handle): Status | null {
    const state: CycleState = new Map();
    const skipped = new Set<string>();
    const st = this.runPreFilter(state, pod, h, skipped);
    if (st) return st;
    return this.runFilter(state, pod, node, h, this.activeFilters(skipped));
  }
}
