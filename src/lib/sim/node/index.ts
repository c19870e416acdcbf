/** The node plane: the kubelet and the node host (its component and faults are listed in ../registry.ts). */

export { Kubelet } from './kubelet';
export { NodeHost, HostCni, type NodeHostState, type NodeHostStatus } from './host';
export {
  setRegistryImages,
  registryImages,
  resolveImage,
  normalizeImage,
  type RegistryImage
} from './registry';
export { evictionHard, allocatableMilli, capacityMilli, DEFAULT_EVICTION_HARD } from './allocatable';
export { kubeletFor } from './faults';
export type { KubeletArgs } from './types';
