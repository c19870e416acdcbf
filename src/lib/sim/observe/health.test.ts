// The control-plane health read model from Prometheus' scrapes.
// upstream: kubernetes-monitoring/kubernetes-mixin dashboards (API server SLO: write p99 and 5xx ratio over 5m)
// upstream: etcd-io/etcd contrib/mixin (has-leader, leader changes, WAL fsync p99)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createCluster } from '$lib/sim/scenario';
import { alertMarks, healthModel, notificationGroups } from './health';
import { SessionHost } from '../session/host';
import type { FrameMessage, SessionCommand, SessionMessage } from '../session/protocol';

const MIN = 60_000;

describe('health read model', () => {
  it('follows a failing disk under a single etcd member: write p99 over the SLO, fsync p99, the alerts', () => {
    const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'));
    cluster.runUntil(2 * MIN);
    const healthy = healthModel(cluster)!;
    expect(healthy.targets).toEqual([
      { job: 'apiserver', up: 1, total: 1 },
      { job: 'kube-controller-manager', up: 1, total: 1 },
      { job: 'kube-scheduler', up: 1, total: 1 },
      { job: 'etcd', up: 1, total: 1 },
      // three workers and control-plane-1
      { job: 'kubelet', up: 4, total: 4 }
    ]);
    expect(healthy.writeP99Ms.map((p) => p.t)).toEqual([0, 30_000, 60_000, 90_000, 120_000]);
    // No point before there are two scrapes to take a rate from.
    expect(healthy.writeP99Ms[0].v).toBeNull();
    expect(healthy.writeP99Ms[4].v).toBeLessThan(50);
    expect(healthy.etcdHasLeader.at(-1)!.v).toBe(1);
    expect(healthy.etcdFsyncP99Ms.at(-1)!.v).toBe(2); // every fsync in the (1 ms, 2 ms] bucket
    expect(healthy.alerts).toEqual([]);
    expect(healthy.rules.find((r) => r.alert === 'etcdNoLeader')).toMatchObject({
      forMs: MIN,
      severity: 'critical'
    });

    cluster.applyFault('SlowEtcdDisk', { target: 'etcd-0' });
    cluster.runUntil(8 * MIN);
    const sick = healthModel(cluster)!;
    // Writes wait 1.2 s for the fsync: the p99 sits in the (1.2 s, 1.25 s] bucket.
    expect(sick.writeP99Ms.at(-1)!.v).toBeGreaterThan(sick.sloMs);
    expect(sick.writeP99Ms.at(-1)!.v).toBeLessThanOrEqual(1250);
    expect(sick.etcdFsyncP99Ms.at(-1)!.v).toBeCloseTo(2037.8, 1);
    expect(sick.errorRatio.at(-1)!.v).toBe(0);
    expect(sick.alerts.map((a) => [a.alert, a.severity, a.state])).toEqual([
      ['KubeAPIErrorBudgetBurn', 'critical', 'firing'],
      ['etcdHighCommitDurations', 'warning', 'pending'],
      ['etcdHighFsyncDurations', 'critical', 'pending'],
      ['etcdHighFsyncDurations', 'warning', 'pending'],
      ['KubeAPIErrorBudgetBurn', 'critical', 'pending']
    ]);
    expect(alertMarks(cluster).slice(0, 2)).toEqual([
      { t: 150_000, alert: 'etcdHighFsyncDurations', severity: 'warning', to: 'pending' },
      { t: 150_000, alert: 'etcdHighFsyncDurations', severity: 'critical', to: 'pending' }
    ]);
  });

  it('is sent only while the health view subscribes, and the timeline marks always', () => {
    const out: SessionMessage[] = [];
    const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: () => 0 });
    let id = 0;
    const send = (command: SessionCommand) => host.receive({ id: ++id, command });
    const frames = () => out.filter((m): m is FrameMessage => m.type === 'frame');
    send({
      type: 'init',
      init: { scenario: readFileSync('scenarios/three-nodes.yaml', 'utf8'), fileName: 'three-nodes.yaml' }
    });
    send({ type: 'advance', ms: 60_000 });
    expect(frames().some((f) => f.health)).toBe(false);
    expect(frames().some((f) => Array.isArray(f.alertMarks))).toBe(true);
    send({ type: 'subscribe', subscriptions: { health: true } });
    send({ type: 'advance', ms: 30_000 });
    const last = frames()
      .filter((f) => f.health)
      .at(-1)!.health!;
    expect(last.targets).toHaveLength(5);
    expect(last.writeP99Ms.at(-1)!.t).toBe(90_000);
    send({ type: 'subscribe', subscriptions: {} });
    expect(frames().at(-1)!.health).toBeNull();
  });
});

// upstream: prometheus/alertmanager config (route group_by, group_wait default 30s)
describe('notification groups', () => {
  it("groups lesson 14's firing alerts by name, each with its for: and labels, first sent group_wait after firing", () => {
    const { cluster } = createCluster(
      readFileSync(
        new URL('../../../../lessons/14-watch-control-plane/scenario.yaml', import.meta.url),
        'utf8'
      )
    );
    cluster.runUntil(12 * 60_000);
    const groups = notificationGroups(healthModel(cluster)!.alerts);
    expect(
      groups.map((g) => [
        g.alert,
        g.severity,
        g.notifyAt / 1000,
        g.alerts.map((a) => [a.severity, JSON.stringify(a.labels), a.forMs / 60_000])
      ])
    ).toEqual([
      // The disk fails at 60s: the fast burn fires at 300s (for: 2m), +30s; the requests of
      // kube-system's own pods dilute the error ratio, while control-plane-1's kubelet adds writes
      // that time out like the workers' (its Lease, its Node status), so it crosses the line at 180s.
      ['KubeAPIErrorBudgetBurn', 'critical', 330, [['critical', '{"long":"1h","short":"5m"}', 2]]],
      ['etcdHighCommitDurations', 'warning', 720, [['warning', '{"instance":"10.0.0.10:2381"}', 10]]],
      [
        // Pending from the first scrape after the failure (90s), firing 10m later (690s), +30s.
        'etcdHighFsyncDurations',
        'critical',
        720,
        [
          ['critical', '{"instance":"10.0.0.10:2381"}', 10],
          ['warning', '{"instance":"10.0.0.10:2381"}', 10]
        ]
      ]
    ]);
    // Only firing alerts notify.
    expect(notificationGroups([])).toEqual([]);
  });
});
