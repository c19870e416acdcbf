/**
 * The kubelet kubeadm starts on every control-plane host, and what `kubeadm init|join phase
 * mark-control-plane` puts on its Node (cmd/kubeadm/app/phases/markcontrolplane/markcontrolplane.go,
 * cmd/kubeadm/app/constants/constants.go):
 *
 * - labels `node-role.kubernetes.io/control-plane: ""` (LabelNodeRoleControlPlane) and
 *   `node.kubernetes.io/exclude-from-external-load-balancers: ""` (LabelExcludeFromExternalLB);
 * - the taint `node-role.kubernetes.io/control-plane:NoSchedule` (ControlPlaneTaint), so user
 *   workloads stay off the control plane unless they tolerate it.
 *
 * The lab's clusters are already running when a scenario starts, so the kubelet registers the
 * Node with the labels and taint kubeadm left on it. A managed control plane runs on the
 * provider's machines: no control-plane Nodes there.
 */
import type { Cluster } from '../cluster';
import type { KubeletArgs } from '../node/types';
import { DEFAULT_CORES } from './load';

export const LABEL_NODE_ROLE_CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';
export const LABEL_EXCLUDE_FROM_EXTERNAL_LB = 'node.kubernetes.io/exclude-from-external-load-balancers';
export const CONTROL_PLANE_TAINT = {
  key: LABEL_NODE_ROLE_CONTROL_PLANE,
  effect: 'NoSchedule'
} as const;

/** A control-plane machine: the control plane's cores (sizing), 8Gi and a 100Gi disk. */
export const CONTROL_PLANE_MEMORY = '8Gi';
export const CONTROL_PLANE_DISK = '100Gi';

/** Is this Node a control-plane node (kubeadm's role label)? */
export function isControlPlaneNode(node: { metadata: { labels?: Record<string, string> } }): boolean {
  return node.metadata.labels?.[LABEL_NODE_ROLE_CONTROL_PLANE] !== undefined;
}

/** The kubelet kubeadm configured on control-plane host `host` (advertise address `ip`). */
export function controlPlaneKubeletArgs(host: string, ip: string, cores = DEFAULT_CORES): KubeletArgs {
  return {
    nodeName: host,
    capacity: { cpu: String(cores), memory: CONTROL_PLANE_MEMORY, 'ephemeral-storage': CONTROL_PLANE_DISK },
    runtime: 'containerd',
    internalIP: ip,
    labels: { [LABEL_NODE_ROLE_CONTROL_PLANE]: '', [LABEL_EXCLUDE_FROM_EXTERNAL_LB]: '' },
    taints: [{ ...CONTROL_PLANE_TAINT }]
  };
}

/** Start the kubelet on a control-plane host, unless one already runs there. */
export function startControlPlaneKubelet(cluster: Cluster, host: string, ip: string, cores?: number): void {
  if (cluster.component(`kubelet/${host}`)) return;
  cluster.addComponent('kubelet', controlPlaneKubeletArgs(host, ip, cores));
}
