/**
 * Networking: import this module to register the kube-proxy component, the SetProxyMode fault,
 * the EndpointSlice controller and the node dataplane provider. `installNetworking` adds the
 * controller, the simulated cloud load balancer and one kube-proxy per Node (unless Cilium
 * replaces kube-proxy). Importing it also registers the ServiceAllocation admission plugin, and
 * a bootstrap hook that gives every scenario cluster the `default/kubernetes` Service.
 */
import type { Cluster } from '../cluster';
import type { BootstrapStep } from '../scenario/hooks';
import { ensureKubeProxyConfig } from './kubeproxy';
import { kubeProxyReplaced } from './provider';

export { trace, renderTrace, type TraceHop, type TraceResult } from './trace';
export {
  nodeProgram,
  nodeDataplane,
  kubeProxyReplaced,
  ciliumServiceList,
  setKubeProxyReplacement
} from './provider';
export { installServiceAllocator, serviceAllocator, NODE_PORT_RANGE } from './allocator';
export { LB_POOL, LB_PROVISION_MS } from './lbcontroller';
export {
  syncEndpointSlices,
  EndpointSliceKcmController,
  MAX_ENDPOINTS_PER_SLICE
} from '../controllers/endpointslice/controller';
export { cniInstalled, cniPlugin, cniConfigFiles, CNI_NOT_READY_MESSAGE, nodeAddrs } from './cni';
export { rules, syncTime, firstPacketLookup, programmingLatency, CALIBRATION, FITTED } from './costmodel';
export {
  kubeProxyOf,
  KUBE_PROXY_DEFAULTS,
  KUBE_PROXY_CONFIGMAP,
  PROXY_MODES,
  readProxyMode,
  type ProxyMode
} from './kubeproxy';
export {
  ApiServerEndpoints,
  apiServerAddress,
  KUBERNETES_SERVICE,
  APISERVER_LEASE_TTL_MS,
  APISERVER_ENDPOINT_INTERVAL_MS
} from './apiserver-endpoints';

// kube-apiserver creates `default/kubernetes` when it starts, before anything else is applied.
export const kubernetesServiceStep: BootstrapStep = (cluster) => {
  if (!cluster.component('apiserver-endpoints')) cluster.addComponent('apiserver-endpoints', {});
};

/** Add the cloud load-balancer controller and a kube-proxy for every Node that has none yet. */
export function installNetworking(cluster: Cluster): void {
  // EndpointSlices are kept by kube-controller-manager's endpointslice-controller; a cluster
  // without the manager (unit tests) runs it standalone.
  if (!cluster.component('kube-controller-manager') && !cluster.component('endpointslice-controller')) {
    cluster.addComponent('endpointslice-controller', {});
  }
  if (!cluster.component('service-lb-controller')) cluster.addComponent('service-lb-controller', {});
  ensureKubeProxies(cluster);
}

/** kube-proxy runs as a DaemonSet: one per node. Call after nodes join (and on node deletion). */
export function ensureKubeProxies(cluster: Cluster): void {
  if (cluster.config.network.proxyMode === 'none' || kubeProxyReplaced(cluster)) return;
  ensureKubeProxyConfig(cluster);
  const nodes = new Set(cluster.api.list('Node').map((n) => n.metadata.name));
  for (const n of nodes)
    if (!cluster.component(`kube-proxy/${n}`)) cluster.addComponent('kube-proxy', { nodeName: n });
  for (const c of cluster.componentsOfKind('kube-proxy'))
    if (!nodes.has((c.args as { nodeName: string }).nodeName)) cluster.removeComponent(c.id);
}
