/**
 * The kubelet component's state: everything is JSON so snapshots capture and restore it. The
 * machine it runs on (runtime, journal, CNI config, memory and disk) is the NodeHost's (host.ts).
 */
import type { KubeletLifecycleJSON } from '../machines/kubelet';
import type { MachineRecord } from '../machines/record';
export interface ConditionState {
  type: 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' | 'Ready';
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  /** Virtual ms. */
  lastTransition: number;
}

/** One entry of client-go's flowcontrol.Backoff: current delay and when it was last bumped. */
export interface BackoffEntry {
  backoff: number;
  last: number;
}

export interface ContainerRec {
  name: string;
  init: boolean;
  /** Runtime container id of the current (or last) instance. */
  containerId?: string;
  restartCount: number;
  /** Waiting reason and message while no instance runs. */
  waiting?: { reason: string; message?: string };
  /** The previous instance's termination, for lastState. */
  last?: TerminatedRec;
  /** The current instance ended and will not be restarted (or the pod is terminal). */
  terminated?: TerminatedRec;
  readyAt?: number;
  /** An image pull in progress for this container: when it finishes and how. */
  pull?: { requestedAt: number; startAt: number; doneAt: number; error?: string; sizeBytes: number };
  /** The image was ensured for the next start (policy satisfied). */
  imageReady?: boolean;
  started?: boolean;
  /** App containers: the container state machine (machines/container.ts) as the status reports it. */
  machine?: MachineRecord;
}

export interface TerminatedRec {
  exitCode: number;
  reason: string;
  message?: string;
  startedAt: number;
  finishedAt: number;
  containerId: string;
}

export interface PodRec {
  key: string;
  uid: string;
  name: string;
  namespace: string;
  sandboxId?: string;
  ip?: string;
  startTime?: number;
  containers: ContainerRec[];
  /** Set once the pod reached Succeeded or Failed (or was rejected / evicted). */
  terminal?: { phase: 'Succeeded' | 'Failed'; reason?: string; message?: string; disruption?: boolean };
  /** Killed by the node shutdown manager: the deadline and the grace period it was given. */
  shutdownKill?: { deadline: number; graceMs: number; started?: boolean };
  /** Graceful termination in progress: when it started and the kill deadline. */
  terminating?: { since: number; deadline: number };
  /** Fingerprint (digest.ts) of the last status written to the API, to write only on change. */
  posted?: string;
  /** Transition times of pod conditions: type → [status, virtual ms]. */
  condTimes: Record<string, [string, number]>;
  wakeAt?: number;
}

export interface DevicePluginState {
  /** The plugin's pod (namespace/name) whose Register call the kubelet accepted. */
  pod: string;
  /** Virtual ms the endpoint stopped (the plugin went away); undefined while it serves. */
  stoppedAt?: number;
}

export interface EvictionSignalState {
  /** Last time the threshold was observed met (virtual ms), or undefined. */
  lastMet?: number;
}

export interface KubeletState {
  lifecycle: KubeletLifecycleJSON;
  /** The service machine's record for the details panel: value, last event, path (absent in older snapshots). */
  machine?: MachineRecord;
  /** Bumped on every start and stop: loop events of an older epoch are ignored. */
  epoch: number;
  registered: boolean;
  registerDelay: number;
  leaseDelay: number;
  leaseExists: boolean;
  /** Virtual ms of the last NodeStatus PATCH (nodeStatusReportFrequency counts from it). */
  lastReport?: number;
  conditions: ConditionState[];
  /** A graceful shutdown in progress (nodeshutdown.ts): when critical pods go and the power goes off. */
  shutdown?: { since: number; criticalAt: number; offAt: number };
  /** Device plugins registered with the device manager (devicemanager.ts), by resource name. */
  devicePlugins?: Record<string, DevicePluginState>;
  /** spec.unschedulable at the last status sync (lastNodeUnschedulable; false when unset). */
  lastUnschedulable?: boolean;
  runtimeLastOk?: number;
  networkError: string;
  lastRelist: number;
  signals: Record<string, EvictionSignalState>;
  pressure: { memory: boolean; disk: boolean; pid: boolean };
  pods: Record<string, PodRec>;
  queue: string[];
  syncScheduled: boolean;
  /** Watch events were missed (kubelet down, API unreachable) or a write failed: list pods again. */
  relist?: boolean;
  pullBusyUntil: number;
  backoff: Record<string, BackoffEntry>;
  ips: Record<string, string>;
}
