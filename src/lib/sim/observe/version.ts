/** The Kubernetes version the lab simulates, for pages that show it without loading the lab. */
export { DEFAULT_KUBERNETES_VERSION } from '../config';
