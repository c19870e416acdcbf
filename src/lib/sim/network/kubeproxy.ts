/**
 * kube-proxy, one per node (`kube-proxy/<node>`): watches Services and EndpointSlices, batches
 * changes for minSyncPeriod (1s), syncs partially (only changed service chains) and fully at most
 * once an hour or after a restart, and keeps what it programmed as JSON state. The mode can be
 * switched live (SetProxyMode): the restarted kube-proxy cleans up the old mode's rules first.
 * A stopped kube-proxy (StopKubeProxy) no longer syncs: the rules it programmed stay in the kernel
 * as they were, so traffic follows stale endpoints until it starts again (StartKubeProxy) and does
 * a full sync.
 *
 * Its configuration is the KubeProxyConfiguration in the `kube-system/kube-proxy` ConfigMap
 * (data key `config.conf`, as kubeadm writes it and mounts it at /var/lib/kube-proxy/config.conf).
 * kube-proxy reads it only when it starts: editing `mode:` there and restarting kube-proxy (a new
 * kube-proxy pod on a node, or a rollout restart of the kube-proxy DaemonSet on every node)
 * switches the mode; SetProxyMode is the same change as one fault. The process follows its
 * DaemonSet pod (kubeproxy-addon.ts): the pod going away stops it, a new pod's container starts it.
 */
import { parse } from 'yaml';
import { ApiError, ConnectionError } from '../api/errors';
import { copySharingFrozen, type KubeObject, type RequestContext } from '../api/types';
import { defineComponent, defineFault, FaultError, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { syncTime } from './costmodel';
import type { IpvsScheduler } from './ipvs';
import { collectServicePorts, portNameString, type ServicePortInfo } from './model';
import { isKubeProxyPod, kubeProxyConfigMap, kubeProxyDaemonSet, KUBE_PROXY_NAME } from './kubeproxy-addon';
import { managedKubeProxyDaemonSet } from '../controlplane/managed-addons';
import { kubeProxyConfigConf } from './kubeproxy-config';
import {
  KUBE_PROXY_RESTART_MS,
  kubeProxyIsHostService,
  logStart,
  logStop,
  newHostState,
  withMode,
  type KubeProxyHostState
} from './kubeproxy-host';

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';

/** KubeProxyConfiguration defaults (pkg/proxy/apis/config/v1alpha1/defaults.go). */
export const KUBE_PROXY_DEFAULTS = {
  minSyncPeriod: 1_000,
  syncPeriod: 30_000,
  /** proxyutil.FullSyncPeriod: a full iptables-restore at least once an hour. */
  fullSyncPeriod: 3_600_000
};

export interface SyncRecord {
  t: number;
  mode: ProxyMode;
  full: boolean;
  /** Service ports whose chains were rewritten. */
  changed: string[];
  servicePorts: number;
  endpoints: number;
  /** Modelled duration of the restore/transaction (cost model), ms. */
  durationMs: number;
}

export interface KubeProxyState {
  mode: ProxyMode;
  /** The mode whose rules are in the kernel now (undefined before the first sync). */
  programmedMode?: ProxyMode;
  scheduler: IpvsScheduler;
  ports: ServicePortInfo[];
  dirty: string[];
  needFullSync: boolean;
  lastSync: number;
  lastFullSync: number;
  syncPending: boolean;
  syncs: SyncRecord[];
  cleanups: { t: number; from: ProxyMode; to: ProxyMode }[];
  lastError?: string;
  /** The process is stopped: no syncs; the programmed rules stay as they were. */
  stopped?: boolean;
  /** The config a start read was invalid: the process exited with this message. */
  configError?: string;
  /**
   * The kube-proxy DaemonSet pod this process runs in (undefined: none seen yet, the process was
   * already running when the first one appeared). A new pod that starts is a new process.
   */
  podUID?: string;
  podSyncPending?: boolean;
  /** kube-proxy runs as a systemd unit on the node (kubeproxy-host.ts): its file and journal. */
  host?: KubeProxyHostState;
}

const MAX_SYNC_RECORDS = 50;

/** The ConfigMap kubeadm writes for kube-proxy, and its data key. */
export const KUBE_PROXY_CONFIGMAP = { namespace: 'kube-system', name: 'kube-proxy', key: 'config.conf' };
export const PROXY_MODES: readonly ProxyMode[] = ['iptables', 'ipvs', 'nftables'];

/**
 * The KubeProxyConfiguration kubeadm writes (cmd/kubeadm/app/phases/addons/proxy), with the
 * cluster's pod CIDR. An empty mode is the platform default: iptables on Linux.
 */
export function kubeProxyConfigText(cluster: Cluster, mode: ProxyMode): string {
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
bindAddress: 0.0.0.0
bindAddressHardFail: false
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
  qps: 0
clusterCIDR: ${cluster.config.network.clusterCIDR}
configSyncPeriod: 0s
conntrack:
  maxPerCore: null
  min: null
  tcpCloseWaitTimeout: null
  tcpEstablishedTimeout: null
detectLocalMode: ""
enableProfiling: false
healthzBindAddress: ""
hostnameOverride: ""
iptables:
  localhostNodePorts: null
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
ipvs:
  excludeCIDRs: null
  minSyncPeriod: 0s
  scheduler: ""
  strictARP: false
  syncPeriod: 0s
  tcpFinTimeout: 0s
  tcpTimeout: 0s
  udpTimeout: 0s
kind: KubeProxyConfiguration
metricsBindAddress: ""
mode: "${mode === 'iptables' ? '' : mode}"
nftables:
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
nodePortAddresses: null
oomScoreAdj: null
portRange: ""
showHiddenMetricsForAlpha: ""
winkernel:
  enableDSR: false
  forwardHealthCheckVip: false
  networkName: ""
  rootHnsEndpointName: ""
  sourceVip: ""
`;
}

/**
 * kubeadm's kube-proxy addon, once: the `kube-system/kube-proxy` ConfigMap with the cluster's mode
 * and, created with it, the `kube-proxy` DaemonSet (kubeproxy-addon.ts).
 */
export function ensureKubeProxyConfig(cluster: Cluster): void {
  // A host service reads its file on the node: no ConfigMap, no DaemonSet.
  if (kubeProxyIsHostService(cluster)) return;
  const { namespace, name } = KUBE_PROXY_CONFIGMAP;
  if (cluster.api.tryGet('ConfigMap', namespace, name)) return;
  const configured = cluster.config.network.proxyMode;
  const mode: ProxyMode = configured === 'none' ? 'iptables' : configured;
  const ctx = { component: 'kubeadm' };
  cluster.api.create(kubeProxyConfigMap(kubeProxyConfigText(cluster, mode)), ctx);
  // A managed provider's own kube-proxy DaemonSet (none on GKE: a static pod there).
  const version = cluster.config.kubernetesVersion;
  const p = cluster.config.managed;
  const ds = p ? managedKubeProxyDaemonSet(p, version) : kubeProxyDaemonSet(version);
  if (ds && !cluster.api.tryGet('DaemonSet', namespace, KUBE_PROXY_NAME)) cluster.api.create(ds, ctx);
}

/**
 * The mode a starting kube-proxy reads from its config: `mode` in config.conf, '' meaning
 * iptables. Returns an error in kube-proxy's words when the file is unreadable or the mode unknown.
 */
export function readProxyMode(cluster: Cluster, ctx?: RequestContext): { mode?: ProxyMode; error?: string } {
  const { namespace, name, key } = KUBE_PROXY_CONFIGMAP;
  let cm: KubeObject | undefined;
  try {
    cluster.api.countRead('get', 'ConfigMap', ctx);
    cm = cluster.api.tryGet<KubeObject>('ConfigMap', namespace, name);
  } catch {
    return {};
  }
  const text = (cm?.data as Record<string, string> | undefined)?.[key];
  if (text === undefined) return {};
  return parseProxyMode(text);
}

/** The mode in a KubeProxyConfiguration's text, validated as kube-proxy validates it on start. */
function parseProxyMode(text: string): { mode?: ProxyMode; error?: string } {
  let cfg: unknown;
  try {
    cfg = parse(text);
  } catch (e) {
    return { error: `failed to load kube-proxy config: ${(e as Error).message.split('\n')[0]}` };
  }
  const raw = (cfg as { mode?: unknown } | null)?.mode ?? '';
  const mode = raw === '' ? 'iptables' : String(raw);
  if (!(PROXY_MODES as readonly string[]).includes(mode)) {
    return {
      error: `KubeProxyConfiguration.mode: Unsupported value: "${mode}": supported values: "iptables", "ipvs", "nftables"`
    };
  }
  return { mode: mode as ProxyMode };
}

/** Write `mode` into the ConfigMap's config.conf, keeping the rest of the file. */
export function writeProxyMode(cluster: Cluster, mode: ProxyMode): void {
  const { namespace, name, key } = KUBE_PROXY_CONFIGMAP;
  const cm = cluster.api.tryGet<KubeObject>('ConfigMap', namespace, name);
  if (!cm) return;
  const text = (cm.data as Record<string, string> | undefined)?.[key] ?? kubeProxyConfigText(cluster, mode);
  const value = mode === 'iptables' ? '""' : mode;
  const next = /^mode:.*$/m.test(text)
    ? text.replace(/^mode:.*$/m, `mode: ${value}`)
    : `${text}mode: ${value}\n`;
  if (next === text) return;
  cluster.api.patch('ConfigMap', namespace, name, { data: { [key]: next } }, { component: 'kubeadm' });
}

/** A service port's key in kube-proxy's map: `ns/name:port/protocol`. */
function portKey(p: ServicePortInfo): string {
  return `${portNameString(p)}/${p.protocol}`;
}

/**
 * Whether two service ports have the same JSON. Endpoints built from the same stored slice are
 * the same (shared, frozen) objects, so the endpoints are compared one by one, by identity first,
 * and the first that differs ends the comparison; the port's other fields as JSON.
 */
function samePort(a: ServicePortInfo, b: ServicePortInfo): boolean {
  if (a === b) return true;
  const ea = a.endpoints;
  const eb = b.endpoints;
  if (ea.length !== eb.length) return false;
  for (let i = 0; i < ea.length; i++)
    if (ea[i] !== eb[i] && JSON.stringify(ea[i]) !== JSON.stringify(eb[i])) return false;
  const { endpoints: _a, ...restA } = a;
  const { endpoints: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/** "Never" as a JSON-safe time. */
const NEVER = -1e15;

export class KubeProxy implements Component {
  readonly kind = 'kube-proxy';
  readonly id: string;
  state: KubeProxyState;
  private unwatch: (() => void)[] = [];
  private readonly ctx: RequestContext;
  /** `state.dirty` as a set, for the array it was built from (thousands of Services change at once). */
  private dirtyKeys = new Set<string>();
  private dirtyOf: string[] | undefined;

  constructor(
    private cluster: Cluster,
    readonly args: { nodeName: string; mode?: ProxyMode }
  ) {
    this.id = `kube-proxy/${args.nodeName}`;
    this.ctx = { component: 'kube-proxy', node: args.nodeName };
    const configured = cluster.config.network.proxyMode;
    this.state = {
      mode: args.mode ?? (configured === 'none' ? 'iptables' : configured),
      scheduler: 'rr',
      ports: [],
      dirty: [],
      needFullSync: true,
      lastSync: NEVER,
      lastFullSync: NEVER,
      syncPending: false,
      syncs: [],
      cleanups: []
    };
    if (kubeProxyIsHostService(cluster))
      this.state.host = newHostState(
        kubeProxyConfigConf(this.state.mode, cluster.config.network.clusterCIDR)
      );
    const onChange = (key: string) => {
      if (this.dirtyOf !== this.state.dirty) {
        this.dirtyOf = this.state.dirty;
        this.dirtyKeys = new Set(this.state.dirty);
      }
      if (this.dirtyKeys.has(key)) return this.requestSync();
      this.dirtyKeys.add(key);
      this.state.dirty.push(key);
      this.requestSync();
    };
    this.unwatch.push(
      cluster.api.watch('Service', (_t, o) => onChange(`${o.metadata.namespace}/${o.metadata.name}`)),
      cluster.api.watch('EndpointSlice', (_t, o) => {
        const svc = o.metadata.labels?.['kubernetes.io/service-name'];
        if (svc) onChange(`${o.metadata.namespace}/${svc}`);
      }),
      cluster.api.watch(
        'Pod',
        (_t, o) => {
          if (!isKubeProxyPod(o) || this.state.podSyncPending) return;
          this.state.podSyncPending = true;
          cluster.engine.schedule(0, this.id, 'pod');
        },
        { nodeName: args.nodeName }
      )
    );
  }

  get nodeName(): string {
    return this.args.nodeName;
  }

  start(): void {
    const host = this.state.host;
    if (host) logStart(host, this.nodeName, this.cluster.now, this.version, { mode: this.state.mode });
    this.requestSync();
    this.cluster.engine.declarePeriod(KUBE_PROXY_DEFAULTS.syncPeriod);
    this.cluster.engine.schedule(KUBE_PROXY_DEFAULTS.syncPeriod, this.id, 'periodic');
  }

  /** BoundedFrequencyRunner: run now unless the last run was less than minSyncPeriod ago. */
  requestSync(): void {
    if (this.state.syncPending || this.state.stopped) return;
    this.state.syncPending = true;
    const at = Math.max(this.cluster.now, this.state.lastSync + KUBE_PROXY_DEFAULTS.minSyncPeriod);
    this.cluster.engine.scheduleAt(at, this.id, 'sync');
  }

  private get version(): string {
    return this.cluster.config.kubernetesVersion;
  }

  setMode(mode: ProxyMode): void {
    const host = this.state.host;
    if (host) {
      // On a host service the switch is the file edit and a restart of the unit.
      host.config = withMode(host.config, mode);
      if (this.state.stopped || mode === this.state.mode) return;
      this.stop();
      this.restart();
      return;
    }
    if (mode === this.state.mode) return;
    this.state.mode = mode;
    this.state.needFullSync = true;
    // A restarted kube-proxy syncs straight away, not after minSyncPeriod.
    this.state.lastSync = NEVER;
    this.state.syncPending = false;
    this.requestSync();
  }

  /** Stop the process: watches go unanswered, the kernel keeps the last programmed rules. */
  stop(): void {
    if (this.state.host && (!this.state.stopped || this.state.host.failed))
      logStop(this.state.host, this.cluster.now);
    this.state.stopped = true;
    this.state.syncPending = false;
  }

  /** The host's /var/lib/kube-proxy/config.conf, written (sed -i); read at the next start. */
  writeHostConfig(text: string): void {
    if (this.state.host) this.state.host.config = text;
  }

  /** Start it again: a new process reads its config and syncs in full straight away. */
  restart(): void {
    if (!this.state.stopped) return;
    const host = this.state.host;
    const cfg = host ? parseProxyMode(host.config) : readProxyMode(this.cluster, this.ctx);
    if (host) logStart(host, this.nodeName, this.cluster.now, this.version, cfg);
    if (cfg.error) {
      // kube-proxy validates its config first and exits: it stays down, its old rules stay.
      this.state.configError = cfg.error;
      // systemd starts it again after RestartSec, reading the file again.
      if (host) {
        host.restartAt = this.cluster.now + KUBE_PROXY_RESTART_MS;
        this.cluster.engine.scheduleAt(host.restartAt, this.id, 'unit-restart');
      }
      return;
    }
    delete this.state.configError;
    delete this.state.stopped;
    if (cfg.mode) this.state.mode = cfg.mode;
    this.state.needFullSync = true;
    this.state.lastSync = NEVER;
    this.state.syncPending = false;
    this.requestSync();
  }

  /**
   * Follow the DaemonSet pod: its container is this process. The pod going away (deleted, or
   * terminating in a rollout) kills the process, leaving its rules in the kernel; a new pod whose
   * container runs is a new process, which reads config.conf from the ConfigMap and syncs in full.
   */
  private syncPod(): void {
    this.state.podSyncPending = false;
    const pod = this.cluster.api
      .podsOnNode(this.nodeName)
      .find((p) => isKubeProxyPod(p) && !p.metadata.deletionTimestamp);
    if (!pod) {
      if (this.state.podUID !== undefined && !this.state.stopped) this.stop();
      return;
    }
    const uid = pod.metadata.uid as string;
    if (this.state.podUID === undefined) {
      this.state.podUID = uid;
      return;
    }
    if (uid === this.state.podUID) return;
    if (!this.state.stopped) this.stop();
    const running = (pod.status?.containerStatuses ?? []).some(
      (c: { name: string; state?: { running?: unknown } }) => c.name === 'kube-proxy' && !!c.state?.running
    );
    if (!running) return;
    this.state.podUID = uid;
    this.restart();
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'pod') {
      this.syncPod();
      return;
    }
    if (ev.type === 'unit-restart') {
      // Restart=on-failure: only while the unit is still waiting to restart (not stopped since).
      const host = this.state.host;
      if (host?.failed && this.state.stopped && host.restartAt === this.cluster.now) this.restart();
      return;
    }
    if (ev.type === 'sync') {
      this.state.syncPending = false;
      if (!this.state.stopped) this.sync();
    } else if (ev.type === 'periodic') {
      if (
        !this.state.stopped &&
        this.cluster.now - this.state.lastFullSync >= KUBE_PROXY_DEFAULTS.fullSyncPeriod
      ) {
        this.state.needFullSync = true;
        this.requestSync();
      }
      this.cluster.engine.schedule(KUBE_PROXY_DEFAULTS.syncPeriod, this.id, 'periodic');
    }
  }

  private sync(): void {
    let services: KubeObject[];
    let slices: KubeObject[];
    try {
      this.cluster.api.countRead('list', 'Service', this.ctx);
      services = this.cluster.api.list('Service');
      this.cluster.api.countRead('list', 'EndpointSlice', this.ctx);
      slices = this.cluster.api.list('EndpointSlice');
    } catch (e) {
      if (e instanceof ConnectionError || e instanceof ApiError) {
        // The informer cache keeps its last view; the programmed rules stay as they are.
        this.state.lastError = e.message;
        this.cluster.engine.schedule(KUBE_PROXY_DEFAULTS.syncPeriod, this.id, 'sync');
        this.state.syncPending = true;
        return;
      }
      throw e;
    }
    delete this.state.lastError;
    const now = this.cluster.now;
    const ports = collectServicePorts(services, slices);
    const modeChanged =
      this.state.programmedMode !== undefined && this.state.programmedMode !== this.state.mode;
    if (modeChanged)
      this.state.cleanups.push({ t: now, from: this.state.programmedMode!, to: this.state.mode });
    const full =
      this.state.needFullSync ||
      modeChanged ||
      now - this.state.lastFullSync >= KUBE_PROXY_DEFAULTS.fullSyncPeriod;
    // What changed since the last sync, by service port. An unchanged port keeps its object, so
    // the proxier sees at a glance what it can keep; ports built from the same stored objects are
    // the same (shared, frozen) objects, and others are compared as JSON (samePort).
    const prev = this.state.ports;
    let same = prev.length === ports.length;
    for (let i = 0; same && i < ports.length; i++) same = prev[i] === ports[i];
    const old = new Map<string, ServicePortInfo>();
    // The same ports in the same order (nothing changed since the last sync): nothing to look up.
    if (!same) for (const p of prev) old.set(portKey(p), p);
    const changedKeys = new Set<string>();
    const kept: ServicePortInfo[] = same ? ports : new Array(ports.length);
    let endpoints = 0;
    for (let i = 0; same && i < ports.length; i++) endpoints += ports[i].endpoints.length;
    for (let i = 0; !same && i < ports.length; i++) {
      const p = ports[i];
      const k = portKey(p);
      const o = old.get(k);
      endpoints += p.endpoints.length;
      if (o !== undefined && samePort(o, p)) kept[i] = o;
      else {
        kept[i] = p;
        changedKeys.add(k);
      }
      old.delete(k);
    }
    for (const k of old.keys()) changedKeys.add(k);
    const changed = [...changedKeys].sort();
    const record: SyncRecord = {
      t: now,
      mode: this.state.mode,
      full,
      changed: full ? ports.map(portKey) : changed,
      servicePorts: ports.length,
      endpoints,
      durationMs: syncTime(this.state.mode, ports.length, ports.length ? endpoints / ports.length : 0, {
        full,
        changedServices: changed.length
      })
    };
    this.state.ports = kept;
    this.state.dirty = [];
    this.state.programmedMode = this.state.mode;
    this.state.lastSync = now;
    if (full) {
      this.state.lastFullSync = now;
      this.state.needFullSync = false;
    }
    this.state.syncs = [...this.state.syncs, record].slice(-MAX_SYNC_RECORDS);
  }

  /** What the process reports: running or not, its mode and the rules in the kernel, the last sync. */
  status(): {
    running: boolean;
    mode: ProxyMode;
    programmedMode?: ProxyMode;
    lastSync?: number;
    lastFullSync?: number;
    error?: string;
    /** kube-proxy runs as a systemd unit on the host (network.kubeProxy.deployment: systemd). */
    unit?: boolean;
  } {
    const s = this.state;
    const error = s.configError ?? s.lastError;
    return {
      running: !s.stopped,
      mode: s.mode,
      ...(s.programmedMode ? { programmedMode: s.programmedMode } : {}),
      ...(s.lastSync !== NEVER ? { lastSync: s.lastSync } : {}),
      ...(s.lastFullSync !== NEVER ? { lastFullSync: s.lastFullSync } : {}),
      ...(error ? { error } : {}),
      ...(s.host ? { unit: true } : {})
    };
  }

  getState(): KubeProxyState {
    return this.state;
  }

  setState(s: unknown): void {
    // The service ports are frozen and shared (model.ts); the rest is copied.
    this.state = copySharingFrozen(s) as KubeProxyState;
  }

  dispose(): void {
    for (const u of this.unwatch) u();
  }
}

export const kubeProxyComponent = defineComponent(
  'kube-proxy',
  (cluster, args) => new KubeProxy(cluster, args)
);

export function kubeProxyOf(cluster: Cluster, nodeName: string): KubeProxy | undefined {
  return cluster.component<KubeProxy>(`kube-proxy/${nodeName}`);
}

function proxyOn(cluster: Cluster, target: string | undefined): KubeProxy {
  if (!target) throw new FaultError('this fault needs a target node, for example { target: "worker-1" }');
  const p = kubeProxyOf(cluster, target);
  if (!p) throw new FaultError(`no kube-proxy on "${target}"`);
  return p;
}

export const faultStopKubeProxy = defineFault(
  'StopKubeProxy',
  'Stop kube-proxy on a node: its rules stay as they were and go stale as endpoints change',
  (cluster, params) => proxyOn(cluster, params.target).stop()
);

export const faultStartKubeProxy = defineFault(
  'StartKubeProxy',
  'Start kube-proxy on a node again (a full resync)',
  (cluster, params) => proxyOn(cluster, params.target).restart()
);

export const faultSetProxyMode = defineFault(
  'SetProxyMode',
  "Restart kube-proxy in another mode (iptables, ipvs, nftables) on one node or 'all'",
  (cluster, params) => {
    const mode = params.mode as ProxyMode;
    if (!['iptables', 'ipvs', 'nftables'].includes(mode))
      throw new FaultError(
        `invalid proxy mode "${String(params.mode)}": expected iptables, ipvs or nftables`
      );
    const target = params.target ?? 'all';
    const proxies = cluster
      .componentsOfKind<KubeProxy>('kube-proxy')
      .filter((p) => target === 'all' || p.nodeName === target);
    if (!proxies.length) throw new FaultError(`no kube-proxy on "${target}"`);
    if (target === 'all') {
      cluster.config.network.proxyMode = mode;
      // The same change as editing config.conf and restarting every kube-proxy.
      writeProxyMode(cluster, mode);
    }
    for (const p of proxies) p.setMode(mode);
  }
);
