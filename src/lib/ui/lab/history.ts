/**
 * Node condition history for the timeline: the Ready status of each node sampled once per
 * frame. After a jump back, entries later than the new clock are dropped (the run is
 * deterministic, so earlier entries still hold).
 */
import type { LabView } from './viewmodel';

export interface ReadyChange {
  t: number;
  status: 'True' | 'False' | 'Unknown' | 'Deleted';
}

export function recordReady(
  history: Record<string, ReadyChange[]>,
  view: Pick<LabView, 'now' | 'nodes'>
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
    if (list[list.length - 1]?.status !== status) {
      out[n.name] = [...list, { t: view.now, status }];
      changed = true;
    }
  }
  return changed ? out : history;
}
