/**
 * The files on a node that its services name: the kubelet's config and kubeconfig, the CNI
 * config, the container runtime's config and kube-proxy's config. Each is rendered from the
 * state of the component that reads it, so `cat` shows what is in force now.
 */
import type { Cluster } from '../../cluster';
import { KUBE_PROXY_CONFIG_PATH, kubeProxyConfigOnNode } from '../../network/kubeproxy-config';
import { kubeProxyOf } from '../../network/kubeproxy';
import { KUBE_PROXY_UNIT_PATH, kubeProxyUnitFile } from '../../network/kubeproxy-host';
import { kubeletConfigYaml, kubeletKubeconfig } from '../kubeletconfig';
import type { ShellHost } from './host';
import { cniFiles } from './net';

/** The file the lab's "Fill disk" writes (`fallocate -l 100G /var/lib/fill.img`). */
export const FILL_FILE = '/var/lib/fill.img';

function containerdConfig(version: string): string {
  if (version.startsWith('1.')) {
    return `version = 2
root = "/var/lib/containerd"
state = "/run/containerd"

[grpc]
  address = "/run/containerd/containerd.sock"

[plugins]
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "registry.k8s.io/pause:3.10"
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/opt/cni/bin"
      conf_dir = "/etc/cni/net.d"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      default_runtime_name = "runc"
      snapshotter = "overlayfs"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          SystemdCgroup = true
`;
  }
  return `version = 3
root = '/var/lib/containerd'
state = '/run/containerd'

[grpc]
  address = '/run/containerd/containerd.sock'

[plugins]
  [plugins.'io.containerd.cri.v1.images']
    snapshotter = 'overlayfs'

    [plugins.'io.containerd.cri.v1.images'.pinned_images]
      sandbox = 'registry.k8s.io/pause:3.10'

  [plugins.'io.containerd.cri.v1.runtime']
    [plugins.'io.containerd.cri.v1.runtime'.cni]
      bin_dirs = ['/opt/cni/bin']
      conf_dir = '/etc/cni/net.d'

    [plugins.'io.containerd.cri.v1.runtime'.containerd]
      default_runtime_name = 'runc'

      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
        runtime_type = 'io.containerd.runc.v2'

        [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
          SystemdCgroup = true
`;
}

const CRIO_CONF = `[crio]
storage_driver = "overlay"

[crio.api]
listen = "/var/run/crio/crio.sock"

[crio.runtime]
cgroup_manager = "systemd"
default_runtime = "crun"

[crio.image]
pause_image = "registry.k8s.io/pause:3.10"

[crio.network]
network_dir = "/etc/cni/net.d/"
plugin_dirs = [
	"/opt/cni/bin/",
]
`;

/** Every modelled file on the node: absolute path → content. */
export function nodeFiles(cluster: Cluster, host: ShellHost): Record<string, string> {
  const node = host.view.nodeName;
  const files: Record<string, string> = { '/etc/hostname': node + '\n' };
  for (const [name, text] of Object.entries(cniFiles(cluster, host)))
    files[`/etc/cni/net.d/${name}`] = text.endsWith('\n') ? text : text + '\n';
  const k = cluster.nodeHost(node)?.kubelet;
  if (k) {
    files['/var/lib/kubelet/config.yaml'] = kubeletConfigYaml(k.args, k.cfg, k.maxPods);
    if (k.host.state.system.fillDisk > 0) files[FILL_FILE] = '';
  }
  files['/etc/kubernetes/kubelet.conf'] = kubeletKubeconfig(node);
  if (host.view.runtimeName === 'cri-o') files['/etc/crio/crio.conf'] = CRIO_CONF;
  else files['/etc/containerd/config.toml'] = containerdConfig(host.view.runtimeVersion);
  const proxyConfig = kubeProxyConfigOnNode(cluster, node);
  if (proxyConfig !== undefined) files[KUBE_PROXY_CONFIG_PATH] = proxyConfig;
  if (kubeProxyOf(cluster, node)?.state.host)
    files[KUBE_PROXY_UNIT_PATH] = kubeProxyUnitFile(KUBE_PROXY_CONFIG_PATH);
  return files;
}

/** Directories that exist on every node even when empty. */
const DIRS = [
  '/root',
  '/etc',
  '/etc/cni',
  '/etc/cni/net.d',
  '/etc/kubernetes',
  '/etc/kubernetes/manifests',
  '/var',
  '/var/lib',
  '/var/lib/kubelet'
];

/** Resolve `p` against the home directory (`~`, relative paths) and drop trailing slashes. */
export function absPath(p: string, home: string): string {
  let s = p === '~' ? home : p.startsWith('~/') ? home + p.slice(1) : p.startsWith('/') ? p : `${home}/${p}`;
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  s = '/' + parts.join('/');
  return s;
}

/** The entries of directory `dir` (names, sorted), or undefined if it is not a directory. */
export function listDir(files: Record<string, string>, dir: string): string[] | undefined {
  const prefix = dir === '/' ? '/' : dir + '/';
  const names = new Set<string>();
  let exists = DIRS.includes(dir) || dir === '/';
  for (const p of [...Object.keys(files), ...DIRS]) {
    if (!p.startsWith(prefix) || p === dir) continue;
    exists = true;
    names.add(p.slice(prefix.length).split('/')[0]);
  }
  return exists ? [...names].sort() : undefined;
}

export function isDir(files: Record<string, string>, p: string): boolean {
  return listDir(files, p) !== undefined;
}

/** Expand a glob (`*`, `?`) in the last path segment; no match gives the word back, as bash does. */
export function glob(files: Record<string, string>, p: string): string[] {
  if (!/[*?]/.test(p)) return [p];
  const i = p.lastIndexOf('/');
  const dir = i <= 0 ? '/' : p.slice(0, i);
  const base = p.slice(i + 1);
  const re = new RegExp(
    '^' +
      base
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.') +
      '$'
  );
  const names = (listDir(files, dir) ?? []).filter((n) => re.test(n) && !n.startsWith('.'));
  return names.length ? names.map((n) => (dir === '/' ? `/${n}` : `${dir}/${n}`)) : [p];
}
