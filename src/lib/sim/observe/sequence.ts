/**
 * "Follow this pod": every request and watch event that touched one Pod (kube-apiserver's request
 * log, per object) and the Events recorded about it, in virtual time, as steps between lanes:
 * kubectl → kube-apiserver → etcd, the watch event to kube-scheduler, the bind, the watch event to
 * the kubelet, the runtime's pull/create/start, the status patches, an eviction's delete.
 *
 * "Follow this node": the same for a Node — the kubelet's registration (create nodes), its Lease
 * renewals and NodeStatus gets folded into counts, its status patches, the node lifecycle
 * controller's condition write and taint, the Events about the node, and the evictions of the
 * pods that ran there (the taint-eviction controller's delete).
 */
import type { Cluster } from '../cluster';
import { NODE_LEASE_NAMESPACE, objectLogKey, type RequestRecord, type VerbClass } from '../api/requestlog';
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
  /** An Event's message; for an eviction, the evicted pod. */
  message?: string;
  warning?: boolean;
  /** Identical requests in a row folded into this step (Lease renewals, NodeStatus gets)… */
  count?: number;
  /** …the last of them at this virtual time. */
  until?: number;
}

export interface ObjectSequence {
  kind: 'Pod' | 'Node';
  /** `<namespace>/<name>` for a Pod, the name for a Node. */
  name: string;
  steps: SequenceStep[];
  /** Older requests folded away (the log keeps the newest per object). */
  folded: number;
  /** The request log started after the object was created (a reset or a jump in time). */
  partial: boolean;
}

/** "Follow this pod" (the name the lab's first sequence view had). */
export type PodSequence = ObjectSequence;

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

/** The etcd key kube-apiserver writes (Nodes are stored as `minions`, as upstream's registry). */
function etcdKey(r: RequestRecord): string {
  const base = r.resource.split('/')[0];
  const resource = base === 'nodes' ? 'minions' : base;
  return ['/registry', resource, r.namespace, r.name].filter(Boolean).join('/');
}

function fromRecord(r: RequestRecord): SequenceStep[] {
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
      label: etcdKey(r),
      verbClass: r.verbClass
    });
  }
  return steps;
}

export function podSequence(cluster: Cluster, namespace: string, name: string): ObjectSequence | null {
  const log = cluster.api.requestLog;
  if (!log) return null;
  const key = objectLogKey('pods', namespace, name);
  const { records, folded } = log.objectLog(key);
  const steps: SequenceStep[] = [];
  for (const r of records) steps.push(...fromRecord(r));
  const created = records.some((r) => r.dir === 'in' && r.verb === 'create' && r.resource === 'pods');
  return {
    kind: 'Pod',
    name: `${namespace}/${name}`,
    steps,
    folded,
    partial: !created
  };
}

/** Requests that repeat on a timer and say nothing new one by one: folded into one step per run. */
function repeats(r: RequestRecord): boolean {
  return r.dir === 'in' && !r.event && (r.resource === 'leases' || r.verbClass === 'read');
}

const EVICTION_MESSAGE = 'Marking for deletion Pod ';

/**
 * The pods the taint-eviction controller marked for deletion that ran on `node` (their own logs
 * show their kubelet there), each with the controller's delete request.
 */
function evictions(cluster: Cluster, node: string, from: number): RequestRecord[] {
  const log = cluster.api.requestLog!;
  const out: RequestRecord[] = [];
  for (const e of cluster.eventLog) {
    if (e.t < from || e.reason !== 'TaintManagerEviction' || !e.message.startsWith(EVICTION_MESSAGE))
      continue;
    const [ns, name] = e.message.slice(EVICTION_MESSAGE.length).split('/');
    const { records } = log.objectLog(objectLogKey('pods', ns, name));
    if (!records.some((r) => r.node === node)) continue;
    const del = records.find(
      (r) => r.dir === 'in' && r.verb === 'delete' && r.t >= e.t && !r.node && r.component !== 'kubectl'
    );
    if (del) out.push(del);
  }
  return out;
}

export function nodeSequence(cluster: Cluster, name: string): ObjectSequence | null {
  const log = cluster.api.requestLog;
  if (!log) return null;
  const own = log.objectLog(objectLogKey('nodes', undefined, name));
  const lease = log.objectLog(objectLogKey('leases', NODE_LEASE_NAMESPACE, name));
  const first = Math.min(own.records[0]?.t ?? Infinity, lease.records[0]?.t ?? Infinity);
  const evicted = evictions(cluster, name, Number.isFinite(first) ? first : 0);
  const records = [...own.records, ...lease.records, ...evicted].sort((a, b) => a.seq - b.seq);
  const steps: SequenceStep[] = [];
  // Runs of a repeating request still open: Lease renewals and NodeStatus gets interleave, and a
  // run ends at the first step that is not one of them (a status patch, a taint, an Event).
  const open = new Map<string, SequenceStep[]>();
  for (const r of records) {
    const sig = `${r.component} ${r.node ?? ''} ${r.verb} ${r.resource}`;
    const run = repeats(r) ? open.get(sig) : undefined;
    if (run) {
      for (const st of run) {
        st.count = (st.count ?? 1) + 1;
        st.until = r.t;
      }
      continue;
    }
    if (!repeats(r)) open.clear();
    const podKey = r.resource === 'pods' && r.namespace ? `${r.namespace}/${r.name}` : undefined;
    const made = fromRecord(r).map((st) =>
      podKey && st.kind === 'request' ? { ...st, message: podKey } : st
    );
    steps.push(...made);
    if (repeats(r)) open.set(sig, made);
  }
  const created = own.records.some((r) => r.dir === 'in' && r.verb === 'create' && r.resource === 'nodes');
  return { kind: 'Node', name, steps, folded: own.folded + lease.folded, partial: !created };
}
