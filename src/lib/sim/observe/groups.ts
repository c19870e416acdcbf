/**
 * How large clusters are folded for drawing: a control-plane node to the control plane's group, a
 * node to its node pool (the autoscaler's and the providers' pool labels) or, without one, to its
 * zone.
 */
export const POOL_LABELS = [
  'nodeplane.dev/pool',
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool'
];

/** `control-plane` (kubeadm's role label), `pool:<name>`, `zone:<zone>` or `nodes`. */
export function nodeGroup(labels: Record<string, string> | undefined): string {
  const l = labels ?? {};
  if (l['node-role.kubernetes.io/control-plane'] !== undefined) return 'control-plane';
  for (const k of POOL_LABELS) if (l[k]) return `pool:${l[k]}`;
  const zone = l['topology.kubernetes.io/zone'];
  return zone ? `zone:${zone}` : 'nodes';
}
