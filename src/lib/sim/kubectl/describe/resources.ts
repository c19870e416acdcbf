/** Pod resource totals as describe computes them (resourcehelper.PodRequestsAndLimits). */
import type { KubeObject } from '../../api/types';
import { formatResource, tryParseQuantity } from '../../api/quantity';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export type ResourceTotals = Record<string, number>;

function add(into: ResourceTotals, list: Record<string, string> | undefined): void {
  for (const [k, v] of Object.entries(list ?? {})) into[k] = (into[k] ?? 0) + (tryParseQuantity(v) ?? 0);
}

function maxInto(into: ResourceTotals, list: Record<string, string> | undefined): void {
  for (const [k, v] of Object.entries(list ?? {})) into[k] = Math.max(into[k] ?? 0, tryParseQuantity(v) ?? 0);
}

/** Sum of app containers (and sidecars), at least the largest init container, plus overhead. Milli-units. */
export function podRequestsAndLimits(pod: KubeObject): { req: ResourceTotals; lim: ResourceTotals } {
  const spec: Any = pod.spec ?? {};
  const req: ResourceTotals = {};
  const lim: ResourceTotals = {};
  for (const c of spec.containers ?? []) {
    add(req, c.resources?.requests);
    add(lim, c.resources?.limits);
  }
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      add(req, c.resources?.requests);
      add(lim, c.resources?.limits);
    } else {
      maxInto(req, c.resources?.requests);
      maxInto(lim, c.resources?.limits);
    }
  }
  add(req, spec.overhead);
  add(lim, spec.overhead);
  return { req, lim };
}

/** Quantity.String() of a total; zero prints `0`. */
export function qty(name: string, milli: number | undefined): string {
  return milli ? formatResource(name, milli) : '0';
}

/** Order describe prints resource lists in: cpu, ephemeral-storage, hugepages-*, memory, pods, then others. */
export function sortResourceNames(names: string[]): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
