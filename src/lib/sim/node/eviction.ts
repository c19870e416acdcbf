/**
 * The node-pressure eviction manager (pkg/kubelet/eviction): every 10s it observes
 * memory.available, nodefs/imagefs.available and pid.available, compares them with evictionHard,
 * keeps MemoryPressure/DiskPressure up for evictionPressureTransitionPeriod after the last
 * observation, reclaims node-level resources (unused images) and evicts one pod per interval,
 * ranked as upstream: usage above requests first, then priority, then usage above request.
 */
import type { KubeObject } from '../api/types';
import { TAINT_MEMORY_PRESSURE, tolerationsTolerateTaint } from '../api/corev1/taints';
import { formatBytes, tryParseQuantity } from '../api/quantity';
import { containerId } from './containers';
import { fieldPath } from './images';
import type { Kubelet } from './kubelet';
import { evictionHard, thresholdQuantity } from './allocatable';
import { killNow } from './containers';
import { writeStatus } from './podstatus';
import { qosClass } from './podstatus';
import type { KubeletState, PodRec } from './state';
import { containerExits, type RuntimeContainer, type RuntimeState } from './runtime';
import { usageAt } from './workload';

/** Linux pid_max the kubelet reads (4194304 on 64-bit kernels). */
const PID_MAX = 4_194_304;
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
/** cAdvisor reports memory in whole pages. */
const PAGE = 4096;

export interface Observations {
  memoryCapacity: number;
  memoryAvailable: number;
  fsCapacity: number;
  fsAvailable: number;
  pidAvailable: number;
}

/** Capacity quantities parsed once each: every node reads its own capacity every 10 s. */
const bytesOfQuantity = new Map<string, number>();

function bytesOf(q: string | undefined): number {
  if (!q) return 0;
  let b = bytesOfQuantity.get(q);
  if (b === undefined) {
    const m = tryParseQuantity(q);
    bytesOfQuantity.set(q, (b = m === undefined ? 0 : Math.round(m / 1000)));
  }
  return b;
}

/** Working set of a running container, in bytes (whole pages). */
export function containerMemory(k: Kubelet, c: RuntimeContainer): number {
  if (c.state !== 'CONTAINER_RUNNING') return 0;
  return Math.floor(usageAt(c.memory, k.now - (c.startedAt ?? k.now)) / PAGE) * PAGE;
}

/** Local disk of a container (its log and writable layer), in bytes. */
function containerDisk(k: Kubelet, c: RuntimeContainer): number {
  const end = c.state === 'CONTAINER_RUNNING' ? k.now : (c.finishedAt ?? k.now);
  return usageAt(c.disk, end - (c.startedAt ?? end));
}

/** Working set of one pod's running containers, in bytes. */
export function podMemory(k: Kubelet, uid: string): { total: number; byContainer: Record<string, number> } {
  const byContainer: Record<string, number> = {};
  let total = 0;
  for (const c of k.runtime.containersOfPod(uid)) {
    if (c.state !== 'CONTAINER_RUNNING') continue;
    const v = containerMemory(k, c);
    byContainer[c.name] = (byContainer[c.name] ?? 0) + v;
    total += v;
  }
  return { total, byContainer };
}

/** Local disk of a pod (logs + writable layers + emptyDir), in bytes. */
export function podDisk(k: Kubelet, uid: string): { total: number; byContainer: Record<string, number> } {
  const byContainer: Record<string, number> = {};
  let total = 0;
  for (const c of k.runtime.containersOfPod(uid)) {
    const v = containerDisk(k, c);
    byContainer[c.name] = (byContainer[c.name] ?? 0) + v;
    total += v;
  }
  return { total, byContainer };
}

/**
 * What the summary API reports for the pods the kubelet knows, kept between observations: the
 * sums over containers whose usage does not change with time, and the containers whose usage
 * grows (a `+N/s` workload), which are read again at each observation. Valid while the runtime's
 * containers (the array, replaced on start and removal, and its in-place exits) and the kubelet's
 * pods are the ones it was built from.
 */
export interface PodStats {
  runtime: RuntimeState;
  containers: readonly RuntimeContainer[];
  exits: number;
  pods: KubeletState['pods'];
  memory: number;
  fs: number;
  running: number;
  growing: RuntimeContainer[];
  images: readonly { sizeBytes: number }[];
  imageCount: number;
  imageBytes: number;
}

/** The kubelet added or forgot a pod (podsync.ts): its containers count, or stop counting. */
export function podsChanged(k: Kubelet): void {
  k.derived.podStats = undefined;
}

/** Usage that depends on when it is read: a running container that grows, or one still ending. */
function usageGrows(c: RuntimeContainer): boolean {
  // Without a start time the elapsed time is 0 whenever it is read.
  if (c.startedAt === undefined) return false;
  if (c.state === 'CONTAINER_RUNNING') return c.memory.perSecond !== 0 || c.disk.perSecond !== 0;
  return c.finishedAt === undefined && c.disk.perSecond !== 0;
}

function podStats(k: Kubelet): PodStats {
  const s = k.state;
  const rt = k.host.state.runtime;
  let st = k.derived.podStats;
  if (
    !st ||
    st.runtime !== rt ||
    st.containers !== rt.containers ||
    st.exits !== containerExits(rt) ||
    st.pods !== s.pods
  ) {
    // The pods the kubelet knows, summed in one pass over the runtime's containers (byte counts
    // are whole numbers, so the order of the sums does not matter).
    const known = new Set<string>();
    for (const key in s.pods) known.add(s.pods[key].uid);
    st = {
      runtime: rt,
      containers: rt.containers,
      exits: containerExits(rt),
      pods: s.pods,
      memory: 0,
      fs: 0,
      running: 0,
      growing: [],
      images: [],
      imageCount: -1,
      imageBytes: 0
    };
    for (const c of rt.containers) {
      if (c.state === 'CONTAINER_RUNNING') st.running++;
      if (!known.has(c.podUid)) continue;
      if (usageGrows(c)) st.growing.push(c);
      else {
        st.memory += containerMemory(k, c);
        st.fs += containerDisk(k, c);
      }
    }
    k.derived.podStats = st;
  }
  // Images are added in place and removed by replacing the array; their sizes never change.
  if (st.images !== rt.images || st.imageCount !== rt.images.length) {
    st.images = rt.images;
    st.imageCount = rt.images.length;
    st.imageBytes = rt.images.reduce((sum, i) => sum + i.sizeBytes, 0);
  }
  return st;
}

export function observe(k: Kubelet): Observations {
  const memoryCapacity = bytesOf(k.args.capacity.memory);
  const fsCapacity = bytesOf(k.args.capacity['ephemeral-storage']);
  const st = podStats(k);
  let podMem = st.memory;
  let podFs = st.fs;
  for (const c of st.growing) {
    podMem += containerMemory(k, c);
    podFs += containerDisk(k, c);
  }
  const sys = k.host.state.system;
  const sysMem = sys.memory + sys.fillMemory;
  const sysFs = sys.disk + sys.fillDisk + st.imageBytes;
  const procs = 180 + st.running * 4;
  return {
    memoryCapacity,
    memoryAvailable: Math.max(0, memoryCapacity - sysMem - podMem),
    fsCapacity,
    fsAvailable: Math.max(0, fsCapacity - sysFs - podFs),
    pidAvailable: PID_MAX - procs
  };
}

interface Met {
  signal: string;
  resource: 'memory' | 'ephemeral-storage' | 'pids';
  threshold: number;
  available: number;
}

/** The signals the manager checks, in its order; without a separate image filesystem, imagefs and nodefs are the same disk. */
const SIGNALS: readonly { signal: string; resource: Met['resource']; of: 'memory' | 'fs' | 'pid' }[] = [
  { signal: 'memory.available', resource: 'memory', of: 'memory' },
  { signal: 'imagefs.available', resource: 'ephemeral-storage', of: 'fs' },
  { signal: 'nodefs.available', resource: 'ephemeral-storage', of: 'fs' },
  { signal: 'pid.available', resource: 'pids', of: 'pid' }
];

/** No threshold met (the usual observation): one shared empty list. */
const NONE_MET: readonly Met[] = Object.freeze([]);

function thresholdsMet(k: Kubelet, o: Observations): readonly Met[] {
  const hard = evictionHard(k.args);
  let out: Met[] | undefined;
  for (let i = 0; i < SIGNALS.length; i++) {
    const { signal, resource, of } = SIGNALS[i];
    const t = hard[signal];
    if (!t) continue;
    const capacity = of === 'memory' ? o.memoryCapacity : of === 'fs' ? o.fsCapacity : PID_MAX;
    const available = of === 'memory' ? o.memoryAvailable : of === 'fs' ? o.fsAvailable : o.pidAvailable;
    const threshold = thresholdQuantity(t, capacity);
    if (available < threshold) (out ??= []).push({ signal, resource, threshold, available });
  }
  return out ?? NONE_MET;
}

const MEMORY_SIGNALS = ['memory.available'];
const DISK_SIGNALS = ['nodefs.available', 'imagefs.available', 'nodefs.inodesFree', 'imagefs.inodesFree'];
const PID_SIGNALS = ['pid.available'];

/** A signal was observed met within evictionPressureTransitionPeriod. */
function recentlyMet(k: Kubelet, signals: readonly string[]): boolean {
  const s = k.state;
  for (let i = 0; i < signals.length; i++) {
    const t = s.signals[signals[i]]?.lastMet;
    if (t !== undefined && k.now - t < k.cfg.evictionPressureTransitionPeriod) return true;
  }
  return false;
}

export function evictionTick(k: Kubelet): void {
  const s = k.state;
  let met = thresholdsMet(k, observe(k));
  for (let i = 0; i < met.length; i++) s.signals[met[i].signal] = { lastMet: k.now };
  s.pressure.memory = recentlyMet(k, MEMORY_SIGNALS);
  s.pressure.disk = recentlyMet(k, DISK_SIGNALS);
  s.pressure.pid = recentlyMet(k, PID_SIGNALS);
  if (!met.length) return;

  const first = met[0];
  k.journal(
    'I',
    'eviction_manager.go:373',
    `"Eviction manager: attempting to reclaim" resourceName="${first.resource}"`
  );
  // Recorded on the Node before node-level reclaim and before any pod is ranked.
  k.nodeEvent('Warning', 'EvictionThresholdMet', `Attempting to reclaim ${first.resource}`);
  if (first.resource === 'ephemeral-storage') {
    const inUse = k.runtime.imagesInUse();
    const unused = k.host.state.runtime.images.filter(
      (i) => !inUse.has(i.id) && !i.repository.endsWith('/pause')
    );
    for (const i of unused) k.runtime.removeImage(i.id);
    met = thresholdsMet(k, observe(k));
    if (!met.length) return;
  }
  evictOne(k, met[0]);
}

interface Candidate {
  rec: PodRec;
  pod: KubeObject;
  usage: number;
  request: number;
  byContainer: Record<string, number>;
}

/** rankMemoryPressure / rankDiskPressure: exceeds requests, then priority, then usage above request. */
function rank(k: Kubelet, resource: Met['resource']): Candidate[] {
  const out: Candidate[] = [];
  for (const rec of Object.values(k.state.pods)) {
    if (rec.terminal || rec.terminating) continue;
    const pod = k.cluster.api.tryGet<KubeObject>('Pod', rec.namespace, rec.name);
    if (!pod || pod.metadata.uid !== rec.uid) continue;
    // Processes have no requests: for pids only priority orders pods (rankPIDPressure).
    const u =
      resource === 'memory'
        ? podMemory(k, rec.uid)
        : resource === 'pids'
          ? { total: 0, byContainer: {} }
          : podDisk(k, rec.uid);
    const request = (
      (pod.spec?.containers ?? []) as { resources?: { requests?: Record<string, string> } }[]
    ).reduce((sum, c) => sum + bytesOf(c.resources?.requests?.[resource]), 0);
    out.push({ rec, pod, usage: u.total, request, byContainer: u.byContainer });
  }
  const exceeds = (c: Candidate) => (c.usage > c.request ? 0 : 1);
  return out.sort(
    (a, b) =>
      exceeds(a) - exceeds(b) ||
      (a.pod.spec?.priority ?? 0) - (b.pod.spec?.priority ?? 0) ||
      b.usage - b.request - (a.usage - a.request)
  );
}

/** The message helpers.go builds: node resource, threshold and each container over its request. */
export function evictionMessage(m: Met, pod: KubeObject, byContainer: Record<string, number>): string {
  let msg = `The node was low on resource: ${m.resource}. `;
  const q = (v: number) => (m.resource === 'pids' ? String(v) : formatBytes(v * 1000));
  msg += `Threshold quantity: ${q(m.threshold)}, available: ${q(m.available)}. `;
  for (const c of (pod.spec?.containers ?? []) as {
    name: string;
    resources?: { requests?: Record<string, string> };
  }[]) {
    const usage = byContainer[c.name];
    if (usage === undefined) continue;
    const reqText = c.resources?.requests?.[m.resource];
    if (usage > bytesOf(reqText)) {
      msg += `Container ${c.name} was using ${formatBytes(usage * 1000)}, request is ${reqText ?? '0'}, has larger consumption of ${m.resource}. `;
    }
  }
  return msg;
}

function evictOne(k: Kubelet, m: Met): void {
  const victim = rank(k, m.resource)[0];
  if (!victim) {
    k.journal(
      'I',
      'eviction_manager.go:390',
      `"Eviction manager: no pods to evict" resourceName="${m.resource}"`
    );
    return;
  }
  const { rec, pod } = victim;
  const message = evictionMessage(m, pod, victim.byContainer);
  k.journal(
    'I',
    'eviction_manager.go:401',
    `"Eviction manager: pods ranked for eviction" pods=["${rec.key}"] resourceName="${m.resource}"`
  );
  for (const c of rec.containers) {
    const ctr = k.runtime.container(c.containerId);
    if (ctr?.state === 'CONTAINER_RUNNING') {
      k.cluster.recorder.event(
        pod,
        'Normal',
        'Killing',
        `Stopping container ${c.name}`,
        k.source,
        k.ctx,
        fieldPath(c)
      );
      k.journal(
        'I',
        'kuberuntime_container.go:808',
        `"Killing container with a grace period" pod="${rec.key}" podUID="${rec.uid}" containerName="${c.name}" containerID="${containerId(k, ctr.id)}" gracePeriod=0`
      );
    }
    killNow(k, c);
  }
  rec.terminal = { phase: 'Failed', reason: 'Evicted', message, disruption: true };
  for (const c of rec.containers) {
    const ctr = k.runtime.container(c.containerId);
    if (ctr && !c.terminated) {
      c.terminated = {
        exitCode: ctr.exitCode ?? 137,
        reason: ctr.reason ?? 'Error',
        startedAt: ctr.startedAt ?? ctr.createdAt,
        finishedAt: ctr.finishedAt ?? k.now,
        containerId: ctr.id
      };
    }
    c.waiting = undefined;
  }
  if (rec.sandboxId) k.runtime.stopSandbox(rec.sandboxId);
  k.cluster.recorder.event(pod, 'Warning', 'Evicted', message, k.source, k.ctx);
  writeStatus(k, pod, rec, true);
  k.journal(
    'I',
    'eviction_manager.go:631',
    `"Eviction manager: pod is evicted successfully" pod="${rec.key}"`
  );
}

/**
 * The eviction manager's pod admission: under MemoryPressure alone only BestEffort pods (without a
 * memory-pressure toleration) are rejected; any other pressure rejects every non-critical pod.
 */
export function admitPod(k: Kubelet, pod: KubeObject): string | undefined {
  const conds: string[] = [];
  if (k.state.pressure.memory) conds.push('MemoryPressure');
  if (k.state.pressure.disk) conds.push('DiskPressure');
  if (k.state.pressure.pid) conds.push('PIDPressure');
  if (!conds.length) return undefined;
  if ((pod.spec?.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY) return undefined;
  if (conds.length === 1 && conds[0] === 'MemoryPressure') {
    if (qosClass(pod) !== 'BestEffort') return undefined;
    // v1helper.TolerationsTolerateTaint with the memory-pressure NoSchedule taint (eviction_manager.go Admit).
    const tolerates = tolerationsTolerateTaint(pod.spec?.tolerations, {
      key: TAINT_MEMORY_PRESSURE,
      effect: 'NoSchedule'
    });
    if (tolerates) return undefined;
  }
  return `The node had condition: [${conds.join(' ')}]. `;
}
