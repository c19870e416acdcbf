/**
 * The one place that knows every /metrics endpoint of the cluster: which process serves it, on
 * which host and port, whether it is up, and the families it serves. Each component keeps its own
 * counters in its own state and describes them in its own metrics file; the shell's `curl`, the
 * monitoring component (Prometheus) and the health view all read them through here.
 *
 * Jobs and ports as kube-prometheus scrapes a kubeadm cluster: apiserver :6443, kube-controller-
 * manager :10257, kube-scheduler :10259, etcd :2381 (kubeadm's --listen-metrics-urls), kubelet
 * :10250 on every node.
 */
import type { Cluster } from '../cluster';
import type { Family } from './exposition';
import { apiserverFamilies } from '../api/metrics';
import { controllerManagerFamilies } from '../controllers/metrics';
import { schedulerFamilies } from '../scheduler/metrics';
import { etcdFamilies } from '../etcd/metrics';
import { kubeletFamilies } from '../node/metrics';
import { apiServerLoad } from '../controlplane/sizing';
import { LE_ID, type LeaderElection } from '../controlplane/component';
import { KCM_ID, type KubeControllerManager } from '../controllers/kube-controller-manager';
import { SCHEDULER_ID, type KubeScheduler } from '../scheduler/component';
import { apiServerHost, controlPlaneAddress } from '../network/apiserver-endpoints';
import { keyspaceSizeBytes, staticPods } from '../etcd/staticpods';
import type { KubeObject } from '../api/types';

export type Job = 'apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'etcd' | 'kubelet';

export const JOBS: readonly Job[] = [
  'apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'etcd',
  'kubelet'
];

export const PORTS: Readonly<Record<Job, number>> = {
  apiserver: 6443,
  'kube-controller-manager': 10257,
  'kube-scheduler': 10259,
  etcd: 2381,
  kubelet: 10250
};

export interface Target {
  job: Job;
  /** `<address>:<port>`, as Prometheus labels a target. */
  instance: string;
  /** The machine the process runs on. */
  host: string;
  port: number;
  up: boolean;
  /** The families it serves now (only meaningful while up). */
  families(): Family[];
}

/** The control-plane machines: kubeadm's hosts, the leader-election candidates' hosts, or the one. */
export function controlPlaneHosts(cluster: Cluster): string[] {
  const sp = staticPods(cluster);
  if (sp) return sp.hosts;
  const le = cluster.component<LeaderElection>(LE_ID);
  if (le) return le.args.hosts;
  return ['control-plane-1'];
}

function nodeAddress(cluster: Cluster, host: string, cpHosts: string[]): string {
  if (cpHosts.includes(host)) return controlPlaneAddress(cluster, host, cpHosts);
  const node = cluster.api.tryGet<KubeObject>('Node', undefined, host);
  const addrs = (node?.status?.addresses ?? []) as { type: string; address: string }[];
  return addrs.find((a) => a.type === 'InternalIP')?.address ?? host;
}

/** A leader-elected component's instance on `host`: is it serving, and does it lead? */
function elected(
  cluster: Cluster,
  lease: 'kube-scheduler' | 'kube-controller-manager',
  host: string,
  running: boolean
) {
  const le = cluster.component<LeaderElection>(LE_ID);
  if (!le) return { up: running, leading: running };
  const c = le.state.candidates.find((x) => x.lease === lease && x.host === host);
  const stoppedByElection = !!le.state.stoppedByElection[lease];
  const up = !!c?.alive && (running || stoppedByElection);
  return { up, leading: up && !!c?.leading };
}

/** Every scrape target of the cluster, in job order and then host order. */
export function targets(cluster: Cluster): Target[] {
  const cpHosts = controlPlaneHosts(cluster);
  const out: Target[] = [];
  const addr = (host: string, job: Job) => `${nodeAddress(cluster, host, cpHosts)}:${PORTS[job]}`;

  const running = cluster.apiServers.filter((a) => a.running);
  cluster.apiServers.forEach((a) => {
    const host = apiServerHost(a.name, cpHosts);
    const idx = running.indexOf(a);
    out.push({
      job: 'apiserver',
      instance: addr(host, 'apiserver'),
      host,
      port: PORTS.apiserver,
      up: a.running,
      families: () =>
        apiserverFamilies(
          cluster,
          apiServerLoad(cluster)?.latency,
          Math.max(0, idx),
          Math.max(1, running.length)
        )
    });
  });

  const kcm = cluster.component<KubeControllerManager>(KCM_ID);
  const sched = cluster.component<KubeScheduler>(SCHEDULER_ID);
  const leHosts = cluster.component<LeaderElection>(LE_ID) ? cpHosts : cpHosts.slice(0, 1);
  if (kcm) {
    for (const host of leHosts) {
      const s = elected(cluster, 'kube-controller-manager', host, kcm.running);
      out.push({
        job: 'kube-controller-manager',
        instance: addr(host, 'kube-controller-manager'),
        host,
        port: PORTS['kube-controller-manager'],
        up: s.up,
        families: () => controllerManagerFamilies(kcm, s.leading)
      });
    }
  }
  if (sched) {
    for (const host of leHosts) {
      const s = elected(cluster, 'kube-scheduler', host, sched.running);
      out.push({
        job: 'kube-scheduler',
        instance: addr(host, 'kube-scheduler'),
        host,
        port: PORTS['kube-scheduler'],
        up: s.up,
        families: () => schedulerFamilies(sched, s.leading)
      });
    }
  }

  for (const m of cluster.etcd.members) {
    out.push({
      job: 'etcd',
      instance: addr(m.host, 'etcd'),
      host: m.host,
      port: PORTS.etcd,
      up: m.running,
      families: () => etcdFamilies(cluster, m, keyspaceSizeBytes(cluster.api.snapshot().objects))
    });
  }

  for (const host of cluster.nodeHosts()) {
    const k = host.kubelet;
    const node = host.name;
    out.push({
      job: 'kubelet',
      instance: addr(node, 'kubelet'),
      host: node,
      port: PORTS.kubelet,
      // Prometheus reaches the kubelet over the node network: a partitioned node is down too.
      up: k.running && !cluster.partitioned.has(node),
      families: () => kubeletFamilies(node, k)
    });
  }
  return out;
}

/** The process listening on `host`:`port` (by host name, or by address when `byAddress`), if any. */
export function targetAt(
  cluster: Cluster,
  host: string,
  port: number,
  byAddress = false
): Target | undefined {
  return targets(cluster).find(
    (t) => t.port === port && (t.host === host || (byAddress && t.instance === `${host}:${port}`))
  );
}
