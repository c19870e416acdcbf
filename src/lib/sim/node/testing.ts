/** Test fixtures for the node plane: a cluster with kubelets and pods bound straight to nodes. */
import { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { Kubelet } from './kubelet';
import type { KubeletArgs } from './types';
import './index';

export function nodeArgs(name: string, extra: Partial<KubeletArgs> = {}): KubeletArgs {
  return {
    nodeName: name,
    capacity: { cpu: '4', memory: '8Gi', 'ephemeral-storage': '50Gi' },
    runtime: 'containerd',
    internalIP: '10.0.0.11',
    ...extra
  };
}

export function clusterWithNode(
  extra: Partial<KubeletArgs> = {},
  name = 'worker-1'
): { c: Cluster; k: Kubelet } {
  const c = new Cluster();
  const k = c.addComponent('kubelet', nodeArgs(name, extra)) as Kubelet;
  c.advance(1_000);
  return { c, k };
}

export interface PodOpts {
  name?: string;
  node?: string;
  image?: string;
  annotations?: Record<string, string>;
  containers?: Record<string, unknown>[];
  spec?: Record<string, unknown>;
}

export function createPod(c: Cluster, o: PodOpts = {}): KubeObject {
  return c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name ?? 'web',
      namespace: 'default',
      ...(o.annotations ? { annotations: o.annotations } : {})
    },
    spec: {
      nodeName: o.node ?? 'worker-1',
      containers: o.containers ?? [{ name: 'app', image: o.image ?? 'nginx:1.27' }],
      ...(o.spec ?? {})
    }
  });
}

export function pod(c: Cluster, name = 'web'): KubeObject | undefined {
  return c.api.tryGet<KubeObject>('Pod', 'default', name);
}

export function nodeCondition(
  c: Cluster,
  type: string,
  node = 'worker-1'
): { status: string; reason: string; message: string } {
  const n = c.api.get<KubeObject>('Node', undefined, node);
  return (n.status.conditions as { type: string; status: string; reason: string; message: string }[]).find(
    (x) => x.type === type
  )!;
}

/** Event log entries for one object and reason, as [virtual ms, message]. */
export function events(c: Cluster, reason: string, object = 'Pod/default/web'): [number, string][] {
  return c.eventLog.filter((e) => e.reason === reason && e.object === object).map((e) => [e.t, e.message]);
}

/** Step the engine to `until`, calling `probe` after every event (to catch transitions exactly). */
export function runWatching(c: Cluster, until: number, probe: () => void): void {
  for (;;) {
    const t = c.engine.peekTime();
    if (t === undefined || t > until) break;
    c.step();
    probe();
  }
  c.runUntil(until);
}
