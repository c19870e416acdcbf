/**
 * Resource arithmetic as the scheduler does it (pkg/scheduler/framework/types.go Resource and
 * k8s.io/component-helpers resource.PodRequests): cpu in millicores, memory and
 * ephemeral-storage in bytes, everything else (extended resources, hugepages) as integers.
 */
import { tryParseQuantity } from '../api/quantity';
import type { KubeObject } from '../api/types';

export interface ResourceVector {
  cpu: number;
  memory: number;
  ephemeralStorage: number;
  pods: number;
  scalar: Record<string, number>;
}

/** pkg/scheduler/util DefaultMilliCPURequest and DefaultMemoryRequest (scoring only). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export function emptyVector(): ResourceVector {
  return { cpu: 0, memory: 0, ephemeralStorage: 0, pods: 0, scalar: {} };
}

/** Quantity.Value() rounds up to a whole unit; cpu uses MilliValue(). */
function quantityFor(name: string, q: unknown): number {
  const milli = tryParseQuantity(q);
  if (milli === undefined) return 0;
  return name === 'cpu' ? Math.ceil(milli) : Math.ceil(milli / 1000);
}

export function addResource(v: ResourceVector, name: string, amount: number): void {
  switch (name) {
    case 'cpu':
      v.cpu += amount;
      break;
    case 'memory':
      v.memory += amount;
      break;
    case 'ephemeral-storage':
      v.ephemeralStorage += amount;
      break;
    case 'pods':
      v.pods += amount;
      break;
    default:
      v.scalar[name] = (v.scalar[name] ?? 0) + amount;
  }
}

export function getResource(v: ResourceVector, name: string): number {
  switch (name) {
    case 'cpu':
      return v.cpu;
    case 'memory':
      return v.memory;
    case 'ephemeral-storage':
      return v.ephemeralStorage;
    case 'pods':
      return v.pods;
    default:
      return v.scalar[name] ?? 0;
  }
}

/** A ResourceList (`{cpu: "2", memory: "4Gi"}`) as a vector. */
export function vectorFromList(list: Record<string, unknown> | undefined): ResourceVector {
  const v = emptyVector();
  for (const [name, q] of Object.entries(list ?? {})) addResource(v, name, quantityFor(name, q));
  return v;
}

function maxInto(into: ResourceVector, other: ResourceVector): void {
  into.cpu = Math.max(into.cpu, other.cpu);
  into.memory = Math.max(into.memory, other.memory);
  into.ephemeralStorage = Math.max(into.ephemeralStorage, other.ephemeralStorage);
  for (const [k, x] of Object.entries(other.scalar)) into.scalar[k] = Math.max(into.scalar[k] ?? 0, x);
}

function addInto(into: ResourceVector, other: ResourceVector): void {
  into.cpu += other.cpu;
  into.memory += other.memory;
  into.ephemeralStorage += other.ephemeralStorage;
  for (const [k, x] of Object.entries(other.scalar)) into.scalar[k] = (into.scalar[k] ?? 0) + x;
}

function copy(v: ResourceVector): ResourceVector {
  return { ...v, scalar: { ...v.scalar } };
}

interface ContainerLike {
  resources?: { requests?: Record<string, unknown> };
  restartPolicy?: string;
}

function containerRequests(c: ContainerLike, nonZero: boolean): ResourceVector {
  const req = c.resources?.requests ?? {};
  const v = vectorFromList(req);
  if (nonZero) {
    // An explicit request of 0 stays 0; only a missing request gets the default.
    if (req.cpu === undefined) v.cpu = DEFAULT_MILLI_CPU_REQUEST;
    if (req.memory === undefined) v.memory = DEFAULT_MEMORY_REQUEST;
  }
  return v;
}

/**
 * PodRequests: max(Σ containers + Σ sidecars, the peak during init) + overhead. Restartable init
 * containers (sidecars) keep running, so they add to every later phase.
 */
export function podRequests(pod: KubeObject, nonZero = false): ResourceVector {
  const spec = pod.spec ?? {};
  const reqs = emptyVector();
  for (const c of (spec.containers ?? []) as ContainerLike[]) addInto(reqs, containerRequests(c, nonZero));
  const restartable = emptyVector();
  const initPeak = emptyVector();
  for (const c of (spec.initContainers ?? []) as ContainerLike[]) {
    const r = containerRequests(c, nonZero);
    if (c.restartPolicy === 'Always') {
      addInto(reqs, r);
      addInto(restartable, r);
      maxInto(initPeak, restartable);
    } else {
      const phase = copy(restartable);
      addInto(phase, r);
      maxInto(initPeak, phase);
    }
  }
  maxInto(reqs, initPeak);
  if (spec.overhead) addInto(reqs, vectorFromList(spec.overhead));
  reqs.pods = 0;
  return reqs;
}

export function isScalarResource(name: string): boolean {
  return name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage' && name !== 'pods';
}
