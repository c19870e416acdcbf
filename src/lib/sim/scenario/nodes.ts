/** Node pools → one KubeletArgs per machine, and the sanity limits on what a pool may ask for. */
import { parseQuantity, tryParseQuantity } from '../api/quantity';
import type { KubeletArgs } from '../node/types';
import type { NodePoolSpec } from './types';
import { flavourLabels } from '../controllers/cluster-autoscaler/flavours';

/** A machine Nodeplane builds when the pool names no capacity. */
export const DEFAULT_CAPACITY: Record<string, string> = {
  cpu: '4',
  memory: '16Gi',
  'ephemeral-storage': '100Gi'
};

/** Upper bounds per node, far above real hardware; a bigger value is a typo (10000 CPUs). */
export const CAPACITY_LIMITS: Record<string, { max: string; what: string }> = {
  cpu: { max: '1024', what: '1024 CPUs' },
  memory: { max: '64Ti', what: '64Ti of memory' },
  'ephemeral-storage': { max: '1Pi', what: '1Pi of ephemeral storage' },
  pods: { max: '10000', what: '10000 pods' }
};
export const EXTENDED_RESOURCE_MAX = 128;
/** The largest cluster Kubernetes is tested at (sig-scalability thresholds). */
export const MAX_CLUSTER_NODES = 5000;

export function nodeNames(pool: NodePoolSpec): string[] {
  return pool.names ?? Array.from({ length: pool.count }, (_, i) => `${pool.name}-${i + 1}`);
}

/** 10.0.0.11, 10.0.0.12, ... (10.0.0.10 is the API server endpoint). */
export function nodeIP(index: number): string {
  const host = 11 + index;
  return `10.0.${Math.floor(host / 256)}.${host % 256}`;
}

const stringify = (m: Record<string, string | number> | undefined): Record<string, string> | undefined =>
  m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)])) : undefined;

export function buildKubeletArgs(pools: NodePoolSpec[], clusterMaxPods: number | undefined): KubeletArgs[] {
  const out: KubeletArgs[] = [];
  for (const pool of pools) {
    for (const nodeName of nodeNames(pool)) {
      const args: KubeletArgs = {
        nodeName,
        capacity: { ...DEFAULT_CAPACITY, ...stringify(pool.capacity) },
        runtime: pool.runtime ?? 'containerd',
        internalIP: nodeIP(out.length),
        pool: pool.name
      };
      const labels = { ...flavourLabels(pool), ...pool.labels };
      if (Object.keys(labels).length) args.labels = labels;
      if (pool.taints?.length) args.taints = pool.taints.map((t) => ({ ...t }));
      if (pool.kubeReserved) args.kubeReserved = stringify(pool.kubeReserved);
      if (pool.systemReserved) args.systemReserved = stringify(pool.systemReserved);
      if (pool.evictionHard) args.evictionHard = { ...pool.evictionHard };
      const maxPods = pool.maxPods ?? clusterMaxPods;
      if (maxPods !== undefined) args.maxPods = maxPods;
      if (pool.zone) args.zone = pool.zone;
      if (pool.region) args.region = pool.region;
      if (pool.images?.length) args.preloadedImages = [...pool.images];
      if (pool.devices && Object.keys(pool.devices).length) args.devices = { ...pool.devices };
      if (pool.shutdownGracePeriod) args.shutdownGracePeriod = pool.shutdownGracePeriod;
      if (pool.shutdownGracePeriodCriticalPods)
        args.shutdownGracePeriodCriticalPods = pool.shutdownGracePeriodCriticalPods;
      if (pool.kubeletVersion) args.kubeletVersion = pool.kubeletVersion;
      if (pool.pullBandwidth !== undefined)
        args.pullBandwidth = Math.round(parseQuantity(pool.pullBandwidth) / 1000);
      if (pool.osImage) args.osImage = pool.osImage;
      if (pool.kernelVersion) args.kernelVersion = pool.kernelVersion;
      out.push(args);
    }
  }
  return out;
}

/** Problems with one capacity entry, or undefined. Values in the message are the written ones. */
export function capacityProblem(name: string, value: string | number): string | undefined {
  const v = tryParseQuantity(value);
  if (v === undefined) return undefined;
  if (v < 0) return 'must be greater than or equal to 0';
  const limit = CAPACITY_LIMITS[name];
  if (limit && v > parseQuantity(limit.max)) return `a node has at most ${limit.what} in Nodeplane`;
  if (!limit && name.includes('/')) {
    if (v % 1000 !== 0) return 'must be a whole number';
    if (v > EXTENDED_RESOURCE_MAX * 1000)
      return `a node has at most ${EXTENDED_RESOURCE_MAX} of an extended resource in Nodeplane`;
  }
  return undefined;
}
