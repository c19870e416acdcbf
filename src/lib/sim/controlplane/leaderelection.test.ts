import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../scenario';
import './index';
import type { KubeObject } from '../api/types';
import type { Cluster } from '../cluster';
import { timeWhen } from '../controllers/testing/harness';
import { LE_ID, type LeaderElection } from './component';

const text = readFileSync(new URL('../../../../scenarios/ha-failover.yaml', import.meta.url), 'utf8');
/** The same cluster without the scenario's etcd faults. */
const calm = text.replace(/ {2}faults:\n(?: {4}- .*\n)+/, '');

const lease = (cluster: Cluster, name: string) => cluster.api.get<KubeObject>('Lease', 'kube-system', name);
const le = (cluster: Cluster) => cluster.component<LeaderElection>(LE_ID)!;
const running = (cluster: Cluster, id: string) =>
  (cluster.component(id) as unknown as { running: boolean }).running;
const renewedAt = (cluster: Cluster, name: string) =>
  Date.parse(lease(cluster, name).spec.renewTime) - cluster.api.epochMs;
const leaderEvents = (cluster: Cluster) =>
  cluster.eventLog.filter((e) => e.reason === 'LeaderElection').map((e) => [e.t, e.object, e.message]);

describe('leader election (kube-scheduler, kube-controller-manager)', () => {
  it('the first control-plane node acquires both Leases and renews every 2 s', () => {
    const { cluster } = createCluster(calm);
    cluster.runUntil(10_000);
    for (const name of ['kube-scheduler', 'kube-controller-manager']) {
      const l = lease(cluster, name);
      expect(l.spec.holderIdentity).toMatch(/^control-plane-1_[0-9a-f-]{36}$/);
      expect(l.spec).toMatchObject({
        leaseDurationSeconds: 15,
        acquireTime: '2026-01-01T00:00:00.000000Z',
        renewTime: '2026-01-01T00:00:10.000000Z',
        leaseTransitions: 0
      });
    }
    expect(leaderEvents(cluster)).toEqual([
      [
        0,
        'Lease/kube-system/kube-scheduler',
        `${lease(cluster, 'kube-scheduler').spec.holderIdentity} became leader`
      ],
      [
        0,
        'Lease/kube-system/kube-controller-manager',
        `${lease(cluster, 'kube-controller-manager').spec.holderIdentity} became leader`
      ]
    ]);
  });

  it('a standby takes over once it has seen the Lease unrenewed for leaseDuration (15 s)', () => {
    const { cluster } = createCluster(calm);
    cluster.runUntil(30_000);
    const before = lease(cluster, 'kube-scheduler').spec.holderIdentity;
    cluster.applyFault('StopControlPlaneNode', { target: 'control-plane-1' });
    expect(cluster.apiServers.find((a) => a.name === 'kube-apiserver-control-plane-1')?.running).toBe(false);
    expect(cluster.etcd.members.find((m) => m.host === 'control-plane-1')?.running).toBe(false);
    expect(cluster.etcd.hasQuorum()).toBe(true);
    // The active process died with its machine.
    expect(running(cluster, 'kube-scheduler')).toBe(false);
    const last = renewedAt(cluster, 'kube-scheduler');
    expect(last).toBe(30_000);
    const takeover = timeWhen(cluster, 90_000, () => running(cluster, 'kube-scheduler'))!;
    // Expired by the standby's own clock: 15 s after it first saw the last renewal; it polls
    // every 2–4.4 s (retryPeriod with jitter factor 1.2).
    expect(takeover).toBeGreaterThanOrEqual(last + 15_000);
    expect(takeover).toBeLessThanOrEqual(last + 15_000 + 2 * 4_400);
    const l = lease(cluster, 'kube-scheduler');
    expect(l.spec.holderIdentity).not.toBe(before);
    expect(l.spec.holderIdentity).toMatch(/^control-plane-[23]_/);
    expect(l.spec.leaseTransitions).toBe(1);
    expect(Date.parse(l.spec.acquireTime) - cluster.api.epochMs).toBe(takeover);
    expect(le(cluster).leader('kube-scheduler')?.identity).toBe(l.spec.holderIdentity);
  });

  it('without etcd quorum the leader cannot renew, loses leadership after renewDeadline, and is re-elected after', () => {
    const { cluster } = createCluster(text);
    cluster.runUntil(60_000);
    const lost = timeWhen(cluster, 100_000, () => !running(cluster, 'kube-controller-manager'))!;
    const last = renewedAt(cluster, 'kube-controller-manager');
    // The last renewal before the quorum went; 10 s (renewDeadline) of failed renewals after it.
    expect(last).toBeLessThanOrEqual(60_000);
    expect(lost).toBe(last + 10_000);
    expect(le(cluster).leader('kube-controller-manager')).toBeUndefined();
    cluster.runUntil(119_999);
    expect(running(cluster, 'kube-scheduler')).toBe(false);
    const back = timeWhen(cluster, 130_000, () => running(cluster, 'kube-scheduler'))!;
    // Quorum is back at 2m; the record has been unchanged for far longer than 15 s.
    expect(back).toBeGreaterThanOrEqual(120_000);
    expect(back).toBeLessThanOrEqual(124_400);
    expect(lease(cluster, 'kube-scheduler').spec.leaseTransitions).toBe(1);
  });

  it('a snapshot restores the election and continues identically', async () => {
    const { Cluster } = await import('../cluster');
    const { cluster } = createCluster(calm);
    cluster.runUntil(20_000);
    cluster.applyFault('StopControlPlaneNode', { target: 'control-plane-1' });
    const restored = Cluster.restore(cluster.snapshot());
    cluster.runUntil(60_000);
    restored.runUntil(60_000);
    expect(lease(restored, 'kube-scheduler').spec).toEqual(lease(cluster, 'kube-scheduler').spec);
    expect(leaderEvents(restored)).toEqual(leaderEvents(cluster));
  });
});
