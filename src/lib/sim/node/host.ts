/** A node's host view (runtime, journal, memory/disk) for the node shell and the UI. */
import type { Cluster } from '../cluster';
import type { CriContainer, CriImage, CriSandbox, JournalEntry, NodeHostView } from './cri';
import type { Kubelet } from './kubelet';
import { observe } from './eviction';

export function hostView(cluster: Cluster, nodeName: string): NodeHostView | undefined {
  const kubelet = cluster.component(`kubelet/${nodeName}`) as unknown as { host?: NodeHostView } | undefined;
  return kubelet?.host;
}

/** The live view over one kubelet's state; every read reflects the current virtual time. */
export function createHostView(k: Kubelet): NodeHostView {
  const rt = () => k.state.runtime;
  const pick = <T extends object>(o: T, keys: (keyof T)[]): T =>
    Object.fromEntries(keys.map((key) => [key, o[key]])) as T;
  return {
    nodeName: k.name,
    get runtimeName() {
      return rt().name;
    },
    get runtimeVersion() {
      return rt().version;
    },
    get runtimeRunning() {
      return rt().running;
    },
    get kubeletRunning() {
      return k.running;
    },
    get cniConfig() {
      return { ...k.state.cni };
    },
    images(): CriImage[] {
      return rt().images.map((i) => pick<CriImage>(i, ['repository', 'tag', 'id', 'sizeBytes']));
    },
    sandboxes(): CriSandbox[] {
      return rt().sandboxes.map((s) => ({ ...s }));
    },
    containers(): CriContainer[] {
      return rt().containers.map((c) => {
        const { podUid: _u, memory: _m, disk: _d, cpuMilli: _c, ...cri } = c;
        return { ...cri, logs: cri.logs.map((l) => [...l] as [number, string]) };
      });
    },
    journal(unit: JournalEntry['unit']): JournalEntry[] {
      return k.state.journal.filter((e) => e.unit === unit);
    },
    memory() {
      const o = observe(k);
      return {
        total: o.memoryCapacity,
        used: o.memoryCapacity - o.memoryAvailable,
        available: o.memoryAvailable
      };
    },
    disk() {
      const o = observe(k);
      return {
        total: o.fsCapacity,
        used: o.fsCapacity - o.fsAvailable,
        available: o.fsAvailable,
        imagefsUsed: rt().images.reduce((s, i) => s + i.sizeBytes, 0)
      };
    },
    pid(unit) {
      if (unit === 'kubelet') return k.state.kubeletPid;
      const r = rt();
      const own = r.name === 'cri-o' ? 'crio' : 'containerd';
      return unit === own && r.running ? r.pid : undefined;
    },
    unitSince(unit) {
      return unit === 'kubelet' ? k.state.kubeletSince : rt().since;
    }
  };
}
