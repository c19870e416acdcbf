/**
 * The alerting rules, with the meaning of their expressions and their `for:` durations, from
 * kubernetes-mixin as kube-prometheus renders it (manifests/kubernetesControlPlane-prometheusRule.yaml)
 * and etcd's own mixin (contrib/mixin/mixin.libsonnet), for what the simulation models. Each rule
 * reads the scrapes Prometheus kept and returns the label sets for which its expression is true
 * now. Versions and the rules left out: docs/operations.md, "Alerts".
 */
import { DISK_BUCKETS } from '../etcd/etcd';
import { histogramQuantile } from '../metrics/exposition';
import type { Scrape } from './scrape';

export type Severity = 'critical' | 'warning';

export interface ActiveSeries {
  labels: Record<string, string>;
  value: number;
}

export interface Rule {
  alert: string;
  severity: Severity;
  /** `for:` in ms: how long the expression must hold before the alert fires. */
  forMs: number;
  /** Where the rule comes from (mixin file). */
  source: 'kubernetes-mixin' | 'etcd-mixin';
  /** The expression, for the alert list and the docs. */
  expr: string;
  eval(scrapes: readonly Scrape[]): ActiveSeries[];
}

const MIN = 60_000;

/** The oldest scrape inside (now − window, now]: the start of a range vector's samples. */
function rangeStart(scrapes: readonly Scrape[], windowMs: number): Scrape | undefined {
  const now = scrapes[scrapes.length - 1].t;
  return scrapes.find((s) => s.t > now - windowMs);
}

/** lib/absent_alert.libsonnet: fires only when no target of the job is up. */
const absentUp = (
  job: 'apiserver' | 'kube-scheduler' | 'kube-controller-manager' | 'kubelet',
  name: string,
  selector = `job="${job}"`
): Rule => ({
  alert: `${name}Down`,
  severity: 'critical',
  forMs: 15 * MIN,
  source: 'kubernetes-mixin',
  expr: `absent(up{${selector}} == 1)`,
  eval: (s) => (s[s.length - 1].up[job][0] === 0 ? [{ labels: {}, value: 1 }] : [])
});

/** burnrate over a window: (slow + 5xx) / all, for reads and writes apart, summed (apiserver_request:burnrateNh). */
function burnrate(scrapes: readonly Scrape[], windowMs: number): number | undefined {
  const now = scrapes[scrapes.length - 1];
  const first = rangeStart(scrapes, windowMs);
  if (!now.api || !first?.api || first === now) return undefined;
  const rate = (bad: number, total: number) => (total > 0 ? bad / total : 0);
  return (
    rate(now.api.writeBad - first.api.writeBad, now.api.writeTotal - first.api.writeTotal) +
    rate(now.api.readBad - first.api.readBad, now.api.readTotal - first.api.readTotal)
  );
}

/** KubeAPIErrorBudgetBurn with a 99% availability target: long and short windows both over factor × 1%. */
function budgetBurn(long: number, short: number, factor: number, forMs: number, severity: Severity): Rule {
  const h = (ms: number) => (ms >= 60 * MIN ? `${ms / (60 * MIN)}h` : `${ms / MIN}m`);
  return {
    alert: 'KubeAPIErrorBudgetBurn',
    severity,
    forMs,
    source: 'kubernetes-mixin',
    expr: `sum(apiserver_request:burnrate${h(long)}) > (${factor.toFixed(2)} * 0.01000) and sum(apiserver_request:burnrate${h(short)}) > (${factor.toFixed(2)} * 0.01000)`,
    eval: (s) => {
      const l = burnrate(s, long);
      const sh = burnrate(s, short);
      if (l === undefined || sh === undefined) return [];
      return l > factor * 0.01 && sh > factor * 0.01
        ? [{ labels: { long: h(long), short: h(short) }, value: l }]
        : [];
    }
  };
}

/** histogram_quantile(0.99, rate(<bucket>[5m])) per etcd member. */
function etcdQuantile(
  alert: string,
  pick: (e: Scrape['etcd'][number]) => number[],
  threshold: number,
  severity: Severity,
  metric: string
): Rule {
  return {
    alert,
    severity,
    forMs: 10 * MIN,
    source: 'etcd-mixin',
    expr: `histogram_quantile(0.99, rate(${metric}_bucket{job=~".*etcd.*"}[5m])) > ${threshold}`,
    eval: (s) => {
      const now = s[s.length - 1];
      const first = rangeStart(s, 5 * MIN);
      if (!first || first === now) return [];
      const out: ActiveSeries[] = [];
      for (const e of now.etcd) {
        const before = first.etcd.find((x) => x.instance === e.instance);
        if (!before) continue;
        const counts = pick(e).map((c, i) => c - pick(before)[i]);
        const total = counts[counts.length - 1];
        const q = histogramQuantile(0.99, DISK_BUCKETS, counts, total);
        if (q > threshold) out.push({ labels: { instance: e.instance }, value: q });
      }
      return out;
    }
  };
}

export const RULES: readonly Rule[] = [
  absentUp('apiserver', 'KubeAPI'),
  budgetBurn(60 * MIN, 5 * MIN, 14.4, 2 * MIN, 'critical'),
  budgetBurn(360 * MIN, 30 * MIN, 6, 15 * MIN, 'critical'),
  absentUp('kube-controller-manager', 'KubeControllerManager'),
  absentUp('kube-scheduler', 'KubeScheduler'),
  // alerts/kubelet.libsonnet: the absent alert on the kubelet selector. One kubelet down does not
  // fire it (KubeNodeNotReady does, through the Node's condition); all of them down does.
  absentUp('kubelet', 'Kubelet', 'job="kubelet", metrics_path="/metrics"'),
  {
    alert: 'KubeNodeNotReady',
    severity: 'warning',
    forMs: 15 * MIN,
    source: 'kubernetes-mixin',
    expr: 'kube_node_status_condition{job="kube-state-metrics",condition="Ready",status="true"} == 0',
    eval: (s) => s[s.length - 1].notReady.map((node) => ({ labels: { node }, value: 0 }))
  },
  {
    alert: 'KubeNodeUnreachable',
    severity: 'warning',
    forMs: 15 * MIN,
    source: 'kubernetes-mixin',
    expr: '(kube_node_spec_taint{job="kube-state-metrics",key="node.kubernetes.io/unreachable",effect="NoSchedule"} unless ignoring(key,value) kube_node_spec_taint{job="kube-state-metrics",key=~"ToBeDeletedByClusterAutoscaler|cloud.google.com/impending-node-termination|aws-node-termination-handler/spot-itn"}) == 1',
    eval: (s) => s[s.length - 1].unreachable.map((node) => ({ labels: { node }, value: 1 }))
  },
  {
    alert: 'etcdMembersDown',
    severity: 'critical',
    forMs: 10 * MIN,
    source: 'etcd-mixin',
    expr: 'max without (endpoint) (sum without (instance) (up{job=~".*etcd.*"} == bool 0) or count without (To) (sum without (instance) (rate(etcd_network_peer_sent_failures_total{job=~".*etcd.*"}[120s])) > 0.01)) > 0',
    eval: (s) => {
      const [up, all] = s[s.length - 1].up.etcd;
      return all - up > 0 ? [{ labels: {}, value: all - up }] : [];
    }
  },
  {
    alert: 'etcdInsufficientMembers',
    severity: 'critical',
    forMs: 3 * MIN,
    source: 'etcd-mixin',
    expr: 'sum(up{job=~".*etcd.*"} == bool 1) without (instance) < ((count(up{job=~".*etcd.*"}) without (instance) + 1) / 2)',
    eval: (s) => {
      const [up, all] = s[s.length - 1].up.etcd;
      return all && up < (all + 1) / 2 ? [{ labels: {}, value: up }] : [];
    }
  },
  {
    alert: 'etcdNoLeader',
    severity: 'critical',
    forMs: 1 * MIN,
    source: 'etcd-mixin',
    expr: 'etcd_server_has_leader{job=~".*etcd.*"} == 0',
    eval: (s) =>
      s[s.length - 1].etcd
        .filter((e) => e.hasLeader === 0)
        .map((e) => ({ labels: { instance: e.instance }, value: 0 }))
  },
  {
    alert: 'etcdHighNumberOfLeaderChanges',
    severity: 'warning',
    forMs: 5 * MIN,
    source: 'etcd-mixin',
    expr: 'increase((max without (instance) (etcd_server_leader_changes_seen_total{job=~".*etcd.*"}) or 0*absent(etcd_server_leader_changes_seen_total{job=~".*etcd.*"}))[15m:1m]) >= 4',
    eval: (s) => {
      const now = s[s.length - 1];
      const max = (x: Scrape | undefined) => Math.max(0, ...(x?.etcd ?? []).map((e) => e.leaderChanges));
      const first = rangeStart(s, 15 * MIN);
      const inc = max(now) - max(first);
      return inc >= 4 ? [{ labels: {}, value: inc }] : [];
    }
  },
  etcdQuantile(
    'etcdHighFsyncDurations',
    (e) => e.fsync,
    0.5,
    'warning',
    'etcd_disk_wal_fsync_duration_seconds'
  ),
  etcdQuantile(
    'etcdHighFsyncDurations',
    (e) => e.fsync,
    1,
    'critical',
    'etcd_disk_wal_fsync_duration_seconds'
  ),
  etcdQuantile(
    'etcdHighCommitDurations',
    (e) => e.commit,
    0.25,
    'warning',
    'etcd_disk_backend_commit_duration_seconds'
  )
];
