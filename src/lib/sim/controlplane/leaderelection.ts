/**
 * client-go leader election with a coordination.k8s.io/v1 Lease (tools/leaderelection): one
 * candidate per control-plane instance tries to acquire `kube-system/<name>` every retryPeriod
 * (jittered by a factor of 1.2); the holder renews every retryPeriod and gives up leadership when
 * no renewal succeeded for renewDeadline. A candidate takes over once it has seen the same Lease
 * record for leaseDuration by its own clock.
 */
import type { Cluster } from '../cluster';
import { ApiError, ConnectionError } from '../api/errors';
import { clone, type KubeObject, type RequestContext } from '../api/types';

/** kube-scheduler and kube-controller-manager --leader-elect-* defaults. */
export const LEADER_ELECTION = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  jitterFactor: 1.2
};

export interface Candidate {
  /** Lease name and component: kube-scheduler or kube-controller-manager. */
  lease: string;
  /** Control-plane node running this instance. */
  host: string;
  /** `<host>_<uuid>`, as the components build it. */
  identity: string;
  alive: boolean;
  leading: boolean;
  /** Last successful renewal while leading (virtual ms). */
  lastRenew: number | null;
  /** The Lease record last seen and when this candidate first saw it (its observedTime). */
  observedRecord: string;
  observedTime: number;
}

/** MicroTime as the API server stores it: RFC 3339 with microseconds. */
export function microTime(cluster: Cluster): string {
  return new Date(cluster.api.epochMs + cluster.now).toISOString().replace(/Z$/, '000Z');
}

function record(lease: KubeObject | undefined): string {
  const s = lease?.spec ?? {};
  return JSON.stringify([s.holderIdentity ?? '', s.renewTime ?? '', s.leaseTransitions ?? 0]);
}

export type Outcome = 'acquired' | 'renewed' | 'held-by-other' | 'failed';

/** tryAcquireOrRenew: one attempt. Only API errors and unreachable API servers count as failures. */
export function tryAcquireOrRenew(cluster: Cluster, c: Candidate): Outcome {
  const api = cluster.api;
  const ctx: RequestContext = { component: c.lease };
  const now = cluster.now;
  try {
    api.countRead('get', 'Lease', ctx);
    const cur = api.tryGet<KubeObject>('Lease', 'kube-system', c.lease);
    const ts = microTime(cluster);
    if (!cur) {
      api.create(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: c.lease, namespace: 'kube-system' },
          spec: {
            holderIdentity: c.identity,
            leaseDurationSeconds: LEADER_ELECTION.leaseDurationMs / 1000,
            acquireTime: ts,
            renewTime: ts,
            leaseTransitions: 0
          }
        },
        ctx
      );
      c.observedRecord = record(api.tryGet('Lease', 'kube-system', c.lease));
      c.observedTime = now;
      return 'acquired';
    }
    const rec = record(cur);
    if (rec !== c.observedRecord) {
      c.observedRecord = rec;
      c.observedTime = now;
    }
    const holder = cur.spec?.holderIdentity ?? '';
    const mine = holder === c.identity;
    const durationMs = (cur.spec?.leaseDurationSeconds ?? 15) * 1000;
    if (holder && !mine && c.observedTime + durationMs > now) return 'held-by-other';
    const upd = clone(cur);
    upd.spec = {
      ...upd.spec,
      holderIdentity: c.identity,
      leaseDurationSeconds: LEADER_ELECTION.leaseDurationMs / 1000,
      renewTime: ts,
      ...(mine ? {} : { acquireTime: ts, leaseTransitions: (cur.spec?.leaseTransitions ?? 0) + 1 })
    };
    const written = api.update(upd, ctx);
    c.observedRecord = record(written);
    c.observedTime = now;
    return mine ? 'renewed' : 'acquired';
  } catch (e) {
    if (e instanceof ApiError || e instanceof ConnectionError) return 'failed';
    throw e;
  }
}
