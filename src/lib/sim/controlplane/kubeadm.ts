/**
 * `kubeadm join --control-plane` on a new machine (fault `JoinControlPlaneNode`), as kubeadm
 * v1.35 runs it on a stacked-etcd cluster:
 *
 * - check-etcd (phases/etcd/local.go CheckLocalEtcdClusterStatus): every etcd member must answer,
 *   or the join stops with "etcd cluster is not healthy";
 * - control-plane-prepare: the certificates come from the kubeadm-certs Secret (--certificate-key),
 *   the static-pod manifests are written to /etc/kubernetes/manifests;
 * - control-plane-join etcd (CreateStackedEtcdStaticPodManifestFile): the new member is added as
 *   a learner (AddMemberAsLearner), its etcd.yaml names every member in --initial-cluster with
 *   --initial-cluster-state=existing, and once the kubelet has started it and it has caught up,
 *   kubeadm promotes it to a voting member (MemberPromote);
 * - its kube-apiserver joins the others; its kube-scheduler and kube-controller-manager join the
 *   leader election as standbys.
 *
 * A second join while the first one's learner is not yet promoted cannot add its member (etcd
 * keeps at most `--max-learners` 1 learner): kubeadm's AddMemberAsLearner retries with backoff, so
 * the join waits (component `kubeadm-join`, modelled as a retry every second) and goes on once the
 * first member is a voter.
 *
 * The lab's kubeadm clusters were initialised with --control-plane-endpoint, so they can take more
 * control-plane nodes (without it kubeadm refuses the join).
 */
import { FaultError, defineComponent, defineFault, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { MembershipError } from '../etcd/etcd';
import { staticPods } from '../etcd/staticpods';
import { CONTROL_PLANE_ADDRESSES, controlPlaneAddress } from '../network/apiserver-endpoints';
import { LE_ID, LE_KIND, type LeaderElection, type LeaderElectionArgs } from './component';
import { MAX_API_SERVERS } from './load';
import { apiServerLoad } from './sizing';

const HOST_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The next free control-plane-N. */
export function nextControlPlaneHost(hosts: readonly string[]): string {
  for (let i = 1; ; i++) if (!hosts.includes(`control-plane-${i}`)) return `control-plane-${i}`;
}

/** Pin every host's address, then give the new one 10.0.0.(N+1) for control-plane-N (or the first free one). */
function pinAddresses(cluster: Cluster, hosts: readonly string[], host: string): void {
  const pinned: Record<string, string> = {};
  for (const h of hosts) pinned[h] = controlPlaneAddress(cluster, h, hosts);
  const used = new Set(Object.values(pinned));
  const n = /^control-plane-(\d+)$/.exec(host);
  let ip = n ? `10.0.0.${Number(n[1]) + 1}` : '';
  for (let k = 2; !ip || used.has(ip); k++) ip = `10.0.0.${k}`;
  pinned[host] = ip;
  cluster.extensions[CONTROL_PLANE_ADDRESSES] = pinned;
}

function nextMemberName(cluster: Cluster): string {
  const names = new Set(cluster.etcd.members.map((m) => m.name));
  for (let i = 0; ; i++) if (!names.has(`etcd-${i}`)) return `etcd-${i}`;
}

export const KUBEADM_JOIN_ID = 'kubeadm-join';
export const KUBEADM_JOIN_KIND = 'kubeadm-join';
/** How often a waiting join tries to add its etcd member again (kubeadm's etcd backoff, modelled). */
export const JOIN_RETRY_MS = 1_000;

/** The joins still waiting to add their etcd member, oldest first. */
export class KubeadmJoin implements Component {
  readonly id = KUBEADM_JOIN_ID;
  readonly kind = KUBEADM_JOIN_KIND;
  state: { waiting: string[] } = { waiting: [] };

  constructor(
    private cluster: Cluster,
    readonly args: Record<string, never> = {}
  ) {}

  start(): void {}

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as KubeadmJoin['state'];
  }

  wait(host: string): void {
    this.state.waiting.push(host);
    if (this.state.waiting.length === 1) this.cluster.engine.schedule(JOIN_RETRY_MS, this.id, 'retry');
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'retry' || !this.state.waiting.length) return;
    const host = this.state.waiting[0];
    if (!this.cluster.etcd.members.some((m) => m.learner)) {
      try {
        completeJoin(this.cluster, host);
        this.state.waiting.shift();
      } catch (e) {
        // Unhealthy etcd or no API server: kubeadm keeps retrying until its timeout (not modelled).
        if (!(e instanceof FaultError)) throw e;
      }
    }
    if (this.state.waiting.length) this.cluster.engine.schedule(JOIN_RETRY_MS, this.id, 'retry');
  }
}

export const kubeadmJoinComponent = defineComponent(
  KUBEADM_JOIN_KIND,
  (cluster: Cluster, args: Record<string, never>) => new KubeadmJoin(cluster, args)
);

/** Hosts taken by control-plane nodes, joined or still joining. */
export function controlPlaneHostsTaken(cluster: Cluster): string[] {
  const waiting = cluster.component<KubeadmJoin>(KUBEADM_JOIN_ID)?.state.waiting ?? [];
  return [...(staticPods(cluster)?.hosts ?? []), ...waiting];
}

export function joinControlPlane(cluster: Cluster, target?: string): string {
  const sp = staticPods(cluster);
  if (!sp)
    throw new FaultError('this cluster has no kubeadm control-plane hosts to join (stacked etcd only)');
  const taken = controlPlaneHostsTaken(cluster);
  const host = target ?? nextControlPlaneHost(taken);
  if (!HOST_NAME.test(host))
    throw new FaultError(`"${host}" is not a valid node name (lower-case letters, digits and '-')`);
  if (taken.includes(host) || cluster.api.tryGet('Node', undefined, host))
    throw new FaultError(`a node with name "${host}" already exists in the cluster`);
  const waiting = taken.length - sp.hosts.length;
  if (cluster.apiServers.length + waiting >= MAX_API_SERVERS)
    throw new FaultError(`the control plane already has ${MAX_API_SERVERS} kube-apiserver instances`);
  if (waiting || cluster.etcd.members.some((m) => m.learner)) {
    // etcd takes one learner at a time: this join retries until the last one is promoted.
    const waiter =
      cluster.component<KubeadmJoin>(KUBEADM_JOIN_ID) ??
      (cluster.addComponent(KUBEADM_JOIN_KIND, {}) as KubeadmJoin);
    waiter.wait(host);
    return host;
  }
  completeJoin(cluster, host);
  return host;
}

/** The join's phases from check-etcd on, for a host nobody has taken. */
function completeJoin(cluster: Cluster, host: string): void {
  const sp = staticPods(cluster)!;
  const hosts = [...sp.hosts];
  if (!cluster.apiServers.some((a) => a.running))
    throw new FaultError(
      `couldn't validate the identity of the API Server: Get "https://10.0.0.10:6443/api/v1/namespaces/kube-public/configmaps/cluster-info?timeout=10s": dial tcp 10.0.0.10:6443: connect: connection refused`
    );
  const down = cluster.etcd.members.find((m) => !m.running);
  if (down || !cluster.etcd.hasQuorum()) {
    const ip = down
      ? controlPlaneAddress(cluster, down.host, hosts)
      : controlPlaneAddress(cluster, hosts[0], hosts);
    throw new FaultError(
      `error execution phase check-etcd: etcd cluster is not healthy: failed to dial endpoint https://${ip}:2379 with maintenance client: context deadline exceeded`
    );
  }
  try {
    cluster.etcd.add(nextMemberName(cluster), host, true);
  } catch (e) {
    if (e instanceof MembershipError)
      throw new FaultError(`error execution phase control-plane-join/etcd: ${e.message}`);
    throw e;
  }
  pinAddresses(cluster, hosts, host);
  // Several API servers are told apart by their host.
  cluster.apiServers = [
    ...cluster.apiServers.map((a) =>
      a.name === 'kube-apiserver' ? { ...a, name: `kube-apiserver-${hosts[0]}` } : a
    ),
    { name: `kube-apiserver-${host}`, running: false }
  ];
  sp.addHost(host);
  const le = cluster.component<LeaderElection>(LE_ID);
  if (le) le.addHost(host);
  else cluster.addComponent(LE_KIND, { hosts: [...sp.hosts] } satisfies LeaderElectionArgs);
  apiServerLoad(cluster)?.publish();
}

export const faultJoinControlPlaneNode = defineFault(
  'JoinControlPlaneNode',
  'kubeadm join --control-plane on a new machine: its etcd member joins as a learner and is promoted, its kube-apiserver, kube-scheduler and kube-controller-manager start (target = host name, default the next control-plane-N)',
  (cluster, p) => {
    joinControlPlane(cluster, p.target ? String(p.target) : undefined);
  }
);
