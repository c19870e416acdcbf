/**
 * What the container runtime (containerd or CRI-O) exposes over CRI, as the node shell tools
 * (crictl, systemctl, journalctl) and the UI read it. Implemented by node/runtime.ts.
 */
export type RuntimeName = 'containerd' | 'cri-o';

export interface CriImage {
  /** e.g. docker.io/library/nginx */
  repository: string;
  tag: string;
  /** 13+ hex characters; crictl prints the first 13. */
  id: string;
  sizeBytes: number;
}

export interface CriSandbox {
  id: string;
  podName: string;
  podNamespace: string;
  podUid: string;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  /** Virtual ms. */
  createdAt: number;
  attempt: number;
  ip?: string;
}

export interface CriContainer {
  id: string;
  sandboxId: string;
  name: string;
  image: string;
  imageId: string;
  state: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  attempt: number;
  podName: string;
  podNamespace: string;
  /** Simulated stdout/stderr lines for `crictl logs` and `kubectl logs`: [virtual ms, line]. */
  logs: [number, string][];
}

/** One kubelet (or runtime) log line for `journalctl -u kubelet`, rendered in klog format by the shell. */
export interface JournalEntry {
  t: number;
  unit: 'kubelet' | 'containerd' | 'crio';
  level: 'I' | 'W' | 'E';
  /** Source file:line as klog prints it, e.g. kubelet_node_status.go:544 */
  source: string;
  /** Structured klog message: `"Message" key="value"`. */
  message: string;
}

/** Read-only view of a node's runtime and kubelet that the node shell and UI use. */
export interface NodeHostView {
  nodeName: string;
  runtimeName: RuntimeName;
  runtimeVersion: string;
  runtimeRunning: boolean;
  kubeletRunning: boolean;
  /** CNI config files present in /etc/cni/net.d (name → content). Empty when the CNI is removed. */
  cniConfig: Record<string, string>;
  images(): CriImage[];
  sandboxes(): CriSandbox[];
  containers(): CriContainer[];
  journal(unit: JournalEntry['unit']): JournalEntry[];
  /** Memory and disk as `free -m` and `df -h` would show them (bytes). */
  memory(): { total: number; used: number; available: number };
  disk(): { total: number; used: number; available: number; imagefsUsed: number };
  /** Process ids for systemctl status (stable per start). */
  pid(unit: 'kubelet' | 'containerd' | 'crio'): number | undefined;
  /** Virtual ms when each unit last started or stopped. */
  unitSince(unit: 'kubelet' | 'containerd' | 'crio'): number;
}
