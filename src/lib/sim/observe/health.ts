/**
 * The control-plane health read model: what an operator's dashboard shows from Prometheus' scrapes
 * (monitoring/prometheus.ts) — the API's SLO (write p99 and error rate over 5 minutes), etcd's
 * leader, leader changes and fsync p99, the scheduler's pending pods, the controllers' work-queue
 * depths, each job's targets up, and the alerts with their states. Series cover the last 30
 * minutes of virtual time, one point per scrape.
 */
import type { Cluster } from '../cluster';
import { prometheus, SCRAPE_INTERVAL_MS, type AlertState } from '../monitoring/prometheus';
import type { Scrape } from '../monitoring/scrape';
import type { Severity } from '../monitoring/rules';
import { RULES } from '../monitoring/rules';
import { JOBS, type Job } from '../metrics/registry';
import { histogramQuantile } from '../metrics/exposition';
import { REQUEST_DURATION_BUCKETS } from '../api/metrics';
import { DISK_BUCKETS } from '../etcd/etcd';

export const HEALTH_WINDOW_MS = 30 * 60_000;
const RATE_MS = 5 * 60_000;

/** One point per scrape; null where the target did not answer. */
export interface HealthPoint {
  t: number;
  v: number | null;
}

export interface HealthAlert {
  alert: string;
  severity: Severity;
  state: AlertState;
  labels: Record<string, string>;
  activeAt: number;
  firedAt?: number;
  resolvedAt?: number;
  forMs: number;
  value: number;
}

/** A pending/firing/resolved mark for the timeline. */
export interface AlertMark {
  t: number;
  alert: string;
  severity: Severity;
  to: AlertState | 'inactive';
}

export interface HealthModel {
  now: number;
  scrapeIntervalMs: number;
  /** The SLO: mutating requests' p99 ≤ 1 s. */
  sloMs: number;
  writeP99Ms: HealthPoint[];
  /** Share of requests answered 5xx. */
  errorRatio: HealthPoint[];
  etcdHasLeader: HealthPoint[];
  etcdLeaderChanges: HealthPoint[];
  /** The slowest member's WAL fsync p99 (ms). */
  etcdFsyncP99Ms: HealthPoint[];
  pendingPods: HealthPoint[];
  workqueues: { name: string; points: HealthPoint[] }[];
  targets: { job: Job; up: number; total: number }[];
  alerts: HealthAlert[];
  /** Every rule evaluated, for "what is watched". */
  rules: { alert: string; severity: Severity; forMs: number; expr: string }[];
}

function before(scrapes: readonly Scrape[], i: number, ms: number): Scrape | undefined {
  const from = scrapes[i].t - ms;
  for (let j = 0; j < i; j++) if (scrapes[j].t >= from) return scrapes[j];
  return undefined;
}

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;

export function healthModel(cluster: Cluster): HealthModel | null {
  const p = prometheus(cluster);
  if (!p) return null;
  const all = p.scrapes;
  const now = cluster.now;
  const start = all.findIndex((s) => s.t >= now - HEALTH_WINDOW_MS);
  const idx = start < 0 ? [] : Array.from({ length: all.length - start }, (_, k) => start + k);
  const series = (f: (s: Scrape, i: number) => number | null) =>
    idx.map((i) => ({ t: all[i].t, v: f(all[i], i) }));

  const writeP99Ms = series((s, i) => {
    const b = before(all, i, RATE_MS);
    if (!s.api || !b?.api) return null;
    const counts = s.api.writeBuckets.map((c, k) => c - b.api!.writeBuckets[k]);
    const total = s.api.writeTotal - b.api.writeTotal;
    const q = histogramQuantile(0.99, REQUEST_DURATION_BUCKETS, counts, total);
    return Number.isNaN(q) ? null : round(q * 1000, 1);
  });
  const errorRatio = series((s, i) => {
    const b = before(all, i, RATE_MS);
    if (!s.api || !b?.api) return null;
    const n = s.api.requests - b.api.requests;
    return n > 0 ? round((s.api.errors - b.api.errors) / n, 4) : 0;
  });
  const etcdHasLeader = series((s) => (s.etcd.length ? Math.min(...s.etcd.map((e) => e.hasLeader)) : null));
  const etcdLeaderChanges = series((s) =>
    s.etcd.length ? Math.max(...s.etcd.map((e) => e.leaderChanges)) : null
  );
  const etcdFsyncP99Ms = series((s, i) => {
    const b = before(all, i, RATE_MS);
    if (!b || !s.etcd.length) return null;
    let worst: number | null = null;
    for (const e of s.etcd) {
      const o = b.etcd.find((x) => x.instance === e.instance);
      if (!o) continue;
      const counts = e.fsync.map((c, k) => c - o.fsync[k]);
      const q = histogramQuantile(0.99, DISK_BUCKETS, counts, counts[counts.length - 1]);
      if (!Number.isNaN(q)) worst = Math.max(worst ?? 0, round(q * 1000, 1));
    }
    return worst;
  });
  const pendingPods = series((s) =>
    s.pendingPods ? Object.values(s.pendingPods).reduce((a, b) => a + b, 0) : null
  );
  const names = new Set<string>();
  for (const i of idx) for (const n of Object.keys(all[i].workqueueDepth ?? {})) names.add(n);
  const workqueues = [...names].sort().map((name) => ({
    name,
    points: series((s) => (s.workqueueDepth ? (s.workqueueDepth[name] ?? 0) : null))
  }));
  const last = all[all.length - 1];
  const targets = JOBS.map((job) => ({ job, up: last?.up[job][0] ?? 0, total: last?.up[job][1] ?? 0 }));
  const order: Record<AlertState, number> = { firing: 0, pending: 1, resolved: 2 };
  const alerts = p
    .alerts()
    .map((a) => ({ ...a, labels: { ...a.labels } }))
    .sort(
      (a, b) =>
        order[a.state] - order[b.state] ||
        a.activeAt - b.activeAt ||
        a.alert.localeCompare(b.alert) ||
        a.severity.localeCompare(b.severity)
    );
  return {
    now,
    scrapeIntervalMs: SCRAPE_INTERVAL_MS,
    sloMs: 1000,
    writeP99Ms,
    errorRatio,
    etcdHasLeader,
    etcdLeaderChanges,
    etcdFsyncP99Ms,
    pendingPods,
    workqueues,
    targets,
    alerts,
    rules: RULES.map((r) => ({ alert: r.alert, severity: r.severity, forMs: r.forMs, expr: r.expr }))
  };
}

/** The alerts' state changes for the timeline (always sent: cheap, and the timeline is always shown). */
export function alertMarks(cluster: Cluster): AlertMark[] {
  const p = prometheus(cluster);
  if (!p) return [];
  return p.transitions
    .filter((x) => x.to === 'pending' || x.to === 'firing' || x.to === 'resolved')
    .map((x) => ({ t: x.t, alert: x.alert, severity: x.severity, to: x.to }));
}

/** Alertmanager's default `group_wait`: how long a new group waits before its first notification. */
export const GROUP_WAIT_MS = 30_000;

/** The firing alerts of one name, as one Alertmanager notification would carry them. */
export interface NotificationGroup {
  alert: string;
  /** The highest severity in the group. */
  severity: Severity;
  /** When the first notification goes out: the first alert's firing time plus `group_wait`. */
  notifyAt: number;
  alerts: { severity: Severity; labels: Record<string, string>; firedAt: number; forMs: number }[];
}

/**
 * Firing alerts grouped by alert name (a `group_by: ['alertname']` route), oldest group first.
 * Routing, silences, inhibition and repeat intervals are not modelled.
 */
export function notificationGroups(alerts: readonly HealthAlert[]): NotificationGroup[] {
  const groups = new Map<string, NotificationGroup>();
  for (const a of alerts) {
    if (a.state !== 'firing') continue;
    const firedAt = a.firedAt ?? a.activeAt;
    let g = groups.get(a.alert);
    if (!g) {
      g = { alert: a.alert, severity: a.severity, notifyAt: firedAt + GROUP_WAIT_MS, alerts: [] };
      groups.set(a.alert, g);
    }
    if (a.severity === 'critical') g.severity = 'critical';
    g.notifyAt = Math.min(g.notifyAt, firedAt + GROUP_WAIT_MS);
    g.alerts.push({ severity: a.severity, labels: a.labels, firedAt, forMs: a.forMs });
  }
  return [...groups.values()].sort((x, y) => x.notifyAt - y.notifyAt || (x.alert < y.alert ? -1 : 1));
}
