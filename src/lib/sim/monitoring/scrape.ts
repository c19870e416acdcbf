/**
 * What Prometheus keeps from one scrape of the cluster: each target's `up` and, from the targets
 * that answered, the few series the alerting rules and the health view read. Reading structured
 * families rather than the text pages keeps a 30 s scrape of a large cluster cheap.
 *
 * kube-state-metrics (node conditions and taints) is modelled as reading the API at scrape time.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { JOBS, targets, type Job } from '../metrics/registry';
import { MUTATING_VERBS, REQUEST_DURATION_BUCKETS, requestLabels } from '../api/metrics';
import { apiServerLoad } from '../controlplane/sizing';
import { KCM_ID, type KubeControllerManager } from '../controllers/kube-controller-manager';
import { SCHEDULER_ID, type KubeScheduler } from '../scheduler/component';
import { WORKQUEUE_NAMES } from '../controllers/metrics';

export interface EtcdScrape {
  instance: string;
  hasLeader: number;
  leaderChanges: number;
  fsync: number[];
  fsyncCount: number;
  commit: number[];
}

/** Cumulative API request counters the SLO queries read (kubernetes-mixin's apiserver_request:burnrate rules). */
export interface ApiScrape {
  writeTotal: number;
  /** Writes slower than 1 s, plus writes answered 5xx. */
  writeBad: number;
  readTotal: number;
  /** Reads slower than their scope's threshold (resource 1 s, namespace 5 s, cluster 30 s), plus 5xx. */
  readBad: number;
  /** apiserver_request_duration_seconds buckets of the writes (for the p99). */
  writeBuckets: number[];
  errors: number;
  requests: number;
}

export interface Scrape {
  t: number;
  /** Per job: [targets up, targets]. */
  up: Record<Job, [number, number]>;
  /** Down targets' instances, per job. */
  down: Record<Job, string[]>;
  etcd: EtcdScrape[];
  api: ApiScrape | null;
  pendingPods: Record<string, number> | null;
  workqueueDepth: Record<string, number> | null;
  /** kube-state-metrics: nodes whose Ready condition is not True, and nodes with the unreachable NoSchedule taint. */
  notReady: string[];
  unreachable: string[];
}

const le = (v: number) => REQUEST_DURATION_BUCKETS.indexOf(v as (typeof REQUEST_DURATION_BUCKETS)[number]);
const THRESHOLD: Record<string, number> = { resource: le(1), namespace: le(5), cluster: le(30) };

function apiScrape(cluster: Cluster): ApiScrape {
  const latency = apiServerLoad(cluster)?.latency;
  const out: ApiScrape = {
    writeTotal: 0,
    writeBad: 0,
    readTotal: 0,
    readBad: 0,
    writeBuckets: REQUEST_DURATION_BUCKETS.map(() => 0),
    errors: 0,
    requests: 0
  };
  for (const [key, h] of Object.entries(latency?.hist ?? {})) {
    const l = requestLabels(key);
    if (MUTATING_VERBS.has(l.verb)) {
      out.writeTotal += h.count;
      out.writeBad += h.count - h.c[le(1)];
      h.c.forEach((c, i) => (out.writeBuckets[i] += c));
    } else {
      out.readTotal += h.count;
      out.readBad += h.count - h.c[THRESHOLD[l.scope] ?? le(1)];
    }
  }
  for (const [key, n] of Object.entries(cluster.api.requestErrorCounts())) {
    out.errors += n;
    const verb = requestLabels(key.slice(0, key.lastIndexOf(' '))).verb;
    if (MUTATING_VERBS.has(verb)) out.writeBad += n;
    else out.readBad += n;
  }
  for (const [key, n] of Object.entries(cluster.api.requestCounts()))
    if (!key.startsWith('watch ')) out.requests += n;
  return out;
}

export function scrape(cluster: Cluster): Scrape {
  const up = Object.fromEntries(JOBS.map((j) => [j, [0, 0]])) as Record<Job, [number, number]>;
  const down = Object.fromEntries(JOBS.map((j) => [j, [] as string[]])) as Record<Job, string[]>;
  const etcd: EtcdScrape[] = [];
  let apiUp = false;
  let kcmLeading = false;
  let schedLeading = false;
  const ts = targets(cluster);
  for (const t of ts) {
    up[t.job][1]++;
    if (!t.up) {
      down[t.job].push(t.instance);
      continue;
    }
    up[t.job][0]++;
    if (t.job === 'apiserver') apiUp = true;
  }
  cluster.etcd.foldDisk();
  for (const t of ts) {
    if (t.job !== 'etcd' || !t.up) continue;
    const m = cluster.etcd.members.find((x) => x.host === t.host)!;
    const d = m.disk!;
    etcd.push({
      instance: t.instance,
      hasLeader: cluster.etcd.leader ? 1 : 0,
      leaderChanges: cluster.etcd.term,
      fsync: [...d.fsync],
      fsyncCount: d.fsync[d.fsync.length - 1],
      commit: [...d.commit]
    });
  }
  const kcm = cluster.component<KubeControllerManager>(KCM_ID);
  const sched = cluster.component<KubeScheduler>(SCHEDULER_ID);
  for (const t of ts) {
    if (!t.up) continue;
    // A leading instance serves the queues (standbys have no controllers running).
    if (t.job === 'kube-controller-manager' && kcm?.running) kcmLeading = true;
    if (t.job === 'kube-scheduler' && sched?.running) schedLeading = true;
  }
  let pendingPods: Record<string, number> | null = null;
  if (sched && schedLeading) {
    pendingPods = { active: 0, backoff: 0, gated: 0, unschedulable: 0 };
    for (const p of sched.queued()) pendingPods[p.where] = (pendingPods[p.where] ?? 0) + 1;
  }
  let workqueueDepth: Record<string, number> | null = null;
  if (kcm && kcmLeading) {
    workqueueDepth = {};
    for (const q of kcm.workQueues())
      if (WORKQUEUE_NAMES[q.controller]) workqueueDepth[WORKQUEUE_NAMES[q.controller]] = q.depth;
  }
  const notReady: string[] = [];
  const unreachable: string[] = [];
  for (const n of cluster.api.list<KubeObject>('Node')) {
    const conds = (n.status?.conditions ?? []) as { type: string; status: string }[];
    if (conds.find((c) => c.type === 'Ready')?.status !== 'True') notReady.push(n.metadata.name);
    const taints = (n.spec?.taints ?? []) as { key: string; effect: string }[];
    const deleting = taints.some((x) => x.key === 'ToBeDeletedByClusterAutoscaler');
    if (
      !deleting &&
      taints.some((x) => x.key === 'node.kubernetes.io/unreachable' && x.effect === 'NoSchedule')
    )
      unreachable.push(n.metadata.name);
  }
  return {
    t: cluster.now,
    up,
    down,
    etcd,
    api: apiUp ? apiScrape(cluster) : null,
    pendingPods,
    workqueueDepth,
    notReady,
    unreachable
  };
}
