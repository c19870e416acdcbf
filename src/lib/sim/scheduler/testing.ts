/** Object builders for scheduler tests and benchmarks: Nodes and Pods shaped like real ones. */
import type { KubeObject } from '../api/types';
import { SchedulerCache } from './cache';
import { newPodInfo } from './nodeinfo';
import type { Handle, PodInfo } from './types';

export interface NodeOpts {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
  extra?: Record<string, string>;
}

export function makeNode(name: string, o: NodeOpts = {}): KubeObject {
  const allocatable = {
    cpu: o.cpu ?? '4',
    memory: o.memory ?? '8Gi',
    pods: o.pods ?? '110',
    ...(o.extra ?? {})
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { capacity: allocatable, allocatable, images: o.images ?? [] }
  };
}

export interface PodOpts {
  cpu?: string;
  memory?: string;
  requests?: Record<string, string>;
  labels?: Record<string, string>;
  namespace?: string;
  nodeName?: string;
  image?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: Record<string, any>;
}

export function makePod(name: string, o: PodOpts = {}): KubeObject {
  const requests: Record<string, string> = { ...(o.requests ?? {}) };
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', labels: o.labels ?? {} },
    spec: {
      containers: [
        {
          name: 'app',
          image: o.image ?? 'nginx:1.27',
          ...(Object.keys(requests).length ? { resources: { requests } } : {})
        }
      ],
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...(o.spec ?? {})
    }
  };
}

/** A cache with the nodes and the bound pods, and its Handle. */
export function env(
  nodes: KubeObject[],
  pods: KubeObject[] = [],
  minor = 35
): { cache: SchedulerCache; h: Handle } {
  const cache = new SchedulerCache({ minor });
  for (const n of nodes) cache.upsertNode(n);
  for (const p of pods) cache.addPod(p, p.spec.nodeName);
  return { cache, h: cache.handle };
}

export const podInfo = (p: KubeObject): PodInfo => newPodInfo(p);
