/**
 * Capacity, allocatable and the hard eviction thresholds, as the kubelet computes them:
 *   allocatable = capacity − kubeReserved − systemReserved − hard eviction threshold
 * with the threshold subtracted only for memory (memory.available) and ephemeral-storage
 * (nodefs.available), clamped at 0 (pkg/kubelet/nodestatus/setters.go, cm/node_container_manager).
 */
import { formatResource, parseQuantity, tryParseQuantity } from '../api/quantity';
import { deepFreeze } from '../api/types';
import type { KubeletArgs } from './types';

/** Linux defaults (pkg/kubelet/eviction/defaults_linux.go). */
export const DEFAULT_EVICTION_HARD: Record<string, string> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
  'imagefs.inodesFree': '5%'
};

export type ThresholdValue = { quantity: number } | { percent: number };

/**
 * The effective evictionHard: the defaults, or — once any key is set — only the keys given
 * (the all-or-nothing rule; the others become 0).
 */
export function evictionHard(args: KubeletArgs): Readonly<Record<string, ThresholdValue>> {
  const src =
    args.evictionHard && Object.keys(args.evictionHard).length ? args.evictionHard : DEFAULT_EVICTION_HARD;
  let out = parsedThresholds.get(src);
  if (out) return out;
  const parsed: Record<string, ThresholdValue> = {};
  for (const [signal, v] of Object.entries(src)) {
    const s = v.trim();
    if (s.endsWith('%')) parsed[signal] = { percent: parseFloat(s.slice(0, -1)) / 100 };
    else parsed[signal] = { quantity: Math.round(parseQuantity(s) / 1000) };
  }
  out = deepFreeze(parsed);
  parsedThresholds.set(src, out);
  return out;
}

/**
 * The thresholds parsed once per evictionHard map: the eviction manager reads them every 10 s and
 * the NodeStatus setters every sync. A kubelet's args are replaced, never changed in place, when
 * its configuration changes (faults.ts ReconfigureNode), so the map itself is the key.
 */
const parsedThresholds = new WeakMap<object, Readonly<Record<string, ThresholdValue>>>();

/** The threshold in bytes (or inodes, pids) for a capacity. */
export function thresholdQuantity(t: ThresholdValue | undefined, capacity: number): number {
  if (!t) return 0;
  return 'percent' in t ? Math.floor(capacity * t.percent) : t.quantity;
}

/** Capacity in milli-units per resource name, with pods = maxPods and zero hugepages. */
export function capacityMilli(args: KubeletArgs, maxPods: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(args.capacity)) out[k] = parseQuantity(v);
  out['hugepages-1Gi'] = out['hugepages-1Gi'] ?? 0;
  out['hugepages-2Mi'] = out['hugepages-2Mi'] ?? 0;
  out.pods = maxPods * 1000;
  return out;
}

export function allocatableMilli(args: KubeletArgs, maxPods: number): Record<string, number> {
  const cap = capacityMilli(args, maxPods);
  const hard = evictionHard(args);
  const out: Record<string, number> = {};
  for (const [name, c] of Object.entries(cap)) {
    let v = c;
    const kr = args.kubeReserved?.[name];
    const sr = args.systemReserved?.[name];
    if (kr) v -= tryParseQuantity(kr) ?? 0;
    if (sr) v -= tryParseQuantity(sr) ?? 0;
    if (name === 'memory') {
      v -= thresholdQuantity(hard['memory.available'], c / 1000) * 1000;
      for (const [hp, q] of Object.entries(cap)) if (hp.startsWith('hugepages-')) v -= q;
    }
    if (name === 'ephemeral-storage') v -= thresholdQuantity(hard['nodefs.available'], c / 1000) * 1000;
    out[name] = Math.max(0, v);
  }
  return out;
}

/** Quantities as the Node object carries them. */
export function formatResources(milli: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(milli).sort()) out[k] = formatResource(k, milli[k]);
  return out;
}
