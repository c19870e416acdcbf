/**
 * kube-proxy's configuration file, /var/lib/kube-proxy/config.conf: the KubeProxyConfiguration
 * (kubeproxy.config.k8s.io/v1alpha1) kubeadm writes into the kube-proxy ConfigMap, with the mode
 * the node's kube-proxy runs in and the defaults of pkg/proxy/apis/config/v1alpha1/defaults.go.
 */
import { stringify } from 'yaml';
import type { Cluster } from '../cluster';
import { KUBE_PROXY_DEFAULTS, kubeProxyOf } from './kubeproxy';

const seconds = (ms: number) => (ms >= 60_000 ? `${ms / 60_000}m0s` : `${ms / 1000}s`);

export function kubeProxyConfigConf(mode: string, clusterCIDR: string): string {
  const sync = {
    minSyncPeriod: seconds(KUBE_PROXY_DEFAULTS.minSyncPeriod),
    syncPeriod: seconds(KUBE_PROXY_DEFAULTS.syncPeriod)
  };
  return stringify(
    {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      bindAddress: '0.0.0.0',
      clientConnection: { kubeconfig: '/var/lib/kube-proxy/kubeconfig.conf' },
      clusterCIDR,
      conntrack: { maxPerCore: 32768, min: 131072 },
      healthzBindAddress: '0.0.0.0:10256',
      iptables: { localhostNodePorts: true, masqueradeAll: false, masqueradeBit: 14, ...sync },
      ipvs: { scheduler: '', ...sync },
      metricsBindAddress: '127.0.0.1:10249',
      mode,
      nftables: { masqueradeAll: false, masqueradeBit: 14, ...sync }
    },
    { indentSeq: false, sortMapEntries: true, lineWidth: 0, version: '1.1' }
  );
}

export const KUBE_PROXY_CONFIG_PATH = '/var/lib/kube-proxy/config.conf';

/**
 * The file on `nodeName`, or undefined where no kube-proxy runs. With kubeadm's DaemonSet it is
 * the ConfigMap's `config.conf` as the kube-proxy pod mounts it (the configuration the running
 * kube-proxy read); with kube-proxy as a host service it is the node's own file, as last written.
 */
export function kubeProxyConfigOnNode(cluster: Cluster, nodeName: string): string | undefined {
  const kp = kubeProxyOf(cluster, nodeName);
  if (!kp) return undefined;
  if (kp.state.host) return kp.state.host.config;
  return kubeProxyConfigConf(kp.state.mode, cluster.config.network.clusterCIDR);
}
