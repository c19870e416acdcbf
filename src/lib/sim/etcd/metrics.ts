/**
 * etcd's /metrics on its metrics listener (kubeadm: `--listen-metrics-urls=http://127.0.0.1:2381`),
 * in the Prometheus text exposition format, for what the simulation models: leader presence,
 * leadership, leader changes, the backend size and the disk's WAL fsync and backend commit
 * latencies. Names, help strings and buckets as etcd v3.6 registers them
 * (server/etcdserver/metrics.go, server/storage/mvcc/metrics.go, server/storage/wal/metrics.go,
 * server/storage/backend/metrics.go).
 */
import type { Cluster } from '../cluster';
import type { StaticPods } from './staticpods';
import { render, type Family } from '../metrics/exposition';
import { DISK_BUCKETS, type EtcdMember } from './etcd';

export { goFloat } from '../metrics/exposition';

const gauge = (name: string, help: string, value: number): Family => ({
  name,
  help,
  type: 'gauge',
  samples: [{ labels: {}, value }]
});

/** The families etcd member `m` serves (its disk histograms counted up to now). */
export function etcdFamilies(cluster: Cluster, m: EtcdMember, dbSizeBytes: number): Family[] {
  cluster.etcd.foldDisk();
  const d = cluster.etcd.member(m.name).disk!;
  const leader = cluster.etcd.leader;
  const count = d.fsync[d.fsync.length - 1];
  return [
    {
      name: 'etcd_disk_backend_commit_duration_seconds',
      help: 'The latency distributions of commit called by backend.',
      type: 'histogram',
      samples: [{ labels: {}, buckets: DISK_BUCKETS, counts: d.commit, sum: d.commitSum, count }]
    },
    {
      name: 'etcd_disk_wal_fsync_duration_seconds',
      help: 'The latency distributions of fsync called by WAL.',
      type: 'histogram',
      samples: [{ labels: {}, buckets: DISK_BUCKETS, counts: d.fsync, sum: d.fsyncSum, count }]
    },
    gauge(
      'etcd_mvcc_db_total_size_in_bytes',
      'Total size of the underlying database physically allocated in bytes.',
      dbSizeBytes
    ),
    gauge(
      'etcd_server_has_leader',
      'Whether or not a leader exists. 1 is existence, 0 is not.',
      leader ? 1 : 0
    ),
    gauge(
      'etcd_server_is_leader',
      'Whether or not this member is a leader. 1 if is, 0 otherwise.',
      leader === m.name ? 1 : 0
    ),
    gauge(
      'etcd_server_is_learner',
      'Whether or not this member is a learner. 1 if is, 0 otherwise.',
      cluster.etcd.member(m.name).learner ? 1 : 0
    ),
    {
      name: 'etcd_server_leader_changes_seen_total',
      help: 'The number of leader changes seen.',
      type: 'counter',
      samples: [{ labels: {}, value: cluster.etcd.term }]
    }
  ];
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
  return render(etcdFamilies(cluster, m, dbSizeBytes));
}
