/**
 * The image registry model: which repositories and tags exist and how big each image is.
 * Pull errors are worded the way containerd's CRI plugin reports them to the kubelet.
 * Scenarios can add private images (or extra tags) with `setRegistryImages`, kept in
 * `cluster.extensions` so snapshots carry them.
 */
import type { Cluster } from '../cluster';

export interface RegistryImage {
  /** Fully qualified repository, e.g. docker.io/library/nginx. */
  repository: string;
  tag: string;
  /** Compressed download size = the unpacked size containerd reports, in bytes. */
  sizeBytes: number;
}

const MB = 1_000_000;

/** [repository, tag, size in MB] for common images, sizes close to the linux/amd64 manifests. */
const CATALOG: [string, string, number][] = [
  ['docker.io/library/nginx', '1.29', 72.2],
  ['docker.io/library/nginx', '1.28', 71.8],
  ['docker.io/library/nginx', '1.27', 72.1],
  ['docker.io/library/nginx', '1.25', 70.5],
  ['docker.io/library/nginx', 'latest', 72.2],
  ['docker.io/library/nginx', '1.29-alpine', 22.6],
  ['docker.io/library/busybox', '1.37', 2.2],
  ['docker.io/library/busybox', '1.36', 2.2],
  ['docker.io/library/busybox', 'latest', 2.2],
  ['docker.io/library/alpine', '3.22', 3.8],
  ['docker.io/library/alpine', '3.21', 3.6],
  ['docker.io/library/alpine', 'latest', 3.8],
  ['docker.io/library/ubuntu', '24.04', 29.7],
  ['docker.io/library/ubuntu', 'latest', 29.7],
  ['docker.io/library/redis', '8.2', 52.3],
  ['docker.io/library/redis', '7.4', 45.8],
  ['docker.io/library/redis', 'latest', 52.3],
  ['docker.io/library/postgres', '17', 158.6],
  ['docker.io/library/postgres', '16', 155.4],
  ['docker.io/library/postgres', 'latest', 158.6],
  ['docker.io/library/mysql', '8.4', 235.1],
  ['docker.io/library/httpd', '2.4', 58.9],
  ['docker.io/library/python', '3.13-slim', 49.6],
  ['docker.io/library/node', '22-alpine', 56.1],
  ['registry.k8s.io/pause', '3.10', 0.32],
  ['registry.k8s.io/pause', '3.10.1', 0.32],
  ['registry.k8s.io/kube-proxy', 'v1.35.0', 31.2],
  ['registry.k8s.io/kube-proxy', 'v1.34.2', 31.0],
  ['registry.k8s.io/coredns/coredns', 'v1.12.4', 22.4],
  ['registry.k8s.io/etcd', '3.6.5-0', 23.6],
  ['registry.k8s.io/metrics-server/metrics-server', 'v0.8.0', 20.1],
  ['registry.k8s.io/e2e-test-images/agnhost', '2.53', 53.2],
  ['docker.io/calico/node', 'v3.30.3', 161.2],
  ['docker.io/calico/cni', 'v3.30.3', 74.5],
  ['docker.io/calico/kube-controllers', 'v3.30.3', 35.9],
  ['quay.io/cilium/cilium', 'v1.18.2', 231.4],
  ['quay.io/cilium/operator-generic', 'v1.18.2', 29.8],
  ['ghcr.io/flannel-io/flannel', 'v0.27.3', 32.6],
  ['ghcr.io/flannel-io/flannel-cni-plugin', 'v1.7.1-flannel1', 4.9],
  ['nvcr.io/nvidia/cuda', '12.9.1-base-ubuntu24.04', 110.7],
  ['nvcr.io/nvidia/cuda', '12.9.1-runtime-ubuntu24.04', 1812.4],
  ['nvcr.io/nvidia/k8s-device-plugin', 'v0.17.4', 147.3],
  ['docker.io/prom/prometheus', 'v3.6.0', 134.9],
  ['quay.io/prometheus/node-exporter', 'v1.9.1', 12.1],
  ['quay.io/prometheus/node-exporter', 'v1.8.2', 11.8],
  ['docker.io/prom/node-exporter', 'v1.9.1', 12.1],
  ['docker.io/grafana/grafana', '12.2.0', 187.6]
];

const EXT_KEY = 'node/registry';

/** Add images (or tags) to the registry for this cluster; scenarios call this. */
export function setRegistryImages(cluster: Cluster, images: RegistryImage[]): void {
  const cur = (cluster.extensions[EXT_KEY] as RegistryImage[] | undefined) ?? [];
  const byRef = new Map(cur.map((i) => [`${i.repository}:${i.tag}`, i]));
  for (const i of images) {
    const n = normalizeImage(`${i.repository}:${i.tag}`);
    byRef.set(`${n.repository}:${n.tag}`, { repository: n.repository, tag: n.tag, sizeBytes: i.sizeBytes });
  }
  cluster.extensions[EXT_KEY] = [...byRef.values()];
}

export interface ImageRef {
  /** docker.io/library/nginx */
  repository: string;
  /** 1.27; "latest" when omitted */
  tag: string;
  /** True when the user wrote no tag. */
  implicitTag: boolean;
  /** docker.io/library/nginx:1.27, as the runtime names it. */
  full: string;
}

/** Normalise an image reference as containerd does: nginx → docker.io/library/nginx:latest. */
export function normalizeImage(image: string): ImageRef {
  let name = image.trim();
  const at = name.indexOf('@');
  if (at >= 0) name = name.slice(0, at);
  let tag = '';
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  const first = name.split('/')[0];
  const hasRegistry =
    name.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) name = name.includes('/') ? `docker.io/${name}` : `docker.io/library/${name}`;
  const implicitTag = tag === '';
  if (implicitTag) tag = 'latest';
  return { repository: name, tag, implicitTag, full: `${name}:${tag}` };
}

/** Every image the registry serves for this cluster. */
export function registryImages(cluster: Cluster): RegistryImage[] {
  const extra = (cluster.extensions[EXT_KEY] as RegistryImage[] | undefined) ?? [];
  const base = CATALOG.map(([repository, tag, mb]) => ({
    repository,
    tag,
    sizeBytes: Math.round(mb * MB)
  }));
  return [...base, ...extra];
}

export type ResolveResult = { ok: true; image: RegistryImage } | { ok: false; error: string };

/** Look an image up the way a pull would; an unknown repo or tag gives containerd's NotFound error. */
export function resolveImage(cluster: Cluster, image: string): ResolveResult {
  const ref = normalizeImage(image);
  const found = registryImages(cluster)
    .reverse()
    .find((i) => i.repository === ref.repository && i.tag === ref.tag);
  if (found) return { ok: true, image: found };
  const all = registryImages(cluster);
  const knownRepo = all.some((i) => i.repository === ref.repository);
  const host = ref.repository.split('/')[0];
  const knownHost = all.some((i) => i.repository.split('/')[0] === host);
  const r = ref.full;
  const prefix = `failed to pull and unpack image "${r}": failed to resolve reference "${r}"`;
  if (knownRepo || (knownHost && host !== 'docker.io')) {
    return { ok: false, error: `rpc error: code = NotFound desc = ${prefix}: ${r}: not found` };
  }
  if (host === 'docker.io') {
    // Docker Hub answers an unknown repository with an authorization error, not a 404.
    return {
      ok: false,
      error: `rpc error: code = Unknown desc = ${prefix}: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`
    };
  }
  const path = ref.repository.slice(host.length + 1);
  return {
    ok: false,
    error: `rpc error: code = Unknown desc = ${prefix}: failed to do request: Head "https://${host}/v2/${path}/manifests/${ref.tag}": dial tcp: lookup ${host}: no such host`
  };
}
