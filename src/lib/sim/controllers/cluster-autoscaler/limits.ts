/**
 * Cluster-wide limits (--max-nodes-total, --cores-total, --memory-total) and the autoscaler's
 * flags as a scenario sets them (`spec.clusterAutoscaler`). Cores and memory are counted from node
 * capacity the way core/scaleup/resource does: whole cores (rounded up) and bytes, over every
 * registered node outside the node groups plus each group's target size × its template node.
 */
import { parseQuantity } from '../../api/quantity';
import { parseDuration } from '../../engine/duration';

/** Flag defaults of cluster-autoscaler (FAQ "What are the parameters to CA?"). */
export const CA_DEFAULTS = {
  scanIntervalMs: 10_000,
  scaleDownUnneededTimeMs: 10 * 60_000,
  scaleDownDelayAfterAddMs: 10 * 60_000,
  scaleDownDelayAfterFailureMs: 3 * 60_000,
  maxNodeProvisionTimeMs: 15 * 60_000,
  maxGracefulTerminationSec: 600,
  maxPodEvictionTimeMs: 2 * 60_000,
  /** Pause between eviction attempts of one drain (DefaultEvictionRetryTime). */
  evictionRetryMs: 10_000,
  maxEmptyBulkDelete: 10,
  /** --max-nodes-total: 0 is no limit. */
  maxNodesTotal: 0,
  /** --cores-total 0:320000 and --memory-total 0:6400000 (GiB). */
  coresTotal: { min: 0, max: 320_000 },
  memoryTotalGiB: { min: 0, max: 6_400_000 },
  /** Node group backoff after a failed scale-up (utils/backoff: 5m, doubling, at most 30m, forgotten after 3h). */
  initialBackoffMs: 5 * 60_000,
  maxBackoffMs: 30 * 60_000,
  backoffResetMs: 3 * 60 * 60_000
};

export interface CaOptions {
  expander: string;
  scanIntervalMs: number;
  maxNodeProvisionTimeMs: number;
  scaleDownUnneededTimeMs: number;
  scaleDownDelayAfterAddMs: number;
  maxNodesTotal: number;
  coresTotal: { min: number; max: number };
  memoryTotalGiB: { min: number; max: number };
}

function range(v: string | number | undefined, def: { min: number; max: number }) {
  if (v === undefined) return def;
  const m = /^(\d+):(\d+)$/.exec(String(v));
  return m ? { min: Number(m[1]), max: Number(m[2]) } : def;
}

/** `spec.clusterAutoscaler` (upstream flag names in camelCase) → options with defaults. */
export function caOptions(flags: Record<string, string | number> = {}, expander?: string): CaOptions {
  const dur = (k: string, d: number) => (flags[k] === undefined ? d : parseDuration(flags[k]));
  return {
    expander: String(flags.expander ?? expander ?? 'least-waste'),
    scanIntervalMs: dur('scanInterval', CA_DEFAULTS.scanIntervalMs),
    maxNodeProvisionTimeMs: dur('maxNodeProvisionTime', CA_DEFAULTS.maxNodeProvisionTimeMs),
    scaleDownUnneededTimeMs: dur('scaleDownUnneededTime', CA_DEFAULTS.scaleDownUnneededTimeMs),
    scaleDownDelayAfterAddMs: dur('scaleDownDelayAfterAdd', CA_DEFAULTS.scaleDownDelayAfterAddMs),
    maxNodesTotal: Number(flags.maxNodesTotal ?? CA_DEFAULTS.maxNodesTotal),
    coresTotal: range(flags.coresTotal, CA_DEFAULTS.coresTotal),
    memoryTotalGiB: range(flags.memoryTotal, CA_DEFAULTS.memoryTotalGiB)
  };
}

export const GIB = 1024 ** 3;

/** A node's contribution: cpu in whole cores (Quantity.Value rounds up), memory in bytes. */
export function nodeDelta(capacity: Record<string, string>): { cpu: number; memory: number } {
  return {
    cpu: Math.ceil(parseQuantity(capacity.cpu ?? '0') / 1000),
    memory: Math.ceil(parseQuantity(capacity.memory ?? '0') / 1000)
  };
}

/** What is left under the max of each limit (never below 0). */
export function resourcesLeft(
  opts: CaOptions,
  total: { cpu: number; memory: number }
): { cpu: number; memory: number } {
  return {
    cpu: Math.max(0, opts.coresTotal.max - total.cpu),
    memory: Math.max(0, opts.memoryTotalGiB.max * GIB - total.memory)
  };
}

/** Resources one more node would exceed (CheckDeltaWithinLimits), sorted as upstream's set. */
export function exceeded(
  left: { cpu: number; memory: number },
  delta: { cpu: number; memory: number }
): string[] {
  const out: string[] = [];
  if (delta.cpu > 0 && delta.cpu > left.cpu) out.push('cpu');
  if (delta.memory > 0 && delta.memory > left.memory) out.push('memory');
  return out;
}

/** ApplyLimits: cap a scale-up so the new nodes fit in what is left. */
export function capByResources(
  n: number,
  left: { cpu: number; memory: number },
  delta: { cpu: number; memory: number }
): number {
  let out = n;
  if (delta.cpu > 0 && out * delta.cpu > left.cpu) out = Math.floor(left.cpu / delta.cpu);
  if (delta.memory > 0 && out * delta.memory > left.memory) out = Math.floor(left.memory / delta.memory);
  return out;
}
