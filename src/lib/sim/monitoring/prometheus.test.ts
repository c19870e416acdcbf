// Alert timing: Prometheus' rule manager with a 30 s evaluation interval. An alert is pending from
// the first evaluation that finds its expression true and fires at the first evaluation `for:`
// later; a pending alert whose expression turns false is dropped without firing; a firing one resolves.
// upstream: prometheus/prometheus rules/alerting.go (Eval: activeAt, holdDuration, StatePending/StateFiring)
// upstream: kubernetes-monitoring/kubernetes-mixin alerts/*.libsonnet as rendered by kube-prometheus
//   manifests/kubernetesControlPlane-prometheusRule.yaml (for: 15m on the *Down alerts, 2m on the fast burn)
// upstream: etcd-io/etcd contrib/mixin/mixin.libsonnet (etcdNoLeader 1m, etcdInsufficientMembers 3m,
//   etcdMembersDown 10m, etcdHighFsyncDurations 10m)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createCluster } from '../scenario';
import { Cluster } from '../cluster';
import { prometheus, SCRAPE_INTERVAL_MS } from './prometheus';

const MIN = 60_000;

function run(file: string) {
  const { cluster } = createCluster(readFileSync(file.includes('/') ? file : `scenarios/${file}`, 'utf8'));
  return cluster;
}

/** `t(s) alert severity to` lines for the alerts named. */
function timeline(c: Cluster, names?: string[]): string[] {
  return prometheus(c)!
    .transitions.filter((x) => !names || names.includes(x.alert))
    .map(
      (x) =>
        `${x.t / 1000} ${x.alert} ${x.severity}${Object.keys(x.labels).length ? ' ' + JSON.stringify(x.labels) : ''} ${x.to}`
    );
}

describe('Prometheus alerts', () => {
  it('scrapes every 30 s and keeps every target up on a healthy cluster', () => {
    const c = run('three-nodes.yaml');
    c.runUntil(3 * MIN);
    const p = prometheus(c)!;
    expect(p.scrapes.map((s) => s.t)).toEqual(Array.from({ length: 7 }, (_, i) => i * SCRAPE_INTERVAL_MS));
    expect(p.scrapes[6].up).toEqual({
      apiserver: [1, 1],
      'kube-controller-manager': [1, 1],
      'kube-scheduler': [1, 1],
      etcd: [1, 1],
      // three workers and kubeadm's control-plane-1
      kubelet: [4, 4]
    });
    expect(p.alerts()).toEqual([]);
  });

  it('KubeSchedulerDown: pending at the first evaluation after the stop, firing exactly 15m later, resolved when it is back', () => {
    const c = run('three-nodes.yaml');
    c.runUntil(100_000);
    c.applyFault('StopScheduler', {});
    c.runUntil(100_000 + 16 * MIN);
    c.applyFault('StartScheduler', {});
    c.runUntil(100_000 + 17 * MIN);
    expect(timeline(c)).toEqual([
      '120 KubeSchedulerDown critical pending',
      '1020 KubeSchedulerDown critical firing',
      '1080 KubeSchedulerDown critical resolved'
    ]);
    const a = prometheus(c)!.alerts()[0];
    expect([a.state, a.activeAt, a.firedAt, a.resolvedAt, a.forMs]).toEqual([
      'resolved',
      120_000,
      1_020_000,
      1_080_000,
      15 * MIN
    ]);
  });

  // upstream: prometheus-operator/kube-prometheus manifests/kubernetesControlPlane-prometheusRule.yaml
  //   at 047d5049: KubeletDown is absent(up{job="kubelet", metrics_path="/metrics"} == 1), for: 15m
  it('KubeletDown waits for every kubelet to be down: one stopped kubelet is KubeNodeNotReady, not KubeletDown', () => {
    const c = run('three-nodes.yaml');
    c.runUntil(100_000);
    c.applyFault('StopKubelet', { target: 'worker-1' });
    c.runUntil(100_000 + 20 * MIN);
    expect(timeline(c, ['KubeletDown'])).toEqual([]);
    expect(timeline(c, ['KubeNodeNotReady']).map((l) => l.split(' ').slice(1).join(' '))).toContain(
      'KubeNodeNotReady warning {"node":"worker-1"} firing'
    );
    const t = c.now;
    c.applyFault('StopKubelet', { target: 'worker-2' });
    c.applyFault('StopKubelet', { target: 'worker-3' });
    // control-plane-1's kubelet is a scrape target as well: the last one up.
    c.applyFault('StopKubelet', { target: 'control-plane-1' });
    c.runUntil(t + 16 * MIN);
    const next = Math.ceil(t / SCRAPE_INTERVAL_MS) * SCRAPE_INTERVAL_MS;
    expect(timeline(c, ['KubeletDown'])).toEqual([
      `${next / 1000} KubeletDown critical pending`,
      `${(next + 15 * MIN) / 1000} KubeletDown critical firing`
    ]);
  });

  it('lost etcd quorum: etcdNoLeader fires after 1m, etcdInsufficientMembers is dropped before its 3m, etcdMembersDown waits 10m', () => {
    // etcd-1 and etcd-2 stop at 60s, etcd-2 is back at 3m.
    const c = run('etcd-quorum.yaml');
    c.runUntil(12 * MIN);
    expect(timeline(c, ['etcdNoLeader', 'etcdInsufficientMembers', 'etcdMembersDown'])).toEqual([
      '60 etcdMembersDown critical pending',
      '60 etcdInsufficientMembers critical pending',
      '60 etcdNoLeader critical {"instance":"10.0.0.2:2381"} pending',
      '120 etcdNoLeader critical {"instance":"10.0.0.2:2381"} firing',
      '180 etcdInsufficientMembers critical inactive',
      '180 etcdNoLeader critical {"instance":"10.0.0.2:2381"} resolved',
      '660 etcdMembersDown critical firing'
    ]);
  });

  it("a single member's failing disk: the API's error budget burns first (for: 2m), the fsync alert fires 10m after it began", () => {
    const c = run('three-nodes.yaml');
    c.runUntil(2 * MIN);
    c.applyFault('SlowEtcdDisk', { target: 'etcd-0' });
    c.runUntil(14 * MIN);
    expect(timeline(c, ['KubeAPIErrorBudgetBurn', 'etcdHighFsyncDurations'])).toEqual([
      '150 etcdHighFsyncDurations warning {"instance":"10.0.0.10:2381"} pending',
      '150 etcdHighFsyncDurations critical {"instance":"10.0.0.10:2381"} pending',
      // kube-system's pods (kube-proxy, calico-node, CoreDNS) add good requests: the burn
      // rate crosses its thresholds 30-60 s later than on a cluster without them.
      '210 KubeAPIErrorBudgetBurn critical {"long":"6h","short":"30m"} pending',
      '300 KubeAPIErrorBudgetBurn critical {"long":"1h","short":"5m"} pending',
      '420 KubeAPIErrorBudgetBurn critical {"long":"1h","short":"5m"} firing',
      '750 etcdHighFsyncDurations warning {"instance":"10.0.0.10:2381"} firing',
      '750 etcdHighFsyncDurations critical {"instance":"10.0.0.10:2381"} firing'
    ]);
  });

  it('with three members one failing disk is outvoted: only that member alerts, the API stays fast', () => {
    // Three stacked members and no faults of its own.
    const three = run('lessons/13-etcd-backup-restore/scenario.yaml');
    three.runUntil(2 * MIN);
    three.applyFault('SlowEtcdDisk', { target: 'etcd-1' });
    three.runUntil(14 * MIN);
    // Raft commits once two of three WALs have the entry: the two healthy disks' 1.5 ms.
    expect(three.etcd.commitWaitMs()).toBe(1.5);
    expect(timeline(three, ['KubeAPIErrorBudgetBurn', 'etcdHighFsyncDurations'])).toEqual([
      '150 etcdHighFsyncDurations warning {"instance":"10.0.0.3:2381"} pending',
      '150 etcdHighFsyncDurations critical {"instance":"10.0.0.3:2381"} pending',
      '750 etcdHighFsyncDurations warning {"instance":"10.0.0.3:2381"} firing',
      '750 etcdHighFsyncDurations critical {"instance":"10.0.0.3:2381"} firing'
    ]);
  });

  it('keeps alerts across snapshot and restore (time travel)', () => {
    const c = run('three-nodes.yaml');
    c.runUntil(100_000);
    c.applyFault('StopScheduler', {});
    c.runUntil(10 * MIN);
    const snap = c.snapshot();
    c.runUntil(20 * MIN);
    const later = timeline(c);
    const r = Cluster.restore(snap);
    expect(timeline(r)).toEqual(['120 KubeSchedulerDown critical pending']);
    r.runUntil(20 * MIN);
    expect(timeline(r)).toEqual(later);
  });

  it("counts a member's fsyncs the same however often its /metrics are read, across a stop and a start", () => {
    const read = (c: Cluster) => c.etcd.foldDisk();
    const a = run('lessons/13-etcd-backup-restore/scenario.yaml');
    const b = run('lessons/13-etcd-backup-restore/scenario.yaml');
    for (const c of [a, b]) c.runUntil(20_000);
    read(a);
    for (const c of [a, b]) {
      c.runUntil(40_000);
      c.applyFault('StopEtcdMember', { target: 'etcd-2' });
      c.runUntil(50_000);
      c.applyFault('StartEtcdMember', { target: 'etcd-2' });
      c.runUntil(70_000);
      read(c);
    }
    const fsyncs = (c: Cluster) => c.etcd.members.map((m) => m.disk!.fsync.at(-1));
    expect(fsyncs(a)).toEqual(fsyncs(b));
    // The stopped member missed the writes of its 10 s away.
    const [m0, , m2] = fsyncs(a);
    expect(m2!).toBeLessThan(m0!);
  });
});
