/**
 * Resource arithmetic as the scheduler does it (pkg/scheduler/framework/types.go Resource and
 * k8s.io/component-helpers resource.PodRequests, in api/corev1/requests.ts): cpu in millicores, memory and
 * ephemeral-storage in bytes, everything else (extended resources, hugepages) as integers.
 */
import { tryParseQuantity } from '../api/quantity';
import type { KubeObject } from '../api/types';
import { podRequests as corev1PodRequests } from '../api/corev1/requests';

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

const NON_MISSING = { cpu: DEFAULT_MILLI_CPU_REQUEST, memory: DEFAULT_MEMORY_REQUEST * 1000 };

/**
 * framework.NewResource(resource.PodRequests(pod)): the pod's requests (api/corev1/requests.ts)
 * as a vector; `nonZero` gives containers that request no cpu or memory the scoring defaults.
 */
export function podRequests(pod: KubeObject, nonZero = false): ResourceVector {
  const amounts = corev1PodRequests(pod, nonZero ? { nonMissing: NON_MISSING } : {});
  const v = emptyVector();
  for (const name in amounts) {
    if (name === 'pods') continue;
    const milli = amounts[name];
    addResource(v, name, name === 'cpu' ? Math.ceil(milli) : Math.ceil(milli / 1000));
  }
  return v;
}

export function isScalarResource(name: string): boolean {
  return name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage' && name !== 'pods';
}
