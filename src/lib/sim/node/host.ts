/** Find a node's host view (runtime, journal, memory/disk) for the node shell and the UI. */
import type { Cluster } from '../cluster';
import type { NodeHostView } from './cri';

export function hostView(cluster: Cluster, nodeName: string): NodeHostView | undefined {
  const kubelet = cluster.component(`kubelet/${nodeName}`) as unknown as { host?: NodeHostView } | undefined;
  return kubelet?.host;
}
