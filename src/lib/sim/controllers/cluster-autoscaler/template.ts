/**
 * Node groups as the Cluster Autoscaler sees them: the scenario's node pools with min/max, the
 * kubelet arguments for a new machine of a pool, and the pool's template node (the Node a new
 * machine would register, with the DaemonSet pods it would run) for what-if scheduling.
 */
import type { Cluster } from '../../cluster';
import { parseDuration } from '../../engine/duration';
import { allocatableMilli, capacityMilli, formatResources } from '../../node/allocatable';
import type { KubeletArgs } from '../../node/types';
import { buildKubeletArgs, nodeIP } from '../../scenario/nodes';
import type { NodePoolSpec } from '../../scenario/types';
import type { KubeObject } from '../../api/types';
import { podMatchesNode } from '../../api/corev1/nodeaffinity';
import { podUntoleratedTaints } from '../../api/corev1/taints';
import { podFromTemplate } from '../util/podtemplate';

export const POOL_LABEL = 'nodeplane.dev/pool';
/** Boot time of a machine when the pool's provider names none (a typical cloud VM). */
export const DEFAULT_BOOT_TIME_MS = 60_000;

export interface NodeGroup {
  name: string;
  min: number;
  max: number;
  bootTimeMs: number;
  spec: NodePoolSpec;
}

/** Pools an autoscaler manages: any with `max` above `count` or a `min`. */
export function autoscaledPools(pools: NodePoolSpec[]): NodePoolSpec[] {
  return pools.filter((p) => (p.max !== undefined && p.max > p.count) || p.min !== undefined);
}

export function nodeGroupOf(pool: NodePoolSpec): NodeGroup {
  const boot = pool.provider?.bootTime;
  return {
    name: pool.name,
    min: pool.min ?? 0,
    max: pool.max ?? pool.count,
    bootTimeMs: boot === undefined ? DEFAULT_BOOT_TIME_MS : parseDuration(boot),
    spec: pool
  };
}

/** Kubelet arguments for a new machine `nodeName` of the pool, with the first free node IP. */
export function newMachineArgs(cluster: Cluster, group: NodeGroup, nodeName: string): KubeletArgs {
  const used = new Set(cluster.nodeHosts().map((h) => h.kubelet.args.internalIP));
  let i = 0;
  while (used.has(nodeIP(i))) i++;
  const [args] = buildKubeletArgs([{ ...group.spec, count: 1, names: [nodeName] }], undefined);
  return { ...args, internalIP: nodeIP(i) };
}

/** The Node a new machine of the group would register (TemplateNodeInfo). */
export function templateNode(cluster: Cluster, group: NodeGroup, name: string): KubeObject {
  const args = newMachineArgs(cluster, group, name);
  const maxPods = args.maxPods ?? cluster.config.kubelet.maxPods;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    ...(args.zone ? { 'topology.kubernetes.io/zone': args.zone } : {}),
    ...(args.region ? { 'topology.kubernetes.io/region': args.region } : {}),
    [POOL_LABEL]: group.name,
    ...(args.labels ?? {})
  };
  // The cloud's template knows the machine type's devices (a GPU instance's GPUs), though a real
  // node shows them only once its device plugin registers.
  const devices = Object.fromEntries(Object.entries(args.devices ?? {}).map(([r, n]) => [r, n * 1000]));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: args.taints?.length ? { taints: args.taints.map((t) => ({ ...t })) } : {},
    status: {
      capacity: formatResources({ ...capacityMilli(args, maxPods), ...devices }),
      allocatable: formatResources({ ...allocatableMilli(args, maxPods), ...devices }),
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }]
    }
  };
}

/** The DaemonSet pods a node would get (the daemonset controller's placement test), bound to it. */
export function daemonSetPodsFor(cluster: Cluster, node: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const ds of cluster.api.list<KubeObject>('DaemonSet')) {
    const pod = podFromTemplate(ds, ds.spec?.template ?? {});
    pod.metadata.name = `${ds.metadata.name}-${node.metadata.name}`;
    if (!podMatchesNode(pod, node)) continue;
    if (podUntoleratedTaints(pod, node, ['NoSchedule', 'NoExecute']).length) continue;
    pod.spec.nodeName = node.metadata.name;
    pod.status = { phase: 'Running' };
    out.push(pod);
  }
  return out;
}
