/** Zones and their health (node_lifecycle_controller.go ComputeZoneState, nodetopology.GetZoneKey). */
import type { KubeObject, NodeCondition } from '../../api/types';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** Label that takes a node out of zone health counting. */
export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

/** region + ":\x00:" + zone; nodes without either label share the zone "". */
export function getZoneKey(node: KubeObject): string {
  const l = node.metadata.labels ?? {};
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  if (!zone && !region) return '';
  return `${region}:\u0000:${zone}`;
}

/** A readable zone name for logs and the UI. */
export function zoneDisplayName(key: string): string {
  return key === '' ? '(no zone)' : key.replace(':\u0000:', '/');
}

/**
 * ComputeZoneState: FullDisruption when no node is Ready; PartialDisruption when more than 2
 * nodes and at least `unhealthyZoneThreshold` (0.55) of them are not Ready.
 */
export function computeZoneState(
  readyConditions: (NodeCondition | undefined)[],
  unhealthyZoneThreshold: number
): { notReady: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const c of readyConditions) {
    if (c?.status === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) {
    return { notReady, state: 'PartialDisruption' };
  }
  return { notReady, state: 'Normal' };
}
