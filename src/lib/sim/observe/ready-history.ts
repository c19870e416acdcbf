/**
 * Node condition history for the timeline: the Ready status of each node, sampled once per
 * frame and dated by the condition's lastTransitionTime (a frame may cover minutes at high
 * speed). After a jump back, entries later than the new clock are dropped (the run is
 * deterministic, so earlier entries still hold).
 */
import type { LabView } from './cluster-map';

export interface ReadyChange {
  t: number;
  status: 'True' | 'False' | 'Unknown' | 'Deleted';
}

export function recordReady(
  history: Record<string, ReadyChange[]>,
  view: { now: number; nodes: Pick<LabView['nodes'][number], 'name' | 'exists' | 'ready' | 'readySince'>[] }
): Record<string, ReadyChange[]> {
  const out: Record<string, ReadyChange[]> = {};
  let changed = false;
  for (const [name, list] of Object.entries(history)) {
    let keep = list.length;
    while (keep > 0 && list[keep - 1].t > view.now) keep--;
    out[name] = keep === list.length ? list : list.slice(0, keep);
    if (keep !== list.length) changed = true;
  }
  for (const n of view.nodes) {
    const status: ReadyChange['status'] = n.exists ? n.ready : 'Deleted';
    const list = out[n.name] ?? [];
    const last = list[list.length - 1];
    if (last?.status !== status) {
      const since = status === 'Deleted' ? view.now : (n.readySince ?? view.now);
      out[n.name] = [...list, { t: Math.min(view.now, Math.max(last?.t ?? 0, since)), status }];
      changed = true;
    }
  }
  return changed ? out : history;
}
