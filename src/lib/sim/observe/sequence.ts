/**
 * "Follow this pod": every request and watch event that touched one Pod (kube-apiserver's request
 * log, per object) and the Events recorded about it, in virtual time, as steps between lanes:
 * kubectl → kube-apiserver → etcd, the watch event to kube-scheduler, the bind, the watch event to
 * the kubelet, the runtime's pull/create/start, the status patches, an eviction's delete.
 */
import type { Cluster } from '../cluster';
import { objectLogKey, type RequestRecord, type VerbClass } from '../api/requestlog';
import { processOf } from './traffic';

export type Lane =
  | 'kubectl'
  | 'kube-apiserver'
  | 'etcd'
  | 'kube-scheduler'
  | 'kube-controller-manager'
  | 'cluster-autoscaler'
  | 'cloud-controller-manager'
  | 'kubelet'
  | 'runtime';

export const LANES: readonly Lane[] = [
  'kubectl',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-apiserver',
  'etcd',
  'kubelet',
  'runtime'
];

export interface SequenceStep {
  t: number;
  from: Lane;
  to: Lane;
  kind: 'request' | 'watch' | 'store' | 'event';
  /** `create pods`, `watch pods`, `Pulling`: what the arrow says. */
  label: string;
  verbClass?: VerbClass;
  /** The controller or node that made it (`replicaset-controller`, `worker-1`). */
  detail?: string;
  /** An Event's message. */
  message?: string;
  warning?: boolean;
}

export interface PodSequence {
  pod: string;
  steps: SequenceStep[];
  /** Older requests folded away (the log keeps the newest per object). */
  folded: number;
  /** The request log started after the pod was created (a reset or a jump in time). */
  partial: boolean;
}

/** Event reasons that are the kubelet driving the container runtime (CRI calls). */
const RUNTIME_REASONS = new Set([
  'Pulling',
  'Pulled',
  'Created',
  'Started',
  'Killing',
  'BackOff',
  'Failed',
  'ErrImagePull',
  'ImagePullBackOff',
  'SandboxChanged',
  'FailedCreatePodSandBox',
  'FailedKillPod'
]);

function laneOf(component: string): Lane | undefined {
  const p = processOf(component);
  if (!p) return undefined;
  if (p.process === 'kube-proxy') return undefined;
  return p.process;
}

function eventLane(source: string): Lane {
  if (source === 'default-scheduler' || source.endsWith('-scheduler')) return 'kube-scheduler';
  if (source === 'kubelet') return 'kubelet';
  if (source === 'cluster-autoscaler') return 'cluster-autoscaler';
  return laneOf(source) ?? 'kube-controller-manager';
}

function fromRecord(r: RequestRecord, key: string): SequenceStep[] {
  if (r.event) {
    const lane = eventLane(r.component);
    const runtime = lane === 'kubelet' && RUNTIME_REASONS.has(r.event.reason);
    return [
      {
        t: r.t,
        from: lane,
        to: runtime ? 'runtime' : lane,
        kind: 'event',
        label: r.event.reason,
        message: r.event.message,
        ...(r.node ? { detail: r.node } : {}),
        ...(r.event.type === 'Warning' ? { warning: true } : {})
      }
    ];
  }
  const lane = laneOf(r.component);
  if (!lane) return [];
  const detail = r.node ?? processOf(r.component)?.part;
  const base = { t: r.t, verbClass: r.verbClass, ...(detail ? { detail } : {}) };
  if (r.dir === 'out') {
    return [{ ...base, from: 'kube-apiserver', to: lane, kind: 'watch', label: `watch ${r.resource}` }];
  }
  const steps: SequenceStep[] = [
    { ...base, from: lane, to: 'kube-apiserver', kind: 'request', label: `${r.verb} ${r.resource}` }
  ];
  if (r.write) {
    steps.push({
      t: r.t,
      from: 'kube-apiserver',
      to: 'etcd',
      kind: 'store',
      label: `/registry/${key}`,
      verbClass: r.verbClass
    });
  }
  return steps;
}

export function podSequence(cluster: Cluster, namespace: string, name: string): PodSequence | null {
  const log = cluster.api.requestLog;
  if (!log) return null;
  const key = objectLogKey('pods', namespace, name);
  const { records, folded } = log.objectLog(key);
  const steps: SequenceStep[] = [];
  for (const r of records) steps.push(...fromRecord(r, key));
  const created = records.some((r) => r.dir === 'in' && r.verb === 'create' && r.resource === 'pods');
  return {
    pod: `${namespace}/${name}`,
    steps,
    folded,
    partial: !created
  };
}
