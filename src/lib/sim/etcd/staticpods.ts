/**
 * The control-plane hosts' static pods and the files around them (component kind `static-pods`).
 *
 * Each control-plane host keeps kubeadm's manifests in /etc/kubernetes/manifests, etcd's data
 * directory (/var/lib/etcd) and whatever the operator writes there (snapshot files, restored data
 * directories). The kubelet on the host runs what the manifest directory holds: moving
 * etcd.yaml out stops that etcd member, moving kube-apiserver.yaml out stops that API server,
 * and moving them back starts them (the kubelet's file source notices within a second through
 * inotify and re-reads the directory every 20 s, `fileCheckFrequency`). For each running static
 * pod the kubelet keeps a mirror pod `<name>-<host>` in kube-system (pkg/kubelet/pod/mirror_client.go:
 * annotation kubernetes.io/config.mirror, an ownerReference to its Node; no Node, no mirror pod),
 * and writes the static pod's status to it (Running on the host's network, the host's IP as podIP).
 * Each host runs a real kubelet that registers its Node (controlplane/markcontrolplane.ts): the
 * mirror pods appear as soon as it is registered, and while that kubelet is stopped or the machine
 * is off nothing here changes (the file source is the kubelet's).
 *
 * An etcd that starts on a data directory written by `etcdutl snapshot restore` brings the
 * snapshot's keyspace back: the API server's store is replaced by the snapshot's objects, and
 * every watcher sees the difference as it would after relisting.
 */
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { copySharingFrozen, deepFreeze, type KubeObject, type RequestContext } from '../api/types';
import { controlPlaneAddress } from '../network/apiserver-endpoints';
import { startControlPlaneKubelet } from '../controlplane/markcontrolplane';
import { apiServerLoad } from '../controlplane/sizing';
import { qosClass } from '../node/podstatus';
import type { BootstrapStep } from '../scenario/hooks';
import {
  defaultManifest,
  etcdDataDir,
  MANIFEST_DIR,
  parseStaticPod,
  STATIC_COMPONENTS,
  type ControlPlaneHostInfo,
  type StaticComponent
} from './manifests';

export const STATIC_PODS_ID = 'static-pods';
export const STATIC_PODS_KIND = 'static-pods';
/** kubelet `fileCheckFrequency` default. */
export const FILE_CHECK_MS = 20_000;
/** inotify delivers the change at once; the container starts about a second later. */
export const START_DELAY_MS = 1_000;
export const ETCD_DATA_DIR = '/var/lib/etcd';

/** What an etcd snapshot file holds: the keyspace at one revision. Frozen and shared. */
export interface SnapshotData {
  revision: number;
  objects: readonly KubeObject[];
  /** Keys in the keyspace (objects, plus etcd's own few). */
  totalKeys: number;
  sizeBytes: number;
  hash: number;
}

/** A data directory `etcdutl snapshot restore` wrote (or the one kubeadm's etcd started on). */
export interface DataDir {
  /** Members whose data dirs share a generation form one cluster. */
  generation: string;
  /** The snapshot it was restored from. */
  snapshot?: string;
  /** Member name and peer URL recorded in it (`--name`, `--initial-advertise-peer-urls`). */
  name: string;
  peerURL: string;
  /** Members in `--initial-cluster`. */
  clusterSize: number;
  bumpRevision: number;
}

export type HostFile =
  | { type: 'file'; content: string; mtime: number; mode?: string }
  | { type: 'snapshot'; snapshot: string; mtime: number }
  | { type: 'dir'; mtime: number }
  | { type: 'datadir'; data: string; mtime: number };

export interface StaticPodsState {
  /** host → path → file. Directories that hold files need no entry of their own. */
  files: Record<string, Record<string, HostFile>>;
  snapshots: Record<string, SnapshotData>;
  dataDirs: Record<string, DataDir>;
  /** The generation the running members share. */
  live: string;
  /** host → component → running as a static pod. */
  running: Record<string, Record<string, boolean>>;
  /** host → the data dir the etcd member there runs on. */
  etcdDir: Record<string, string>;
  /** host → why its etcd does not start (shown by etcdctl and crictl-like tools). */
  etcdError: Record<string, string>;
  seq: number;
  syncPending: boolean;
  /**
   * host → kubeadm join is waiting for the learner there to start and catch up, to promote it
   * (phases/etcd/local.go CreateStackedEtcdStaticPodManifestFile: AddMemberAsLearner, write the
   * manifest, MemberPromote with retries).
   */
  joining?: Record<string, boolean>;
  /** host → component → when its container started (the mirror pod's startTime). */
  startedAt?: Record<string, Record<string, number>>;
}

/** kubeadm's MemberPromote retries until the new learner is in sync: modelled as 2 s after it starts. */
export const PROMOTE_DELAY_MS = 2_000;

export interface StaticPodsArgs {
  hosts: string[];
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const BASE_DIRS = [
  '/',
  '/root',
  '/tmp',
  '/opt',
  '/var',
  '/var/lib',
  '/etc',
  '/etc/kubernetes',
  MANIFEST_DIR,
  '/etc/kubernetes/pki',
  '/etc/kubernetes/pki/etcd',
  '/home',
  '/srv',
  '/mnt',
  '/backup'
];

export const PKI_FILES = [
  '/etc/kubernetes/pki/ca.crt',
  '/etc/kubernetes/pki/ca.key',
  '/etc/kubernetes/pki/apiserver.crt',
  '/etc/kubernetes/pki/apiserver.key',
  '/etc/kubernetes/pki/apiserver-etcd-client.crt',
  '/etc/kubernetes/pki/apiserver-etcd-client.key',
  '/etc/kubernetes/pki/apiserver-kubelet-client.crt',
  '/etc/kubernetes/pki/apiserver-kubelet-client.key',
  '/etc/kubernetes/pki/etcd/ca.crt',
  '/etc/kubernetes/pki/etcd/ca.key',
  '/etc/kubernetes/pki/etcd/healthcheck-client.crt',
  '/etc/kubernetes/pki/etcd/healthcheck-client.key',
  '/etc/kubernetes/pki/etcd/peer.crt',
  '/etc/kubernetes/pki/etcd/peer.key',
  '/etc/kubernetes/pki/etcd/server.crt',
  '/etc/kubernetes/pki/etcd/server.key'
];

export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined;
}

/** The kubelet's container handle for a static pod (a digest of host, component and start time). */
function containerId(host: string, c: string, since: number): string {
  return (fnv32(`${host}/${c}/${since}`).toString(16).padStart(8, '0') + configHash(`${host}${c}${since}`))
    .slice(0, 64)
    .padEnd(64, '0');
}

export class StaticPods implements Component {
  readonly id = STATIC_PODS_ID;
  readonly kind = STATIC_PODS_KIND;
  state: StaticPodsState;
  private unwatch: () => void;

  constructor(
    private cluster: Cluster,
    readonly args: StaticPodsArgs
  ) {
    this.state = {
      files: {},
      snapshots: {},
      dataDirs: {},
      live: 'initial',
      running: {},
      etcdDir: {},
      etcdError: {},
      seq: 0,
      syncPending: false
    };
    for (const host of args.hosts) {
      const files: Record<string, HostFile> = {};
      const info = this.hostInfo(host);
      for (const c of this.componentsOn(host)) {
        files[`${MANIFEST_DIR}/${c}.yaml`] = {
          type: 'file',
          content: defaultManifest(c, info),
          mtime: 0,
          mode: '-rw-------'
        };
      }
      for (const p of PKI_FILES) {
        files[p] = {
          type: 'file',
          content: '',
          mtime: 0,
          mode: p.endsWith('.key') ? '-rw-------' : '-rw-r--r--'
        };
      }
      if (this.member(host)) {
        const id = `initial-${host}`;
        this.state.dataDirs[id] = {
          generation: 'initial',
          name: host,
          peerURL: `https://${info.ip}:2380`,
          clusterSize: this.cluster.etcd.size,
          bumpRevision: 0
        };
        files[ETCD_DATA_DIR] = { type: 'datadir', data: id, mtime: 0 };
        this.state.etcdDir[host] = ETCD_DATA_DIR;
      }
      this.state.files[host] = files;
      this.state.running[host] = Object.fromEntries(this.componentsOn(host).map((c) => [c, true]));
    }
    // The host's Node registering, or its mirror pod deleted or marked for deletion: the kubelet
    // (re)creates the mirror pods on its next pass (kubelet.go syncPod, mirror_client.go).
    const kick = () => {
      if (this.state.syncPending) return;
      this.state.syncPending = true;
      this.cluster.engine.schedule(0, this.id, 'kick');
    };
    const unNode = cluster.api.watch('Node', (type, obj) => {
      if (type === 'ADDED' && this.args.hosts.includes(obj.metadata.name)) kick();
    });
    const unPod = cluster.api.watch('Pod', (type, obj, old) => {
      if (obj.metadata.namespace !== 'kube-system' || !this.args.hosts.includes(obj.spec?.nodeName)) return;
      if (!isMirrorPod(obj)) return;
      if (type === 'DELETED' || (obj.metadata.deletionTimestamp && !old?.metadata.deletionTimestamp)) kick();
    });
    this.unwatch = () => {
      unNode();
      unPod();
    };
  }

  dispose(): void {
    this.unwatch();
  }

  start(): void {
    this.cluster.engine.schedule(0, this.id, 'sync');
  }

  getState(): unknown {
    return copySharingFrozen(this.state);
  }

  setState(s: unknown): void {
    this.state = copySharingFrozen(s as StaticPodsState);
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'sync') {
      this.sync();
      this.cluster.engine.schedule(FILE_CHECK_MS, this.id, 'sync');
    } else if (ev.type === 'kick') {
      this.state.syncPending = false;
      this.sync();
    } else if (ev.type === 'promote') {
      this.promoteJoined(ev.data as string);
    }
  }

  /**
   * A control-plane host joins (kubeadm join --control-plane): its PKI (downloaded from the
   * kubeadm-certs Secret with --certificate-key), its four manifests, an empty etcd data dir that
   * joins the live cluster, and the kubelet starts the static pods a second later. Its etcd member
   * must already be in the membership, as a learner.
   */
  addHost(host: string): void {
    if (!this.args.hosts.includes(host)) this.args.hosts.push(host);
    const files: Record<string, HostFile> = {};
    const now = this.cluster.now;
    const info: ControlPlaneHostInfo = { ...this.hostInfo(host), initialClusterState: 'existing' };
    for (const c of this.componentsOn(host)) {
      files[`${MANIFEST_DIR}/${c}.yaml`] = {
        type: 'file',
        content: defaultManifest(c, info),
        mtime: now,
        mode: '-rw-------'
      };
    }
    for (const p of PKI_FILES) {
      files[p] = {
        type: 'file',
        content: '',
        mtime: now,
        mode: p.endsWith('.key') ? '-rw-------' : '-rw-r--r--'
      };
    }
    this.state.files[host] = files;
    this.state.running[host] = {};
    if (this.member(host)) {
      const id = this.nextId('data');
      this.state.dataDirs[id] = {
        generation: this.state.live,
        name: host,
        peerURL: `https://${info.ip}:2380`,
        clusterSize: this.cluster.etcd.size,
        bumpRevision: 0
      };
      files[ETCD_DATA_DIR] = { type: 'datadir', data: id, mtime: now };
      this.state.etcdDir[host] = ETCD_DATA_DIR;
      (this.state.joining ??= {})[host] = true;
    }
    this.membershipChanged();
    this.changed();
    startControlPlaneKubelet(this.cluster, host, info.ip, apiServerLoad(this.cluster)?.cores);
  }

  /**
   * The membership is kept in every member's backend: the live members' data dirs now record the
   * cluster's new size (a restore still has to name every member in --initial-cluster).
   */
  membershipChanged(): void {
    for (const d of Object.values(this.state.dataDirs))
      if (d.generation === this.state.live) d.clusterSize = this.cluster.etcd.size;
  }

  private promoteJoined(host: string): void {
    if (!this.state.joining?.[host]) return;
    const m = this.member(host);
    delete this.state.joining[host];
    if (!m?.learner || !m.running || !this.cluster.etcd.hasQuorum()) return;
    this.cluster.etcd.promote(m.name);
  }

  /** The host's files changed (a shell command): the kubelet reacts within a second. */
  changed(): void {
    if (this.state.syncPending) return;
    this.state.syncPending = true;
    this.cluster.engine.schedule(START_DELAY_MS, this.id, 'kick');
  }

  get hosts(): string[] {
    return this.args.hosts;
  }

  hostInfo(host: string): ControlPlaneHostInfo {
    const cfg = this.cluster.config;
    const members = this.cluster.etcd.members;
    const ipOf = (h: string) => this.ipOf(h);
    return {
      host,
      ip: ipOf(host),
      initialCluster: members.map((m) => `${m.host}=https://${ipOf(m.host)}:2380`).join(','),
      kubernetesVersion: cfg.kubernetesVersion,
      clusterCIDR: cfg.network?.clusterCIDR ?? '10.244.0.0/16',
      serviceCIDR: cfg.network?.serviceCIDR ?? '10.96.0.0/12'
    };
  }

  ipOf(host: string): string {
    return controlPlaneAddress(this.cluster, host, this.args.hosts);
  }

  member(host: string) {
    return this.cluster.etcd.members.find((m) => m.host === host);
  }

  componentsOn(host: string): StaticComponent[] {
    return STATIC_COMPONENTS.filter((c) => c !== 'etcd' || this.member(host));
  }

  files(host: string): Record<string, HostFile> {
    return (this.state.files[host] ??= {});
  }

  isDir(host: string, path: string): boolean {
    if (BASE_DIRS.includes(path)) return true;
    const f = this.files(host)[path];
    if (f) return f.type === 'dir' || f.type === 'datadir';
    const prefix = path === '/' ? '/' : path + '/';
    return Object.keys(this.files(host)).some((p) => p.startsWith(prefix));
  }

  nextId(prefix: string): string {
    return `${prefix}-${++this.state.seq}`;
  }

  /** The static pods the manifest directory holds now: component → parsed pod. */
  desired(host: string): Map<StaticComponent, Any> {
    const out = new Map<StaticComponent, Any>();
    const files = this.files(host);
    for (const path of Object.keys(files).sort()) {
      const f = files[path];
      if (f.type !== 'file' || !path.startsWith(MANIFEST_DIR + '/')) continue;
      const base = path.slice(MANIFEST_DIR.length + 1);
      if (base.includes('/') || base.startsWith('.')) continue;
      const pod = parseStaticPod(f.content);
      const name = pod?.metadata?.name as StaticComponent;
      if (pod && STATIC_COMPONENTS.includes(name) && this.componentsOn(host).includes(name))
        out.set(name, pod);
    }
    return out;
  }

  /** The host's kubelet runs (no kubelet component: a cluster built without kubelets). */
  kubeletRunning(host: string): boolean {
    const k = this.cluster.component<Component & { running: boolean }>(`kubelet/${host}`);
    return !k || k.running;
  }

  sync(): void {
    for (const host of this.args.hosts) {
      // A stopped kubelet (or a machine that is off) reads no manifests and writes no mirror pods.
      if (!this.kubeletRunning(host)) continue;
      const desired = this.desired(host);
      const running = (this.state.running[host] ??= {});
      for (const c of this.componentsOn(host)) {
        const want = desired.has(c);
        if (c === 'etcd' && want) {
          const dir = etcdDataDir(desired.get(c));
          if (running[c] && dir !== this.state.etcdDir[host]) {
            // A changed manifest is a new pod: the kubelet kills the old one and starts the new.
            this.setRunning(host, c, false);
            running[c] = false;
          }
          if (!running[c]) running[c] = this.startEtcd(host, dir);
          continue;
        }
        if (want !== !!running[c]) {
          this.setRunning(host, c, want);
          running[c] = want;
        }
      }
      this.syncMirrorPods(host, desired);
    }
  }

  private setRunning(host: string, c: StaticComponent, on: boolean): void {
    const cluster = this.cluster;
    const started = ((this.state.startedAt ??= {})[host] ??= {});
    if (on) started[c] = cluster.now;
    else delete started[c];
    if (c === 'etcd') {
      const m = this.member(host);
      if (m && m.running !== on) {
        if (on) cluster.etcd.start(m.name);
        else cluster.etcd.stop(m.name);
      }
      return;
    }
    if (c === 'kube-apiserver') {
      const a =
        cluster.apiServers.length === 1
          ? cluster.apiServers[0]
          : cluster.apiServers.find((x) => x.name === `kube-apiserver-${host}`);
      if (a) a.running = on;
      return;
    }
    // With one control-plane node its kube-scheduler / kube-controller-manager is the cluster's.
    if (this.args.hosts.length !== 1) return;
    const comp = cluster.component<
      Component & { running: boolean; stop(): void; restart?(): void; resume?(): void }
    >(c);
    if (!comp || comp.running === on) return;
    if (!on) comp.stop();
    else if (comp.restart) comp.restart();
    else comp.resume?.();
  }

  /** Start the etcd member on `dir`; a restored data dir brings its snapshot's keyspace back. */
  private startEtcd(host: string, dir: string | null): boolean {
    delete this.state.etcdError[host];
    const f = dir ? this.files(host)[dir] : undefined;
    if (!dir || !f || f.type !== 'datadir') {
      this.state.etcdError[host] = `open ${dir ?? ETCD_DATA_DIR}/member/snap/db: no such file or directory`;
      return false;
    }
    const member = this.member(host);
    const refused = member && this.cluster.etcd.startRefusal(member.name);
    if (refused) {
      this.state.etcdError[host] = refused;
      return false;
    }
    const data = this.state.dataDirs[f.data];
    if (data.clusterSize !== this.cluster.etcd.size) {
      this.state.etcdError[host] =
        `member count is unequal: the data dir was restored with ${data.clusterSize} member(s) in --initial-cluster, the cluster has ${this.cluster.etcd.size}`;
      return false;
    }
    if (data.generation !== this.state.live) {
      const snap = data.snapshot ? this.state.snapshots[data.snapshot] : undefined;
      if (!snap) return false;
      this.state.live = data.generation;
      // Members still on the old data are another cluster now: their peers reject them.
      for (const h of this.args.hosts) {
        if (h === host || !this.state.running[h]?.etcd) continue;
        const other = this.files(h)[this.state.etcdDir[h]];
        const gen = other?.type === 'datadir' ? this.state.dataDirs[other.data]?.generation : undefined;
        if (gen !== data.generation) {
          this.setRunning(h, 'etcd', false);
          this.state.running[h].etcd = false;
          this.state.etcdError[h] = 'request cluster ID mismatch';
        }
      }
      this.cluster.api.resetStore(snap.objects, snap.revision + data.bumpRevision);
    }
    this.state.etcdDir[host] = dir;
    this.setRunning(host, 'etcd', true);
    if (this.state.joining?.[host]) this.cluster.engine.schedule(PROMOTE_DELAY_MS, this.id, 'promote', host);
    return true;
  }

  /**
   * kubelet's mirror pods: one per running static pod, only once the host's Node exists. A mirror
   * pod whose static pod changed, or that someone deleted (it carries a deletionTimestamp), is
   * deleted with grace 0 and created again; its status is the static pod's.
   */
  private syncMirrorPods(host: string, desired: Map<StaticComponent, Any>): void {
    const api = this.cluster.api;
    const ctx: RequestContext = { component: 'kubelet', node: host };
    try {
      const node = api.tryGet<KubeObject>('Node', undefined, host);
      if (!node) return;
      for (const c of this.componentsOn(host)) {
        const name = `${c}-${host}`;
        let existing = api.tryGet<KubeObject>('Pod', 'kube-system', name);
        const want = desired.has(c) && !!this.state.running[host]?.[c];
        const hash = want ? configHash(JSON.stringify(desired.get(c))) : '';
        const stale =
          existing &&
          (!want ||
            existing.metadata.annotations?.[MIRROR_ANNOTATION] !== hash ||
            !!existing.metadata.deletionTimestamp);
        if (existing && stale) {
          api.delete('Pod', 'kube-system', name, { gracePeriodSeconds: 0 }, ctx);
          existing = undefined;
        }
        if (!want) continue;
        if (!existing)
          existing = api.create(mirrorPod(desired.get(c), host, hash, node, api.timestamp()), ctx);
        const since = this.state.startedAt?.[host]?.[c] ?? 0;
        const status = mirrorStatus(existing!, this.ipOf(host), api.epochMs + since, host, c);
        if (JSON.stringify(existing!.status ?? {}) !== JSON.stringify(status)) {
          const next = structuredClone(existing!) as Any;
          next.status = status;
          api.update(next, ctx, { subresource: 'status' });
        }
      }
    } catch {
      // API server down or no quorum: the kubelet tries again on its next pass.
    }
  }

  /** Freeze and keep a snapshot of the keyspace as it is now. */
  takeSnapshot(): string {
    const objects = this.cluster.api.snapshot().objects;
    const revision = this.cluster.api.resourceVersion;
    const sizeBytes = keyspaceSizeBytes(objects);
    const id = this.nextId('snap');
    this.state.snapshots[id] = deepFreeze({
      revision,
      objects,
      totalKeys: objects.length + 7,
      sizeBytes,
      hash: fnv32(`${revision}/${objects.length}/${sizeBytes}`)
    });
    return id;
  }
}

/**
 * The bbolt file size for a keyspace (modelled): 4 KiB pages, values as protobuf (about 0.6 of
 * their JSON), and the few pages a fresh db has of its own.
 */
export function keyspaceSizeBytes(objects: readonly KubeObject[]): number {
  let bytes = 0;
  for (const o of objects) bytes += JSON.stringify(o).length;
  return Math.ceil((bytes * 0.6 + 20_480) / 4096) * 4096;
}

function fnv32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The kubelet's config hash of a static pod (an md5 upstream; any stable digest here). */
function configHash(s: string): string {
  const a = fnv32(s).toString(16).padStart(8, '0');
  const b = fnv32(s + '#')
    .toString(16)
    .padStart(8, '0');
  return (a + b + a.split('').reverse().join('') + b.split('').reverse().join('')).slice(0, 32);
}

function mirrorPod(pod: Any, host: string, hash: string, node: KubeObject, now: string): KubeObject {
  const p = structuredClone(pod);
  delete p.status;
  p.metadata.name = `${pod.metadata.name}-${host}`;
  p.metadata.namespace = 'kube-system';
  p.metadata.annotations = {
    ...(p.metadata.annotations ?? {}),
    'kubernetes.io/config.hash': hash,
    'kubernetes.io/config.mirror': hash,
    'kubernetes.io/config.seen': now.replace('Z', '.000000000Z'),
    'kubernetes.io/config.source': 'file'
  };
  p.metadata.ownerReferences = [
    { apiVersion: 'v1', kind: 'Node', name: host, uid: node.metadata.uid, controller: true }
  ];
  p.spec.nodeName = host;
  p.spec.enableServiceLinks = true;
  p.spec.tolerations = [{ effect: 'NoExecute', operator: 'Exists' }];
  return p;
}

/** The static pod's status as the kubelet's status manager writes it to the mirror pod. */
function mirrorStatus(pod: KubeObject, ip: string, sinceMs: number, host: string, c: string) {
  const at = new Date(sinceMs).toISOString().replace('.000Z', 'Z');
  const cond = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at });
  return {
    phase: 'Running',
    conditions: [
      cond('PodReadyToStartContainers'),
      cond('Initialized'),
      cond('Ready'),
      cond('ContainersReady'),
      cond('PodScheduled')
    ],
    hostIP: ip,
    hostIPs: [{ ip }],
    podIP: ip,
    podIPs: [{ ip }],
    startTime: at,
    containerStatuses: ((pod.spec?.containers ?? []) as Any[]).map((ctr) => ({
      name: ctr.name,
      image: ctr.image,
      imageID: '',
      containerID: `containerd://${containerId(host, c, sinceMs)}`,
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
      lastState: {}
    })),
    qosClass: qosClass(pod)
  };
}

export const staticPodsComponent = defineComponent(
  STATIC_PODS_KIND,
  (cluster: Cluster, args: StaticPodsArgs) => new StaticPods(cluster, args)
);

/** kubeadm's control-plane hosts: their kubelets run the static pods from /etc/kubernetes/manifests. */
export const staticPodsStep: BootstrapStep = (cluster, scenario) => {
  // A managed control plane runs on the provider's machines: no hosts, no manifests.
  if (scenario.config.managed) return;
  const n = Math.max(1, scenario.apiServers);
  const hosts = Array.from({ length: n }, (_, i) => `control-plane-${i + 1}`);
  if (scenario.etcd.topology !== 'stacked') {
    // External etcd: the control-plane hosts' kubelets register their Nodes all the same (their
    // static pods are not modelled as files there; etcd runs on its own hosts, which are no Nodes).
    const cores = apiServerLoad(cluster)?.cores;
    for (const host of hosts)
      startControlPlaneKubelet(cluster, host, controlPlaneAddress(cluster, host, hosts), cores);
    return;
  }
  for (const m of cluster.etcd.members) if (!hosts.includes(m.host)) hosts.push(m.host);
  const sp = cluster.addComponent(STATIC_PODS_KIND, { hosts } satisfies StaticPodsArgs) as StaticPods;
  // kubeadm's kubelet on every control-plane host registers its Node (after the workers' kubelets,
  // which the scenario built first).
  const cores = apiServerLoad(cluster)?.cores;
  for (const host of hosts) startControlPlaneKubelet(cluster, host, sp.ipOf(host), cores);
};

export function staticPods(cluster: Cluster): StaticPods | undefined {
  return cluster.component<StaticPods>(STATIC_PODS_ID);
}
