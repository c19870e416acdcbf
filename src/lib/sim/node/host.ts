/**
 * The machine a node runs on, apart from the kubelet: the container runtime's state (containerd or
 * CRI-O), /etc/cni/net.d, the systemd journal, the memory and disk used outside pods, the machine
 * ids and the power state. One per machine, found with `cluster.nodeHost(name)`.
 *
 * The kubelet, the runtime, kube-proxy and the CNI plugin are typed components on the host
 * (`host.kubelet`, `host.runtime`, `host.kubeProxy`, `host.cni`), each with a typed `status()`.
 * The host's state is JSON and the cluster's snapshot keeps it next to the components' states, so
 * time travel restores the machine with its kubelet.
 *
 * The host is also the read view (`NodeHostView`) the node shell, `kubectl logs`, the CNI model
 * and observe use; every read reflects the current virtual time.
 */
import type { Cluster } from '../cluster';
import { tryParseQuantity } from '../api/quantity';
import type { CniPlugin } from '../network/cni';
import type { KubeProxy } from '../network/kubeproxy';
import type { CriContainer, CriImage, CriSandbox, JournalEntry, NodeHostView } from './cri';
import { observe } from './eviction';
import type { Kubelet } from './kubelet';
import { CNI_CONFIGS } from './nodestatus';
import { resolveImage } from './registry';
import { ContainerRuntime, type RuntimeState } from './runtime';
import type { KubeletArgs } from './types';

const JOURNAL_LIMIT = 3000;
/** Size assumed for a preloaded image the registry model does not know. */
const PRELOADED_UNKNOWN_SIZE = 50_000_000;

/** Memory and disk used outside pods (OS, daemons, FillMemory / FillDisk), bytes. */
export interface SystemUsage {
  memory: number;
  disk: number;
  fillMemory: number;
  fillDisk: number;
}

/** /etc/machine-id, the SMBIOS system UUID and the kernel's boot id (nodeInfo reports them). */
export interface MachineIds {
  machineID: string;
  systemUUID: string;
  bootID: string;
}

/** The host's state: JSON, so snapshots capture and restore it. */
export interface NodeHostState {
  runtime: RuntimeState;
  journal: JournalEntry[];
  /** /etc/cni/net.d: file name → content. */
  cni: Record<string, string>;
  system: SystemUsage;
  ids: MachineIds;
  /** The machine is off (shut down): only PowerOnNode starts it again. */
  poweredOff?: boolean;
  /** systemd's kubelet.service: the main pid while it runs, and when it last started or stopped. */
  kubeletPid?: number;
  kubeletSince: number;
}

/** The host as a whole, for observe and tests. */
export interface NodeHostStatus {
  name: string;
  poweredOff: boolean;
  ids: MachineIds;
  kubelet: ReturnType<Kubelet['status']>;
  runtime: ReturnType<ContainerRuntime['status']>;
  kubeProxy?: ReturnType<KubeProxy['status']>;
  cni: CniStatus;
}

export interface CniStatus {
  /** A config file is in /etc/cni/net.d: the runtime reports NetworkReady=true. */
  installed: boolean;
  /** The plugin whose config is there ('none' when the directory is empty). */
  plugin: CniPlugin;
  files: string[];
}

/** The OS, systemd units, the kubelet and the runtime use some memory and disk before any pod runs. */
export function baselineSystemUsage(args: KubeletArgs): SystemUsage {
  const bytes = (q: string | undefined) => Math.round((tryParseQuantity(q) ?? 0) / 1000);
  return {
    // Whole 4Ki pages, as cAdvisor reports memory.
    memory: Math.floor(Math.min(bytes(args.capacity.memory) * 0.05, 768 * 2 ** 20) / 4096) * 4096,
    disk: Math.min(Math.round(bytes(args.capacity['ephemeral-storage']) * 0.06), 6 * 2 ** 30),
    fillMemory: 0,
    fillDisk: 0
  };
}

/** The CNI plugin as the host holds it: its config in /etc/cni/net.d. */
export class HostCni {
  constructor(private readonly host: NodeHost) {}

  /** The files in /etc/cni/net.d (a copy). */
  files(): Record<string, string> {
    return { ...this.host.state.cni };
  }

  /** Some config is there (the runtime check asks every 5 s: no list of the names is made). */
  get installed(): boolean {
    for (const name in this.host.state.cni) if (Object.hasOwn(this.host.state.cni, name)) return true;
    return false;
  }

  /** Delete the config (RemoveCNI, `mv` out of the directory). */
  remove(): void {
    this.host.kubelet.wakeRuntimeCheck();
    this.host.state.cni = {};
  }

  /** Write a plugin's config (InstallCNI, the plugin's DaemonSet pod, node repair). */
  install(plugin: Exclude<CniPlugin, 'none'>): void {
    this.host.kubelet.wakeRuntimeCheck();
    this.host.state.cni = { ...CNI_CONFIGS[plugin] };
  }

  status(): CniStatus {
    const names = Object.keys(this.host.state.cni);
    const cluster = this.host.cluster.config.network.cni;
    let plugin: CniPlugin = 'none';
    if (names.length) {
      const files = names.join(' ');
      plugin = (['calico', 'cilium', 'flannel'] as const).find((p) => files.includes(p)) ?? 'none';
      if (plugin === 'none') plugin = cluster === 'none' ? 'calico' : cluster;
    }
    return { installed: names.length > 0, plugin, files: names };
  }
}

export class NodeHost implements NodeHostView {
  state: NodeHostState;
  /** The runtime view last handed out and the engine it was made with (derived, not state). */
  private runtimeView: ContainerRuntime | undefined;
  private runtimeEngine: unknown;
  readonly cni: HostCni;

  /** A new machine for `kubelet` (created by the kubelet component; see kubelet.ts). */
  constructor(
    readonly cluster: Cluster,
    readonly kubelet: Kubelet
  ) {
    const args = kubelet.args;
    this.state = {
      runtime: ContainerRuntime.initial(args.runtime, cluster.config.kubernetesVersion, cluster.now),
      journal: [],
      cni: cluster.config.network.cni === 'none' ? {} : { ...CNI_CONFIGS[cluster.config.network.cni] },
      system: baselineSystemUsage(args),
      ids: { machineID: '', systemUUID: '', bootID: '' },
      kubeletSince: cluster.now
    };
    this.cni = new HostCni(this);
    for (const image of args.preloadedImages ?? []) {
      const found = resolveImage(cluster, image);
      this.runtime.addImage(image, found.ok ? found.image.sizeBytes : PRELOADED_UNKNOWN_SIZE);
    }
  }

  get name(): string {
    return this.kubelet.name;
  }

  get nodeName(): string {
    return this.name;
  }

  /** containerd or CRI-O over CRI; its log lines go to its own journal unit. */
  get runtime(): ContainerRuntime {
    const rt = this.state.runtime;
    // One view per runtime state and engine (a restore brings a new state), not a new object on
    // every call.
    const engine = this.cluster.engine;
    if (this.runtimeView?.state !== rt || this.runtimeEngine !== engine) {
      this.runtimeEngine = engine;
      this.runtimeView = new ContainerRuntime(
        rt,
        engine,
        (e) => this.writeJournal(e.level, e.source, e.message, rt.name === 'cri-o' ? 'crio' : 'containerd'),
        () => this.kubelet.wakeLoops()
      );
    }
    return this.runtimeView;
  }

  /** kube-proxy on this machine (its DaemonSet pod's process), when the cluster runs one. */
  get kubeProxy(): KubeProxy | undefined {
    return this.cluster.component<KubeProxy>(`kube-proxy/${this.name}`);
  }

  /** First boot: the machine ids and the runtime's pid (not called on restore: no random draws). */
  boot(): void {
    const r = this.cluster.engine.random;
    this.state.ids = { machineID: r.hex(32), systemUUID: r.uid(), bootID: r.uid() };
    this.state.runtime.pid = 300 + r.int(700);
  }

  /** Write a line to the systemd journal of `unit`. */
  writeJournal(
    level: JournalEntry['level'],
    source: string,
    message: string,
    unit: JournalEntry['unit'] = 'kubelet'
  ): void {
    const j = this.state.journal;
    // Frozen: an entry never changes, so snapshots share it instead of copying it.
    j.push(Object.freeze({ t: this.cluster.now, unit, level, source, message }));
    if (j.length > JOURNAL_LIMIT) j.splice(0, j.length - JOURNAL_LIMIT);
  }

  status(): NodeHostStatus {
    const proxy = this.kubeProxy;
    return {
      name: this.name,
      poweredOff: this.state.poweredOff === true,
      ids: { ...this.state.ids },
      kubelet: this.kubelet.status(),
      runtime: this.runtime.status(),
      ...(proxy ? { kubeProxy: proxy.status() } : {}),
      cni: this.cni.status()
    };
  }

  // ---- NodeHostView: what the node shell, kubectl logs and observe read ----------------------

  get runtimeName() {
    return this.state.runtime.name;
  }

  get runtimeVersion() {
    return this.state.runtime.version;
  }

  get runtimeRunning() {
    return this.state.runtime.running;
  }

  get kubeletRunning() {
    return this.kubelet.running;
  }

  get cniConfig() {
    return this.cni.files();
  }

  images(): CriImage[] {
    const pick = <T extends object>(o: T, keys: (keyof T)[]): T =>
      Object.fromEntries(keys.map((key) => [key, o[key]])) as T;
    return this.state.runtime.images.map((i) => pick<CriImage>(i, ['repository', 'tag', 'id', 'sizeBytes']));
  }

  sandboxes(): CriSandbox[] {
    return this.state.runtime.sandboxes.map((s) => ({ ...s }));
  }

  containers(): CriContainer[] {
    return this.state.runtime.containers.map((c) => {
      const { podUid: _u, memory: _m, disk: _d, cpuMilli: _c, ...cri } = c;
      return { ...cri, logs: cri.logs.map((l) => [...l] as [number, string]) };
    });
  }

  journal(unit: JournalEntry['unit']): JournalEntry[] {
    return this.state.journal.filter((e) => e.unit === unit);
  }

  memory() {
    const o = observe(this.kubelet);
    return {
      total: o.memoryCapacity,
      used: o.memoryCapacity - o.memoryAvailable,
      available: o.memoryAvailable
    };
  }

  disk() {
    const o = observe(this.kubelet);
    return {
      total: o.fsCapacity,
      used: o.fsCapacity - o.fsAvailable,
      available: o.fsAvailable,
      imagefsUsed: this.state.runtime.images.reduce((s, i) => s + i.sizeBytes, 0)
    };
  }

  pid(unit: JournalEntry['unit']): number | undefined {
    if (unit === 'kubelet') return this.state.kubeletPid;
    const r = this.state.runtime;
    const own = r.name === 'cri-o' ? 'crio' : 'containerd';
    return unit === own && r.running ? r.pid : undefined;
  }

  unitSince(unit: JournalEntry['unit']): number {
    return unit === 'kubelet' ? this.state.kubeletSince : this.state.runtime.since;
  }
}
