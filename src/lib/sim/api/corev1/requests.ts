/**
 * Pod resource requests and limits as k8s.io/component-helpers/resource PodRequests / PodLimits
 * compute them: the app containers and the restartable init containers (sidecars) add up; a
 * regular init container runs alone next to the sidecars started before it, so the pod needs the
 * peak of those phases; pod overhead adds to the requests (and to the limits it names).
 *
 * Amounts are milli-units (what quantity.ts parses): 1 cpu = 1000, 1 byte of memory = 1000.
 * Stored objects are frozen and replaced on every write, so the result is cached per object.
 */
import { tryParseQuantity } from '../quantity';

export type ResourceAmounts = Record<string, number>;

interface ContainerLike {
  resources?: {
    requests?: Readonly<Record<string, unknown>>;
    limits?: Readonly<Record<string, unknown>>;
  };
  restartPolicy?: string;
}

interface PodLike {
  spec?: {
    containers?: readonly ContainerLike[];
    initContainers?: readonly ContainerLike[];
    overhead?: Readonly<Record<string, unknown>>;
  };
}

export interface PodResourcesOptions {
  /**
   * NonMissingContainerRequests: amounts a container gets for a resource it does not request at
   * all (an explicit 0 stays 0). The scheduler's scoring uses 100m cpu and 200Mi memory.
   */
  nonMissing?: Readonly<ResourceAmounts>;
  excludeOverhead?: boolean;
}

function toAmounts(list: Readonly<Record<string, unknown>> | undefined): ResourceAmounts {
  const out: ResourceAmounts = {};
  for (const [k, q] of Object.entries(list ?? {})) out[k] = tryParseQuantity(q) ?? 0;
  return out;
}

function addInto(into: ResourceAmounts, other: Readonly<ResourceAmounts>): void {
  for (const k in other) into[k] = (into[k] ?? 0) + other[k];
}

function maxInto(into: ResourceAmounts, other: Readonly<ResourceAmounts>): void {
  for (const k in other) if (!(k in into) || other[k] > into[k]) into[k] = other[k];
}

function containerAmounts(
  c: ContainerLike,
  which: 'requests' | 'limits',
  nonMissing: Readonly<ResourceAmounts> | undefined
): ResourceAmounts {
  const list = c.resources?.[which];
  const out = toAmounts(list);
  if (nonMissing) for (const k in nonMissing) if (list?.[k] === undefined) out[k] = nonMissing[k];
  return out;
}

/** AggregateContainerRequests / AggregateContainerLimits. */
function aggregate(
  pod: PodLike,
  which: 'requests' | 'limits',
  nonMissing: Readonly<ResourceAmounts> | undefined
): ResourceAmounts {
  const spec = pod.spec ?? {};
  const total: ResourceAmounts = {};
  for (const c of spec.containers ?? []) addInto(total, containerAmounts(c, which, nonMissing));
  const sidecars: ResourceAmounts = {};
  const initPeak: ResourceAmounts = {};
  for (const c of spec.initContainers ?? []) {
    const r = containerAmounts(c, which, nonMissing);
    if (c.restartPolicy === 'Always') {
      addInto(total, r);
      addInto(sidecars, r);
      maxInto(initPeak, sidecars);
    } else {
      const phase = { ...r };
      addInto(phase, sidecars);
      maxInto(initPeak, phase);
    }
  }
  maxInto(total, initPeak);
  return total;
}

const requestCache = new WeakMap<object, ResourceAmounts>();

/** PodRequests. The result is shared: do not change it. */
export function podRequests(pod: PodLike, opts: PodResourcesOptions = {}): Readonly<ResourceAmounts> {
  const plain = !opts.nonMissing && !opts.excludeOverhead;
  if (plain) {
    const hit = requestCache.get(pod);
    if (hit) return hit;
  }
  const reqs = aggregate(pod, 'requests', opts.nonMissing);
  if (!opts.excludeOverhead && pod.spec?.overhead) addInto(reqs, toAmounts(pod.spec.overhead));
  if (plain) requestCache.set(pod, reqs);
  return reqs;
}

/** PodLimits: overhead is added only to the limits that are set. */
export function podLimits(pod: PodLike, opts: PodResourcesOptions = {}): Readonly<ResourceAmounts> {
  const limits = aggregate(pod, 'limits', undefined);
  if (!opts.excludeOverhead && pod.spec?.overhead) {
    const over = toAmounts(pod.spec.overhead);
    for (const k in over) if (k in limits) limits[k] += over[k];
  }
  return limits;
}
