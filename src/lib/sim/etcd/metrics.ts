/**
 * etcd's /metrics on its metrics listener (kubeadm: `--listen-metrics-urls=http://127.0.0.1:2381`),
 * in the Prometheus text exposition format, for what the simulation models: leader presence,
 * leadership, leader changes and the backend size. Names and help strings as etcd v3.6 registers
 * them (server/etcdserver/metrics.go, server/storage/mvcc/metrics.go).
 */
import type { Cluster } from '../cluster';
import type { StaticPods } from './staticpods';

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as the Prometheus client writes sample values. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return '0';
  const [m, x] = v.toExponential().split('e');
  const n = Number(x);
  // Shortest formatting switches to %e below 1e-4 and from 1e6 (eprec = 6).
  if (n < -4 || n >= 6) return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  return String(v);
}

function metric(name: string, help: string, type: string, value: number): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${goFloat(value)}\n`;
}

/** The metrics page of the etcd member on `host`, or null when it is not running. */
export function etcdMetrics(
  cluster: Cluster,
  sp: StaticPods,
  host: string,
  dbSizeBytes: number
): string | null {
  const m = sp.member(host);
  if (!m || !m.running) return null;
  const leader = cluster.etcd.leader;
  return (
    metric(
      'etcd_mvcc_db_total_size_in_bytes',
      'Total size of the underlying database physically allocated in bytes.',
      'gauge',
      dbSizeBytes
    ) +
    metric(
      'etcd_server_has_leader',
      'Whether or not a leader exists. 1 is existence, 0 is not.',
      'gauge',
      leader ? 1 : 0
    ) +
    metric(
      'etcd_server_is_leader',
      'Whether or not this member is a leader. 1 if is, 0 otherwise.',
      'gauge',
      leader === m.name ? 1 : 0
    ) +
    metric(
      'etcd_server_leader_changes_seen_total',
      'The number of leader changes seen.',
      'counter',
      cluster.etcd.term
    )
  );
}
