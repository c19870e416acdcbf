/**
 * tryUpdateNodeHealth (node_lifecycle_controller.go): proof of life is a changed Ready
 * lastHeartbeatTime or a newer Lease renewTime, timed with the controller's own clock. After the
 * grace period Ready, MemoryPressure, DiskPressure and PIDPressure become Unknown.
 */
import type { KubeObject, Mutable, NodeCondition } from '../../api/types';
import { clone } from '../../api/types';
import type { ControllerHost } from '../controller';

export interface NodeHealth {
  /** Controller time (ms) of the last observed proof of life. */
  probe: number;
  readyTransition: number;
  /** The Ready condition's heartbeat and transition times as last observed; null when absent. */
  ready: { heartbeat: string; transition: string } | null;
  /** renewTime of the last Lease observed. */
  leaseRenew?: string;
}

/** Status types the controller marks Unknown; NetworkUnavailable is left to its owner. */
const CONDITION_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

export function readyCondition(node: KubeObject): NodeCondition | undefined {
  return (node.status?.conditions as NodeCondition[] | undefined)?.find((c) => c.type === 'Ready');
}

function savedReady(c: NodeCondition | undefined): NodeHealth['ready'] {
  return c ? { heartbeat: c.lastHeartbeatTime ?? '', transition: c.lastTransitionTime ?? '' } : null;
}

function renewTimeOf(lease: KubeObject | undefined): number {
  const t = lease?.spec?.renewTime as string | undefined;
  return t ? Date.parse(t) : NaN;
}

export interface HealthResult {
  observed: NodeCondition;
  current: NodeCondition | undefined;
}

/**
 * One attempt. Mutates `health` (the caller stores it even when the write fails, as the deferred
 * set upstream does) and throws the API error of a failed status update.
 */
export function tryUpdateNodeHealth(
  host: ControllerHost,
  node: KubeObject,
  healthIn: NodeHealth | undefined,
  grace: { monitor: number; startup: number },
  store: (h: NodeHealth) => void
): HealthResult {
  const api = host.cluster.api;
  const now = host.now();
  const created = api.timeOf(node.metadata.creationTimestamp as string);
  let health = healthIn ? { ...healthIn } : undefined;
  let current = readyCondition(node);
  let observed: NodeCondition;
  let gracePeriod: number;
  if (!current) {
    observed = {
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: node.metadata.creationTimestamp,
      lastTransitionTime: node.metadata.creationTimestamp
    };
    gracePeriod = grace.startup;
    if (!health) health = { probe: created, readyTransition: created, ready: null };
  } else {
    observed = { ...current };
    gracePeriod = grace.monitor;
  }
  const saved = health?.ready ?? null;
  if (!health) {
    health = { probe: now, readyTransition: now, ready: savedReady(current) };
  } else if (!saved && current) {
    health = { probe: now, readyTransition: now, ready: savedReady(current) };
  } else if (saved && !current) {
    health = { probe: now, readyTransition: now, ready: null };
  } else if (saved && current && saved.heartbeat !== (current.lastHeartbeatTime ?? '')) {
    const transition = saved.transition !== (current.lastTransitionTime ?? '') ? now : health.readyTransition;
    health = {
      probe: now,
      readyTransition: transition,
      ready: savedReady(current),
      leaseRenew: health.leaseRenew
    };
  }
  const lease = api.tryGet<KubeObject>('Lease', 'kube-node-lease', node.metadata.name);
  const observedRenew = renewTimeOf(lease);
  if (
    lease &&
    !Number.isNaN(observedRenew) &&
    (health.leaseRenew === undefined || Date.parse(health.leaseRenew) < observedRenew)
  ) {
    health.leaseRenew = lease.spec.renewTime as string;
    health.probe = now;
  }
  store(health);

  if (now > health.probe + gracePeriod) {
    const upd = clone(node);
    upd.status ??= {};
    const conds: Mutable<NodeCondition>[] = (upd.status.conditions ??= []);
    const nowTs = api.timestamp();
    for (const type of CONDITION_TYPES) {
      const c = conds.find((x) => x.type === type);
      if (!c) {
        conds.push({
          type,
          status: 'Unknown',
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
          lastHeartbeatTime: node.metadata.creationTimestamp,
          lastTransitionTime: nowTs
        });
      } else if (c.status !== 'Unknown') {
        c.status = 'Unknown';
        c.reason = 'NodeStatusUnknown';
        c.message = 'Kubelet stopped posting node status.';
        c.lastTransitionTime = nowTs;
      }
    }
    const newReady = conds.find((x) => x.type === 'Ready');
    if (JSON.stringify(newReady) !== JSON.stringify(current ? observed : undefined)) {
      const written = api.update(upd, host.ctx, { subresource: 'status' });
      current = readyCondition(written);
      health = {
        probe: health.probe,
        readyTransition: now,
        ready: savedReady(current),
        leaseRenew: health.leaseRenew
      };
      store(health);
    }
  }
  return { observed, current };
}
