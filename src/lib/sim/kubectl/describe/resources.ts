/** Pod resource totals as describe computes them (resourcehelper.PodRequestsAndLimits). */
import type { KubeObject } from '../../api/types';
import { formatResource } from '../../api/quantity';
import { podLimits, podRequests } from '../../api/corev1/requests';

export type ResourceTotals = Record<string, number>;

/** resourcehelper.PodRequestsAndLimits: api/corev1/requests.ts PodRequests and PodLimits, milli-units. */
export function podRequestsAndLimits(pod: KubeObject): { req: ResourceTotals; lim: ResourceTotals } {
  return { req: { ...podRequests(pod) }, lim: { ...podLimits(pod) } };
}

/** Quantity.String() of a total; zero prints `0`. */
export function qty(name: string, milli: number | undefined): string {
  return milli ? formatResource(name, milli) : '0';
}

/** Order describe prints resource lists in: cpu, ephemeral-storage, hugepages-*, memory, pods, then others. */
export function sortResourceNames(names: string[]): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
