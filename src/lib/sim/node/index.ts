/** The node plane: importing this registers the kubelet component and the node faults. */
import './kubelet';
import './faults';

export { Kubelet } from './kubelet';
export { hostView } from './host';
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
