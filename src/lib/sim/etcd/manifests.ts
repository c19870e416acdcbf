/**
 * The static-pod manifests kubeadm v1.35 writes to /etc/kubernetes/manifests on each
 * control-plane host (cmd/kubeadm/app/phases/controlplane/manifests.go and
 * cmd/kubeadm/app/phases/etcd/local.go): the same flags, probes, hostPath volumes and ports
 * (etcd 2379 client / 2380 peer / 2381 metrics, kube-apiserver 6443, kube-controller-manager
 * 10257, kube-scheduler 10259). All four get priorityClassName system-node-critical.
 */
import { parse } from 'yaml';

export const MANIFEST_DIR = '/etc/kubernetes/manifests';
export const ETCD_VERSION = '3.6.5';
export const ETCD_IMAGE = `registry.k8s.io/etcd:${ETCD_VERSION}-0`;
export const STATIC_COMPONENTS = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler'
] as const;
export type StaticComponent = (typeof STATIC_COMPONENTS)[number];

export interface ControlPlaneHostInfo {
  /** control-plane-1 … */
  host: string;
  /** The host's advertise address (10.0.0.10 with one control-plane node). */
  ip: string;
  /** `--initial-cluster` as kubeadm writes it for this member. */
  initialCluster: string;
  /** A member that joins a running cluster (`kubeadm join --control-plane`) starts with `existing`. */
  initialClusterState?: 'existing';
  kubernetesVersion: string;
  clusterCIDR: string;
  serviceCIDR: string;
}

const probe = (path: string, port: number, scheme: string, host: string, opts: string) =>
  `      httpGet:
        host: ${host}
        path: ${path}
        port: ${port}
        scheme: ${scheme}
${opts}`;

const hostPathVolume = (name: string, path: string, type: string) =>
  `  - hostPath:
      path: ${path}
      type: ${type}
    name: ${name}
`;

const mount = (name: string, path: string, readOnly = false) =>
  `    - mountPath: ${path}
      name: ${name}
${readOnly ? '      readOnly: true\n' : ''}`;

const CA_VOLUMES: [string, string][] = [
  ['ca-certs', '/etc/ssl/certs'],
  ['etc-ca-certificates', '/etc/ca-certificates'],
  ['k8s-certs', '/etc/kubernetes/pki'],
  ['usr-local-share-ca-certificates', '/usr/local/share/ca-certificates'],
  ['usr-share-ca-certificates', '/usr/share/ca-certificates']
];

function pod(
  name: StaticComponent,
  annotations: string,
  command: string[],
  image: string,
  probes: { liveness: string; readiness?: string; startup: string },
  cpu: string,
  memory: string | null,
  mounts: string,
  volumes: string
): string {
  return `apiVersion: v1
kind: Pod
metadata:
${annotations ? `  annotations:\n${annotations}` : ''}  labels:
    component: ${name}
    tier: control-plane
  name: ${name}
  namespace: kube-system
spec:
  containers:
  - command:
${command.map((c) => `    - ${c}\n`).join('')}    image: ${image}
    imagePullPolicy: IfNotPresent
    livenessProbe:
      failureThreshold: 8
${probes.liveness}    name: ${name}
${probes.readiness ? `    readinessProbe:\n      failureThreshold: 3\n${probes.readiness}` : ''}    resources:
      requests:
        cpu: ${cpu}
${memory ? `        memory: ${memory}\n` : ''}    startupProbe:
      failureThreshold: 24
${probes.startup}    volumeMounts:
${mounts}  hostNetwork: true
  priority: 2000001000
  priorityClassName: system-node-critical
  securityContext:
    seccompProfile:
      type: RuntimeDefault
  volumes:
${volumes}status: {}
`;
}

const timing = (initial: boolean, period = 10) =>
  `${initial ? '      initialDelaySeconds: 10\n' : ''}      periodSeconds: ${period}\n      timeoutSeconds: 15\n`;

export function etcdManifest(h: ControlPlaneHostInfo): string {
  const cmd = [
    'etcd',
    `--advertise-client-urls=https://${h.ip}:2379`,
    '--cert-file=/etc/kubernetes/pki/etcd/server.crt',
    '--client-cert-auth=true',
    '--data-dir=/var/lib/etcd',
    '--feature-gates=InitialCorruptCheck=true',
    `--initial-advertise-peer-urls=https://${h.ip}:2380`,
    `--initial-cluster=${h.initialCluster}`,
    ...(h.initialClusterState ? [`--initial-cluster-state=${h.initialClusterState}`] : []),
    '--key-file=/etc/kubernetes/pki/etcd/server.key',
    `--listen-client-urls=https://127.0.0.1:2379,https://${h.ip}:2379`,
    '--listen-metrics-urls=http://127.0.0.1:2381',
    `--listen-peer-urls=https://${h.ip}:2380`,
    `--name=${h.host}`,
    '--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt',
    '--peer-client-cert-auth=true',
    '--peer-key-file=/etc/kubernetes/pki/etcd/peer.key',
    '--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
    '--snapshot-count=10000',
    '--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
    '--watch-progress-notify-interval=5s'
  ];
  return pod(
    'etcd',
    `    kubeadm.kubernetes.io/etcd.advertise-client-urls: https://${h.ip}:2379\n`,
    cmd,
    ETCD_IMAGE,
    {
      liveness: probe('/livez', 2381, 'HTTP', '127.0.0.1', timing(true)),
      readiness: probe('/readyz', 2381, 'HTTP', '127.0.0.1', timing(false, 1)),
      startup: probe('/readyz', 2381, 'HTTP', '127.0.0.1', timing(true))
    },
    '100m',
    '100Mi',
    mount('etcd-data', '/var/lib/etcd') + mount('etcd-certs', '/etc/kubernetes/pki/etcd'),
    hostPathVolume('etcd-certs', '/etc/kubernetes/pki/etcd', 'DirectoryOrCreate') +
      hostPathVolume('etcd-data', '/var/lib/etcd', 'DirectoryOrCreate')
  );
}

export function apiServerManifest(h: ControlPlaneHostInfo): string {
  const cmd = [
    'kube-apiserver',
    `--advertise-address=${h.ip}`,
    '--allow-privileged=true',
    '--authorization-mode=Node,RBAC',
    '--client-ca-file=/etc/kubernetes/pki/ca.crt',
    '--enable-admission-plugins=NodeRestriction',
    '--enable-bootstrap-token-auth=true',
    '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt',
    '--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt',
    '--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key',
    '--etcd-servers=https://127.0.0.1:2379',
    '--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt',
    '--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key',
    '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
    '--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt',
    '--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key',
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-username-headers=X-Remote-User',
    '--secure-port=6443',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    '--service-account-key-file=/etc/kubernetes/pki/sa.pub',
    '--service-account-signing-key-file=/etc/kubernetes/pki/sa.key',
    `--service-cluster-ip-range=${h.serviceCIDR}`,
    '--tls-cert-file=/etc/kubernetes/pki/apiserver.crt',
    '--tls-private-key-file=/etc/kubernetes/pki/apiserver.key'
  ];
  return pod(
    'kube-apiserver',
    `    kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint: ${h.ip}:6443\n`,
    cmd,
    `registry.k8s.io/kube-apiserver:${h.kubernetesVersion}`,
    {
      liveness: probe('/livez', 6443, 'HTTPS', h.ip, timing(true)),
      readiness: probe('/readyz', 6443, 'HTTPS', h.ip, timing(false, 1)),
      startup: probe('/livez', 6443, 'HTTPS', h.ip, timing(true))
    },
    '250m',
    null,
    CA_VOLUMES.map(([n, p]) => mount(n, p, true)).join(''),
    CA_VOLUMES.map(([n, p]) => hostPathVolume(n, p, 'DirectoryOrCreate')).join('')
  );
}

export function controllerManagerManifest(h: ControlPlaneHostInfo): string {
  const cmd = [
    'kube-controller-manager',
    '--allocate-node-cidrs=true',
    '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
    '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf',
    '--bind-address=127.0.0.1',
    '--client-ca-file=/etc/kubernetes/pki/ca.crt',
    `--cluster-cidr=${h.clusterCIDR}`,
    '--cluster-name=kubernetes',
    '--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt',
    '--cluster-signing-key-file=/etc/kubernetes/pki/ca.key',
    '--controllers=*,bootstrapsigner,tokencleaner',
    '--kubeconfig=/etc/kubernetes/controller-manager.conf',
    '--leader-elect=true',
    '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
    '--root-ca-file=/etc/kubernetes/pki/ca.crt',
    '--service-account-private-key-file=/etc/kubernetes/pki/sa.key',
    `--service-cluster-ip-range=${h.serviceCIDR}`,
    '--use-service-account-credentials=true'
  ];
  const vols: [string, string, string][] = [
    ['ca-certs', '/etc/ssl/certs', 'DirectoryOrCreate'],
    ['etc-ca-certificates', '/etc/ca-certificates', 'DirectoryOrCreate'],
    ['flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', 'DirectoryOrCreate'],
    ['k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate'],
    ['kubeconfig', '/etc/kubernetes/controller-manager.conf', 'FileOrCreate'],
    ['usr-local-share-ca-certificates', '/usr/local/share/ca-certificates', 'DirectoryOrCreate'],
    ['usr-share-ca-certificates', '/usr/share/ca-certificates', 'DirectoryOrCreate']
  ];
  return pod(
    'kube-controller-manager',
    '',
    cmd,
    `registry.k8s.io/kube-controller-manager:${h.kubernetesVersion}`,
    {
      liveness: probe('/healthz', 10257, 'HTTPS', '127.0.0.1', timing(true)),
      startup: probe('/healthz', 10257, 'HTTPS', '127.0.0.1', timing(true))
    },
    '200m',
    null,
    vols.map(([n, p]) => mount(n, p, n !== 'flexvolume-dir')).join(''),
    vols.map(([n, p, t]) => hostPathVolume(n, p, t)).join('')
  );
}

export function schedulerManifest(h: ControlPlaneHostInfo): string {
  const cmd = [
    'kube-scheduler',
    '--authentication-kubeconfig=/etc/kubernetes/scheduler.conf',
    '--authorization-kubeconfig=/etc/kubernetes/scheduler.conf',
    '--bind-address=127.0.0.1',
    '--kubeconfig=/etc/kubernetes/scheduler.conf',
    '--leader-elect=true'
  ];
  return pod(
    'kube-scheduler',
    '',
    cmd,
    `registry.k8s.io/kube-scheduler:${h.kubernetesVersion}`,
    {
      liveness: probe('/livez', 10259, 'HTTPS', '127.0.0.1', timing(true)),
      readiness: probe('/readyz', 10259, 'HTTPS', '127.0.0.1', timing(false, 1)),
      startup: probe('/livez', 10259, 'HTTPS', '127.0.0.1', timing(true))
    },
    '100m',
    null,
    mount('kubeconfig', '/etc/kubernetes/scheduler.conf', true),
    hostPathVolume('kubeconfig', '/etc/kubernetes/scheduler.conf', 'FileOrCreate')
  );
}

export function defaultManifest(c: StaticComponent, h: ControlPlaneHostInfo): string {
  switch (c) {
    case 'etcd':
      return etcdManifest(h);
    case 'kube-apiserver':
      return apiServerManifest(h);
    case 'kube-controller-manager':
      return controllerManagerManifest(h);
    case 'kube-scheduler':
      return schedulerManifest(h);
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

/** Parsed manifests by their text: the kubelet re-reads the directory every 20 s; YAML parsing is not cheap. */
const parsed = new Map<string, Any | null>();

/** Parse a static-pod manifest; null when it is not a Pod (the kubelet skips such a file). */
export function parseStaticPod(text: string): Any | null {
  const hit = parsed.get(text);
  if (hit !== undefined) return hit;
  let pod: Any | null;
  try {
    const obj = parse(text);
    pod = obj && typeof obj === 'object' && obj.kind === 'Pod' && obj.metadata?.name ? obj : null;
  } catch {
    pod = null;
  }
  if (parsed.size > 256) parsed.clear();
  parsed.set(text, pod);
  return pod;
}

/**
 * Where the etcd in this manifest keeps its data on the host: the hostPath of the volume mounted
 * at `--data-dir` (kubeadm mounts the etcd-data volume at /var/lib/etcd).
 */
export function etcdDataDir(pod: Any): string | null {
  const c = pod?.spec?.containers?.[0];
  const flag = (c?.command ?? []).find((a: unknown) => typeof a === 'string' && a.startsWith('--data-dir='));
  const dataDir = flag ? String(flag).slice('--data-dir='.length) : '/var/lib/etcd';
  const m = (c?.volumeMounts ?? []).find(
    (v: Any) => dataDir === v.mountPath || dataDir.startsWith(v.mountPath + '/')
  );
  if (!m) return dataDir;
  const vol = (pod.spec.volumes ?? []).find((v: Any) => v.name === m.name);
  const hostPath = vol?.hostPath?.path;
  if (typeof hostPath !== 'string') return null;
  return hostPath + dataDir.slice(m.mountPath.length);
}
