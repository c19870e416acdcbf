/**
 * What the node shell reads about its machine: its NodeHost when the node runs a
 * simulated kubelet, otherwise a fresh machine built from the Node object (both services up,
 * nothing running yet).
 */
import type { Cluster } from '../../cluster';
import type { KubeObject } from '../../api/types';
import { tryParseQuantity } from '../../api/quantity';
import type { NodeHostView } from '../cri';
import { staticPods } from '../../etcd/staticpods';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export interface ShellHost {
  view: NodeHostView;
  node: KubeObject | undefined;
  internalIP: string;
}

const GIB = 2 ** 30;

function freshView(cluster: Cluster, name: string, node: KubeObject | undefined): NodeHostView {
  const cap = node?.status?.capacity ?? {};
  const memTotal = Math.round((tryParseQuantity(cap.memory) ?? 8 * GIB * 1000) / 1000);
  const diskTotal = Math.round((tryParseQuantity(cap['ephemeral-storage']) ?? 50 * GIB * 1000) / 1000);
  const runtimeVersion: string = node?.status?.nodeInfo?.containerRuntimeVersion ?? 'containerd://2.1.4';
  const runtimeName = runtimeVersion.startsWith('cri-o') ? 'cri-o' : 'containerd';
  const created = node ? cluster.api.timeOf(node.metadata.creationTimestamp as string) : 0;
  return {
    nodeName: name,
    runtimeName,
    runtimeVersion: runtimeVersion.replace(/^[a-z-]+:\/\//, ''),
    runtimeRunning: true,
    kubeletRunning: true,
    cniConfig: {},
    images: () => [],
    sandboxes: () => [],
    containers: () => [],
    journal: () => [],
    memory: () => ({
      total: memTotal,
      used: Math.round(memTotal * 0.1),
      available: Math.round(memTotal * 0.9)
    }),
    disk: () => ({
      total: diskTotal,
      used: Math.round(diskTotal * 0.2),
      available: Math.round(diskTotal * 0.8),
      imagefsUsed: 0
    }),
    pid: (unit) =>
      unit === 'kubelet'
        ? 1042
        : unit === (runtimeName === 'cri-o' ? 'crio' : 'containerd')
          ? 871
          : undefined,
    unitSince: () => Math.max(0, created - 5000)
  };
}

export function shellHost(cluster: Cluster, name: string): ShellHost {
  const node = cluster.api.tryGet<KubeObject>('Node', undefined, name);
  const view = cluster.nodeHost(name) ?? freshView(cluster, name, node);
  const internalIP =
    ((node?.status?.addresses ?? []) as Any[]).find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.100';
  return { view, node, internalIP };
}

/** The machines `ssh` can reach: nodes in the API and kubelets whose Node object is gone. */
export function knownHost(cluster: Cluster, name: string): boolean {
  return (
    !!cluster.api.tryGet('Node', undefined, name) ||
    !!cluster.nodeHost(name) ||
    !!staticPods(cluster)?.hosts.includes(name)
  );
}
