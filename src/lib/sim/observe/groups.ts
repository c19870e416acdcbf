/**
 * How large clusters are folded for drawing: a node belongs to its node pool (the autoscaler's
 * and the providers' pool labels) or, without one, to its zone.
 */
export const POOL_LABELS = [
  'nodeplane.dev/pool',
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool'
];

/** `pool:<name>`, `zone:<zone>` or `nodes`. */
export function nodeGroup(labels: Record<string, string> | undefined): string {
  const l = labels ?? {};
  for (const k of POOL_LABELS) if (l[k]) return `pool:${l[k]}`;
  const zone = l['topology.kubernetes.io/zone'];
  return zone ? `zone:${zone}` : 'nodes';
}
