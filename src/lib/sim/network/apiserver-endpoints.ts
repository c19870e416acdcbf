/**
 * The `default/kubernetes` Service and its endpoints, as kube-apiserver keeps them: the
 * "kubernetes service" controller creates the Service (ClusterIP = the first address of the
 * service CIDR, port `https` 443 → 6443, no selector), and the lease endpoint reconciler
 * (`--endpoint-reconciler-type=lease`, pkg/controlplane/reconcilers/lease.go) lists one address
 * per API server whose lease is fresh: every API server refreshes its lease (TTL 15s) and
 * reconciles every 10s, so one that stops drops out once its lease expires. It writes the legacy
 * Endpoints `kubernetes` (labelled `endpointslice.kubernetes.io/skip-mirror: "true"`, so the
 * mirroring controller leaves it alone) and the EndpointSlice `kubernetes` made from it
 * (endpointsadapter.go: only the `kubernetes.io/service-name` label, addresses sorted, ready).
 * The EndpointSlice controller never touches either: the Service has no selector.
 *
 * Component kind and id `apiserver-endpoints`; the scenario bootstrap adds it.
 */
import { ApiError, ConnectionError } from '../api/errors';
import type { KubeObject, RequestContext } from '../api/types';
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';

export const KUBERNETES_SERVICE = 'kubernetes';
/** How long an API server's lease lives (DefaultEndpointReconcilerTTL, 15s). */
export const APISERVER_LEASE_TTL_MS = 15_000;
/** How often each API server refreshes its lease and reconciles (DefaultEndpointReconcilerInterval, 10s). */
export const APISERVER_ENDPOINT_INTERVAL_MS = 10_000;
export const APISERVER_SECURE_PORT = 6443;
export const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';

const CTX: RequestContext = { component: 'kube-apiserver' };

/**
 * The advertise address of API server `index` (0-based) out of `count`. One API server advertises
 * 10.0.0.10, the address the cluster's clients use. With several, 10.0.0.10 is the load balancer
 * in front of them (kubeadm's controlPlaneEndpoint) and control-plane-N advertises 10.0.0.(N+1):
 * 10.0.0.2 … 10.0.0.8, below the workers' 10.0.0.11 and up.
 */
export function apiServerAddress(index: number, count: number): string {
  return count <= 1 ? '10.0.0.10' : `10.0.0.${index + 2}`;
}

/** Where the addresses of control-plane hosts joined at run time are kept (host → address). */
export const CONTROL_PLANE_ADDRESSES = 'controlPlaneAddresses';

/**
 * The advertise address of control-plane host `host` among `hosts`. A machine keeps its address
 * for life: once hosts join at run time (`kubeadm join --control-plane`), every host's address is
 * pinned in the cluster's extensions, so control-plane-1 keeps 10.0.0.10 and control-plane-N
 * gets 10.0.0.(N+1).
 */
export function controlPlaneAddress(
  cluster: { extensions: Record<string, unknown> },
  host: string,
  hosts: readonly string[]
): string {
  const pinned = cluster.extensions[CONTROL_PLANE_ADDRESSES] as Record<string, string> | undefined;
  if (pinned?.[host]) return pinned[host];
  return apiServerAddress(Math.max(0, hosts.indexOf(host)), hosts.length);
}

/** The host an API server instance runs on: `kube-apiserver-<host>`, or the first host for the only one. */
export function apiServerHost(name: string, hosts: readonly string[]): string {
  return name === 'kube-apiserver' ? (hosts[0] ?? 'control-plane-1') : name.replace(/^kube-apiserver-/, '');
}

interface State {
  /** Last lease refresh (virtual ms) per API server name. */
  leases: Record<string, number>;
}

/** Compare dotted quads as upstream sorts the addresses (lexicographically, by string). */
function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class ApiServerEndpoints implements Component {
  readonly kind = 'apiserver-endpoints';
  readonly id = 'apiserver-endpoints';
  state: State = { leases: {} };

  constructor(
    private cluster: Cluster,
    readonly args: Record<string, never> = {}
  ) {}

  start(): void {
    this.tick();
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'reconcile') this.tick();
  }

  private tick(): void {
    try {
      this.refreshLeases();
      this.ensureService();
      this.reconcile();
    } catch (e) {
      // No API server answers or etcd has no quorum: the next round tries again.
      if (!(e instanceof ApiError || e instanceof ConnectionError)) throw e;
    }
    this.cluster.engine.schedule(APISERVER_ENDPOINT_INTERVAL_MS, this.id, 'reconcile');
  }

  private refreshLeases(): void {
    const now = this.cluster.now;
    // A lease is written to etcd: without quorum nobody refreshes theirs.
    if (!this.cluster.etcd.hasQuorum()) return;
    for (const a of this.cluster.apiServers) if (a.running) this.state.leases[a.name] = now;
  }

  /** The addresses of the API servers whose lease has not expired, sorted. */
  addresses(): string[] {
    const servers = this.cluster.apiServers;
    const now = this.cluster.now;
    const hosts = servers.map((a) => apiServerHost(a.name, ['control-plane-1']));
    return servers
      .map((a, i) => ({ a, ip: controlPlaneAddress(this.cluster, hosts[i], hosts) }))
      .filter(({ a }) => {
        const t = this.state.leases[a.name];
        return t !== undefined && now - t <= APISERVER_LEASE_TTL_MS;
      })
      .map(({ ip }) => ip)
      .sort(byString);
  }

  private ensureService(): void {
    const api = this.cluster.api;
    if (api.tryGet('Service', 'default', KUBERNETES_SERVICE)) return;
    api.create(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: KUBERNETES_SERVICE,
          namespace: 'default',
          labels: { component: 'apiserver', provider: 'kubernetes' }
        },
        spec: {
          type: 'ClusterIP',
          sessionAffinity: 'None',
          ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: APISERVER_SECURE_PORT }]
        }
      },
      CTX
    );
  }

  private reconcile(): void {
    const api = this.cluster.api;
    const ips = this.addresses();
    // "no API server IP addresses were listed in storage, refusing to erase all endpoints".
    if (!ips.length) return;
    const port = { name: 'https', port: APISERVER_SECURE_PORT, protocol: 'TCP' };
    const subsets = [{ addresses: ips.map((ip) => ({ ip })), ports: [port] }];
    const ep = api.tryGet<KubeObject>('Endpoints', 'default', KUBERNETES_SERVICE);
    if (!ep) {
      api.create(
        {
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: { name: KUBERNETES_SERVICE, namespace: 'default', labels: { [SKIP_MIRROR]: 'true' } },
          subsets
        },
        CTX
      );
    } else if (
      JSON.stringify(ep.subsets) !== JSON.stringify(subsets) ||
      ep.metadata.labels?.[SKIP_MIRROR] !== 'true'
    ) {
      api.update(
        {
          ...ep,
          metadata: { ...ep.metadata, labels: { ...(ep.metadata.labels ?? {}), [SKIP_MIRROR]: 'true' } },
          subsets
        },
        CTX
      );
    }
    const endpoints = ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } }));
    const slice = api.tryGet<KubeObject>('EndpointSlice', 'default', KUBERNETES_SERVICE);
    const labels = { 'kubernetes.io/service-name': KUBERNETES_SERVICE };
    if (!slice) {
      api.create(
        {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: { name: KUBERNETES_SERVICE, namespace: 'default', labels },
          addressType: 'IPv4',
          endpoints,
          ports: [port]
        },
        CTX
      );
    } else if (
      JSON.stringify(slice.endpoints) !== JSON.stringify(endpoints) ||
      JSON.stringify(slice.ports) !== JSON.stringify([port]) ||
      JSON.stringify(slice.metadata.labels) !== JSON.stringify(labels)
    ) {
      api.update({ ...slice, metadata: { ...slice.metadata, labels }, endpoints, ports: [port] }, CTX);
    }
  }

  getState(): State {
    return this.state;
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as State;
  }
}

export const apiServerEndpointsComponent = defineComponent(
  'apiserver-endpoints',
  (cluster, args) => new ApiServerEndpoints(cluster, args)
);
