/**
 * VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone: in the default profile upstream,
 * but the simulated cluster has no PersistentVolumes, so each skips like it does for a pod
 * without PVCs. They exist so configurations naming them are accepted.
 */
import { status, type Plugin } from '../types';

export const Names = ['VolumeRestrictions', 'NodeVolumeLimits', 'VolumeBinding', 'VolumeZone'];

export function create(name: string): Plugin {
  // Upstream they register PersistentVolume, PVC, StorageClass and CSINode events; the simulated
  // cluster has none of those objects and these plugins never reject a pod.
  return { name, preFilter: () => status('Skip'), eventsToRegister: () => [] };
}
