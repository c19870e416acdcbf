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
  const conds = node.status?.conditions as NodeCondition[] | undefined;
  if (conds) for (let i = 0; i < conds.length; i++) if (conds[i].type === 'Ready') return conds[i];
  return undefined;
}

function savedReady(c: NodeCondition | undefined): NodeHealth['ready'] {
  return c ? { heartbeat: c.lastHeartbeatTime ?? '', transition: c.lastTransitionTime ?? '' } : null;
}

/**
 * The renewTime each node's health last took, parsed (the next renewal is compared with it). Only
 * a shortcut: an entry is used when its text is the one asked about, else the text is parsed.
 */
const observedRenews = new Map<string, { renew: string; ms: number }>();

function parsedRenew(name: string, renew: string): number {
  const seen = observedRenews.get(name);
  return seen?.renew === renew ? seen.ms : Date.parse(renew);
}

export interface HealthResult {
  observed: NodeCondition;
  current: NodeCondition | undefined;
}

/** A result to fill in: the monitor pass reuses one for every node. */
export function newHealthResult(): HealthResult {
  return { observed: undefined as never, current: undefined };
}

/**
 * One attempt for one node. Updates `healths[node]` (kept even when the write fails, as the
 * deferred set upstream does), fills in `out` and returns it, and throws the API error of a
 * failed status update. A node whose Ready heartbeat and Lease are as last observed keeps its
 * stored health and costs no allocation; the stored conditions are frozen, so `observed` is the
 * node's own Ready condition as it was at the start of the attempt.
 */
export function tryUpdateNodeHealth(
  host: ControllerHost,
  node: KubeObject,
  /** The node's Ready condition (`readyCondition(node)`). */
  ready: NodeCondition | undefined,
  healths: Record<string, NodeHealth>,
  grace: { monitor: number; startup: number },
  out: HealthResult
): HealthResult {
  const api = host.cluster.api;
  const now = host.now();
  const name = node.metadata.name;
  let health: NodeHealth | undefined = healths[name];
  let current = ready;
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
    if (!health) {
      const created = api.timeOf(node.metadata.creationTimestamp as string);
      health = { probe: created, readyTransition: created, ready: null };
    }
  } else {
    observed = current;
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
  // A newer Lease renewTime is proof of life; the same one as last time needs no parsing, and the
  // one last observed was parsed when it was observed.
  const lease = api.tryGet<KubeObject>('Lease', 'kube-node-lease', name);
  const renew = lease?.spec?.renewTime as string | undefined;
  if (renew && renew !== health.leaseRenew) {
    const observedRenew = Date.parse(renew);
    if (
      !Number.isNaN(observedRenew) &&
      (health.leaseRenew === undefined || parsedRenew(name, health.leaseRenew) < observedRenew)
    ) {
      health.leaseRenew = renew;
      health.probe = now;
      const seen = observedRenews.get(name);
      if (seen) {
        seen.renew = renew;
        seen.ms = observedRenew;
      } else observedRenews.set(name, { renew, ms: observedRenew });
    }
  }
  if (healths[name] !== health) healths[name] = health;
  out.observed = observed;
  out.current = current;

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
      healths[name] = {
        probe: health.probe,
        readyTransition: now,
        ready: savedReady(current),
        leaseRenew: health.leaseRenew
      };
      out.current = current;
    }
  }
  return out;
}
