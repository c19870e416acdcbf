/**
 * Removing a node (cluster-autoscaler core/scaledown/actuation): taint it
 * ToBeDeletedByClusterAutoscaler, evict its pods through the Eviction API (retrying refusals for
 * --max-pod-eviction-time; DaemonSet pods once, best effort), wait for the others to terminate,
 * then delete the Node and the machine.
 */
import type { Cluster } from '../../cluster';
import { clone, type KubeObject, type Taint } from '../../api/types';
import { evictPod } from '../../api/eviction';
import { ApiError, ConnectionError } from '../../api/errors';
import { isDaemonSetPod, TO_BE_DELETED_TAINT } from './scaledown';
import { CA_DEFAULTS, CA_ID, CTX, SOURCE, type Deleting, type State } from './autoscaler';

export interface DrainHost {
  readonly cluster: Cluster;
  state: State;
}

export function hasToBeDeleted(n: KubeObject): boolean {
  return ((n.spec?.taints ?? []) as Taint[]).some((t) => t.key === TO_BE_DELETED_TAINT);
}

export function startDeletion(h: DrainHost, node: KubeObject, group: string, empty: boolean): void {
  const api = h.cluster.api;
  const upd = clone(node);
  const taints = ((upd.spec?.taints ?? []) as Taint[]).filter((t) => t.key !== TO_BE_DELETED_TAINT);
  taints.push({
    key: TO_BE_DELETED_TAINT,
    value: String(Math.floor((api.epochMs + h.cluster.now) / 1000)),
    effect: 'NoSchedule'
  });
  upd.spec = { ...(upd.spec ?? {}), taints };
  api.update(upd, CTX);
  h.state.deleting[node.metadata.name] = { group, started: h.cluster.now, empty };
  delete h.state.unneededSince[node.metadata.name];
  h.cluster.recorder.event(
    node,
    'Normal',
    'ScaleDown',
    'marked the node as toBeDeleted/unschedulable',
    SOURCE,
    CTX
  );
  h.cluster.engine.schedule(0, CA_ID, 'drain', node.metadata.name);
}

/** Evict what is left, wait for the pods to go, then delete the Node and the machine. */
export function drain(h: DrainHost, name: string): void {
  const d = h.state.deleting[name];
  if (!d) return;
  const api = h.cluster.api;
  const now = h.cluster.now;
  const pods = api
    .podsOnNode<KubeObject>(name)
    .filter(
      (p) =>
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed' &&
        !p.metadata.annotations?.['kubernetes.io/config.mirror']
    );
  let failed = false;
  // DaemonSet pods are evicted once, best effort, and never waited for (EvictDaemonSetPods); the
  // DaemonSet controller may put new ones on the node until it is gone.
  const daemonSets = !d.daemonSetsEvicted;
  d.daemonSetsEvicted = true;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    const daemon = isDaemonSetPod(p);
    if (daemon && !daemonSets) continue;
    try {
      evictPod(h.cluster, p.metadata.namespace!, p.metadata.name, CTX, {
        gracePeriodSeconds: Math.min(
          p.spec?.terminationGracePeriodSeconds ?? 30,
          CA_DEFAULTS.maxGracefulTerminationSec
        )
      });
      h.cluster.recorder.event(p, 'Normal', 'ScaleDown', 'deleting pod for node scale down', SOURCE, CTX);
    } catch (e) {
      if (!(e instanceof ApiError) && !(e instanceof ConnectionError)) throw e;
      if (!daemon) failed = true;
    }
  }
  if (failed) {
    if (now - d.started >= CA_DEFAULTS.maxPodEvictionTimeMs) return abort(h, name);
    h.cluster.engine.schedule(CA_DEFAULTS.evictionRetryMs, CA_ID, 'drain', name);
    return;
  }
  // Evicted pods still terminating; DaemonSet pods go with the machine if they linger.
  const left = pods.filter((p) => !isDaemonSetPod(p));
  const graceOver =
    now - d.started >= CA_DEFAULTS.maxPodEvictionTimeMs + CA_DEFAULTS.maxGracefulTerminationSec * 1000;
  if (left.length && !graceOver) {
    h.cluster.engine.schedule(5_000, CA_ID, 'drain', name);
    return;
  }
  removeNode(h, name, d);
}

function abort(h: DrainHost, name: string): void {
  delete h.state.deleting[name];
  h.state.lastScaleDownFail = h.cluster.now;
  const node = h.cluster.api.tryGet<KubeObject>('Node', undefined, name);
  if (!node) return;
  const upd = clone(node);
  upd.spec = {
    ...(upd.spec ?? {}),
    taints: ((upd.spec?.taints ?? []) as Taint[]).filter((t) => t.key !== TO_BE_DELETED_TAINT)
  };
  h.cluster.api.update(upd, CTX);
  h.cluster.recorder.event(
    node,
    'Warning',
    'ScaleDownFailed',
    'failed to drain the node, aborting ScaleDown',
    SOURCE,
    CTX
  );
}

function removeNode(h: DrainHost, name: string, d: Deleting): void {
  const api = h.cluster.api;
  if (api.tryGet('Node', undefined, name)) api.delete('Node', undefined, name, {}, CTX);
  h.cluster.removeNodeHost(name);
  delete h.state.deleting[name];
  h.state.target[d.group] = Math.max(0, (h.state.target[d.group] ?? 1) - 1);
  const cm = api.tryGet<KubeObject>('ConfigMap', 'kube-system', 'cluster-autoscaler-status');
  if (cm) {
    const msg = d.empty
      ? `Scale-down: removing empty node "${name}"`
      : `Scale-down: node ${name} removed with drain`;
    h.cluster.recorder.event(cm, 'Normal', d.empty ? 'ScaleDownEmpty' : 'ScaleDown', msg, SOURCE, CTX);
  }
}
