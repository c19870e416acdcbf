/**
 * The container runtime on one node (containerd or CRI-O) as the kubelet sees it over CRI: an image
 * store, pod sandboxes and containers with ids, simulated logs and running/exited states.
 *
 * All state is JSON (`RuntimeState`) kept in the node host's state (host.ts), because the runtime
 * is part of the machine, not of the kubelet. Stopping the runtime service does not stop containers: their shims keep
 * them running, as with the real daemons; only CRI calls fail.
 *
 * Images, sandboxes and containers are frozen records, replaced (never changed) when their state
 * moves, so a snapshot shares every record that did not change instead of copying it, and a
 * restore hands them back as they are. Hold a record only for reading: after `exit` or
 * `stopSandbox` read it again (`container(id)`, `sandbox(id)`).
 */
import type { Engine } from '../engine/engine';
import { deepFreeze } from '../api/types';
import { minorVersion } from '../config';
import type { CriContainer, CriImage, CriSandbox, JournalEntry, RuntimeName } from './cri';
import { normalizeImage } from './registry';
import type { Usage } from './workload';

export interface RuntimeImage extends CriImage {
  digest: string;
}

export interface RuntimeContainer extends CriContainer {
  podUid: string;
  memory: Usage;
  disk: Usage;
  cpuMilli: number;
}

export interface RuntimeState {
  name: RuntimeName;
  version: string;
  running: boolean;
  /** Virtual ms of the last start or stop of the service. */
  since: number;
  pid?: number;
  images: RuntimeImage[];
  sandboxes: CriSandbox[];
  containers: RuntimeContainer[];
  /**
   * CPU time (core-nanoseconds) of the containers the runtime no longer holds, so the node's
   * cumulative CPU counter (/metrics/resource) never goes down when one is removed.
   */
  cpuRetiredNs?: number;
}

/** CPU time a container has used so far, in core-nanoseconds (cAdvisor's usageCoreNanoSeconds). */
export function containerCpuNs(c: RuntimeContainer, now: number): number {
  if (c.startedAt === undefined) return 0;
  const end = c.state === 'CONTAINER_RUNNING' ? now : (c.finishedAt ?? now);
  return c.cpuMilli * Math.max(0, end - c.startedAt) * 1000;
}

/** Plausible runtime releases for the modelled Kubernetes minor; CRI-O versions follow Kubernetes minors. */
export function runtimeVersion(name: RuntimeName, kubernetesVersion: string): string {
  const minor = minorVersion(kubernetesVersion);
  if (name === 'cri-o') return `1.${minor}.1`;
  return minor >= 33 ? '2.1.4' : '1.7.27';
}

/** 64 hex characters derived from a string (stable image ids and digests across nodes). */
export function stableHex(s: string): string {
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < 64; round++) {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i) + round;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

export const CRI_UNAVAILABLE: Record<RuntimeName, string> = {
  containerd:
    'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"',
  'cri-o':
    'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/crio/crio.sock: connect: no such file or directory"'
};

/**
 * Containers that changed state in place (an exit), per runtime: a cache of what the containers
 * use (the eviction manager's pod stats) is valid while the containers array and this count are
 * the same. Starting and removing containers replaces the array. Not part of the state: a restore
 * brings a new state object, which starts at 0.
 */
const exits = new WeakMap<RuntimeState, number>();

export function containerExits(s: RuntimeState): number {
  return exits.get(s) ?? 0;
}

/**
 * Containers and sandboxes by id, per runtime state (derived, not state): valid while the array is
 * the same one (entries pushed since are added); an in-place replacement (an exit, a stopped
 * sandbox) drops it. The kubelet looks containers up on every pod sync and status build.
 */
interface IdIndex<T> {
  list: readonly T[];
  length: number;
  byId: Map<string, T>;
}
const containerIndex = new WeakMap<RuntimeState, IdIndex<RuntimeContainer>>();
const sandboxIndex = new WeakMap<RuntimeState, IdIndex<CriSandbox>>();

function indexed<T extends { id: string }>(
  indexes: WeakMap<RuntimeState, IdIndex<T>>,
  s: RuntimeState,
  list: readonly T[]
): Map<string, T> {
  let ix = indexes.get(s);
  if (!ix || ix.list !== list || ix.length > list.length) {
    indexes.set(s, (ix = { list, length: 0, byId: new Map() }));
  }
  // Pushed since (or all of a new list): the first with an id, as Array.find gives it.
  for (let i = ix.length; i < list.length; i++)
    if (!ix.byId.has(list[i].id)) ix.byId.set(list[i].id, list[i]);
  ix.length = list.length;
  return ix.byId;
}

export class ContainerRuntime {
  constructor(
    readonly state: RuntimeState,
    private engine: Engine,
    /** Write a line to the runtime's journal unit. */
    readonly log: (e: Omit<JournalEntry, 't' | 'unit'>) => void,
    /** Called before the service stops (the kubelet's PLEG stops relisting). */
    private onStop?: () => void
  ) {}

  static initial(name: RuntimeName, kubernetesVersion: string, now: number): RuntimeState {
    return {
      name,
      version: runtimeVersion(name, kubernetesVersion),
      running: true,
      since: now,
      images: [],
      sandboxes: [],
      containers: []
    };
  }

  get unit(): 'containerd' | 'crio' {
    return this.state.name === 'cri-o' ? 'crio' : 'containerd';
  }

  /** What systemd and `crictl info` report about the service. */
  status(): {
    name: RuntimeName;
    unit: 'containerd' | 'crio';
    version: string;
    running: boolean;
    pid?: number;
    since: number;
  } {
    const s = this.state;
    return {
      name: s.name,
      unit: this.unit,
      version: s.version,
      running: s.running,
      ...(s.pid !== undefined ? { pid: s.pid } : {}),
      since: s.since
    };
  }

  /** The service stops (systemctl stop, power off): the containers' shims keep them running. */
  stopService(): void {
    this.onStop?.();
    this.state.running = false;
    this.state.since = this.engine.now;
    this.state.pid = undefined;
  }

  /** The service starts as a new process. */
  startService(): void {
    this.state.running = true;
    this.state.since = this.engine.now;
    this.state.pid = 300 + this.engine.random.int(700);
  }

  /** The error every CRI call returns while the service is stopped. */
  unavailable(): string {
    return CRI_UNAVAILABLE[this.state.name];
  }

  // ---- images ------------------------------------------------------------------------------

  findImage(image: string): RuntimeImage | undefined {
    const ref = normalizeImage(image);
    return this.state.images.find((i) => i.repository === ref.repository && i.tag === ref.tag);
  }

  addImage(image: string, sizeBytes: number): RuntimeImage {
    const existing = this.findImage(image);
    if (existing) return existing;
    const ref = normalizeImage(image);
    const img: RuntimeImage = Object.freeze({
      repository: ref.repository,
      tag: ref.tag,
      id: `sha256:${stableHex('config ' + ref.full)}`,
      digest: `sha256:${stableHex('manifest ' + ref.full)}`,
      sizeBytes
    });
    this.state.images.push(img);
    this.log({ level: 'I', source: 'events.go:412', message: `"ImageCreate event" name="${ref.full}"` });
    return img;
  }

  /** Image ids used by any container that still exists (running or exited). */
  imagesInUse(): Set<string> {
    return new Set(this.state.containers.map((c) => c.imageId));
  }

  removeImage(id: string): void {
    this.state.images = this.state.images.filter((i) => i.id !== id);
  }

  imageBytes(): number {
    return this.state.images.reduce((s, i) => s + i.sizeBytes, 0);
  }

  // ---- sandboxes ---------------------------------------------------------------------------

  runSandbox(pod: { name: string; namespace: string; uid: string }, ip: string | undefined): CriSandbox {
    const prior = this.state.sandboxes.filter((s) => s.podUid === pod.uid);
    const sb: CriSandbox = Object.freeze({
      id: this.engine.random.hex(64),
      podName: pod.name,
      podNamespace: pod.namespace,
      podUid: pod.uid,
      state: 'SANDBOX_READY',
      createdAt: this.engine.now,
      attempt: prior.length,
      ...(ip ? { ip } : {})
    });
    this.state.sandboxes.push(sb);
    this.log({
      level: 'I',
      source: 'sandbox_run.go:389',
      message: `"RunPodSandbox returns sandbox id" podSandboxMetadata="&PodSandboxMetadata{Name:${pod.name},Uid:${pod.uid},Namespace:${pod.namespace},Attempt:${sb.attempt},}" sandboxID="${sb.id}"`
    });
    return sb;
  }

  sandbox(id: string | undefined): CriSandbox | undefined {
    return id ? indexed(sandboxIndex, this.state, this.state.sandboxes).get(id) : undefined;
  }

  stopSandbox(id: string): void {
    const i = this.state.sandboxes.findIndex((s) => s.id === id);
    const sb = this.state.sandboxes[i];
    if (!sb || sb.state === 'SANDBOX_NOTREADY') return;
    this.state.sandboxes[i] = Object.freeze({ ...sb, state: 'SANDBOX_NOTREADY' });
    sandboxIndex.delete(this.state);
    this.log({
      level: 'I',
      source: 'sandbox_stop.go:47',
      message: `"StopPodSandbox returns successfully" podSandboxID="${id}"`
    });
  }

  removePod(uid: string): void {
    this.retire(this.state.containers.filter((c) => c.podUid === uid));
    this.state.containers = this.state.containers.filter((c) => c.podUid !== uid);
    this.state.sandboxes = this.state.sandboxes.filter((s) => s.podUid !== uid);
  }

  private retire(gone: RuntimeContainer[]): void {
    let ns = 0;
    for (const c of gone) ns += containerCpuNs(c, this.engine.now);
    if (ns) this.state.cpuRetiredNs = (this.state.cpuRetiredNs ?? 0) + ns;
  }

  // ---- containers --------------------------------------------------------------------------

  container(id: string | undefined): RuntimeContainer | undefined {
    return id ? indexed(containerIndex, this.state, this.state.containers).get(id) : undefined;
  }

  /** Every container the runtime holds (ListContainers without a filter), not to be changed. */
  containers(): readonly RuntimeContainer[] {
    return this.state.containers;
  }

  containersOfPod(uid: string): RuntimeContainer[] {
    return this.state.containers.filter((c) => c.podUid === uid);
  }

  /** CreateContainer + StartContainer. */
  start(
    sandbox: CriSandbox,
    spec: { name: string; image: RuntimeImage; attempt: number },
    usage: { memory: Usage; disk: Usage; cpuMilli: number },
    logs: string[]
  ): RuntimeContainer {
    const now = this.engine.now;
    const c: RuntimeContainer = deepFreeze({
      id: this.engine.random.hex(64),
      sandboxId: sandbox.id,
      name: spec.name,
      image: `${spec.image.repository}:${spec.image.tag}`,
      imageId: spec.image.id,
      state: 'CONTAINER_RUNNING',
      createdAt: now,
      startedAt: now,
      attempt: spec.attempt,
      podName: sandbox.podName,
      podNamespace: sandbox.podNamespace,
      podUid: sandbox.podUid,
      logs: logs.map((l) => [now, l] as [number, string]),
      memory: { ...usage.memory },
      disk: { ...usage.disk },
      cpuMilli: usage.cpuMilli
    });
    // Older exited instances of the same container are garbage-collected except the last one.
    const old = this.state.containers.filter(
      (x) => x.podUid === c.podUid && x.name === c.name && x.state === 'CONTAINER_EXITED'
    );
    const drop = new Set(old.slice(0, -1).map((x) => x.id));
    this.retire(old.slice(0, -1));
    this.state.containers = this.state.containers.filter((x) => !drop.has(x.id));
    this.state.containers.push(c);
    this.log({
      level: 'I',
      source: 'container_start.go:226',
      message: `"StartContainer returns successfully" containerID="${c.id}"`
    });
    return c;
  }

  /** The process exited (by itself, SIGTERM or SIGKILL). */
  exit(id: string, exitCode: number, reason: string): RuntimeContainer | undefined {
    const i = this.state.containers.findIndex((x) => x.id === id);
    const running = this.state.containers[i];
    if (!running || running.state !== 'CONTAINER_RUNNING') return undefined;
    const c: RuntimeContainer = Object.freeze({
      ...running,
      state: 'CONTAINER_EXITED',
      exitCode,
      reason,
      finishedAt: this.engine.now
    });
    this.state.containers[i] = c;
    containerIndex.delete(this.state);
    exits.set(this.state, containerExits(this.state) + 1);
    this.log({
      level: 'I',
      source: 'events.go:147',
      message: `"TaskExit event" containerID="${id}" exitStatus=${exitCode}`
    });
    return c;
  }

  running(): RuntimeContainer[] {
    return this.state.containers.filter((c) => c.state === 'CONTAINER_RUNNING');
  }
}
