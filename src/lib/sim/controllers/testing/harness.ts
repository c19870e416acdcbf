/**
 * A stand-in for kubelets and the scheduler, for controller tests: it renews each live node's
 * Lease every 10 s, posts Ready=True when a live node is not Ready, binds pending pods, marks bound
 * pods Running and Ready, and finishes terminating pods on live nodes. Dead nodes do nothing, like
 * a stopped kubelet. It is a registered component, so snapshots carry it.
 */
import { Cluster, addTestComponent, type Component } from '../../cluster';
import { defaultConfig } from '../../config';
import { Etcd } from '../../etcd/etcd';
import type { SimEvent } from '../../engine/engine';
import type { KubeObject, NodeCondition, Taint } from '../../api/types';
import { clone } from '../../api/types';
import { podMatchesNode } from '../../api/corev1/nodeaffinity';
import { podUntoleratedTaints } from '../../api/corev1/taints';
import { KCM_KIND } from '../kube-controller-manager';
import '../../etcd/faults';

export const HARNESS_ID = 'test-harness';
const LEASE_PERIOD = 10_000;
const POD_PERIOD = 1_000;

interface HarnessState {
  dead: Record<string, true>;
  schedule: boolean;
  /** Node name → virtual time of its last successful Lease renewal. */
  lastRenew: Record<string, number>;
}

function microTime(api: Cluster['api']): string {
  return api.timestamp().replace('Z', '.000000Z');
}

export class Harness implements Component {
  readonly id = HARNESS_ID;
  readonly kind = 'test-harness';
  state: HarnessState;

  constructor(
    private cluster: Cluster,
    readonly args: { schedule: boolean }
  ) {
    this.state = { dead: {}, schedule: args.schedule, lastRenew: {} };
  }

  start(): void {
    this.cluster.engine.schedule(LEASE_PERIOD, this.id, 'lease');
    this.cluster.engine.schedule(POD_PERIOD, this.id, 'pods');
  }

  kill(node: string): void {
    this.state.dead[node] = true;
  }

  revive(node: string): void {
    delete this.state.dead[node];
  }

  handle(ev: SimEvent): void {
    const api = this.cluster.api;
    if (ev.type === 'lease') {
      this.cluster.engine.schedule(LEASE_PERIOD, this.id, 'lease');
      for (const node of api.list<KubeObject>('Node')) {
        const name = node.metadata.name;
        if (this.state.dead[name]) continue;
        const ctx = { component: 'kubelet', node: name };
        try {
          api.patch('Lease', 'kube-node-lease', name, { spec: { renewTime: microTime(api) } }, ctx);
          this.state.lastRenew[name] = this.cluster.now;
          const ready = (node.status?.conditions as NodeCondition[] | undefined)?.find(
            (c) => c.type === 'Ready'
          );
          if (ready?.status !== 'True') postReady(this.cluster, name);
        } catch {
          // A kubelet retries on its next period.
        }
      }
      return;
    }
    this.cluster.engine.schedule(POD_PERIOD, this.id, 'pods');
    try {
      this.syncPods();
    } catch {
      // Without quorum nothing can be written; try again next second.
    }
  }

  private syncPods(): void {
    const api = this.cluster.api;
    const nodes = api.list<KubeObject>('Node').sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const ready = nodes.filter(
      (n) =>
        !this.state.dead[n.metadata.name] &&
        (n.status?.conditions as NodeCondition[] | undefined)?.find((c) => c.type === 'Ready')?.status ===
          'True'
    );
    for (const pod of api.list<KubeObject>('Pod')) {
      const node = pod.spec?.nodeName as string | undefined;
      if (!node) {
        if (!this.state.schedule || pod.metadata.deletionTimestamp) continue;
        const fits = ready.filter(
          (n) =>
            podMatchesNode(pod, n) &&
            !podUntoleratedTaints(pod, n, ['NoSchedule', 'NoExecute']).length &&
            !n.spec?.unschedulable
        );
        if (!fits.length) continue;
        const load = (n: KubeObject) => api.podsOnNode(n.metadata.name).length;
        const target = fits.reduce((best, n) => (load(n) < load(best) ? n : best));
        const upd = clone(pod);
        upd.spec.nodeName = target.metadata.name;
        api.update(upd, { component: 'kube-scheduler' });
        continue;
      }
      if (this.state.dead[node]) continue;
      const ctx = { component: 'kubelet', node };
      if (pod.metadata.deletionTimestamp) {
        api.delete('Pod', pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0 }, ctx);
        continue;
      }
      if (
        pod.status?.phase !== 'Running' &&
        pod.status?.phase !== 'Failed' &&
        pod.status?.phase !== 'Succeeded'
      ) {
        const upd = clone(pod);
        const ts = api.timestamp();
        upd.status = {
          ...(upd.status ?? {}),
          phase: 'Running',
          conditions: [
            { type: 'Ready', status: 'True', lastTransitionTime: ts },
            { type: 'ContainersReady', status: 'True', lastTransitionTime: ts }
          ]
        };
        api.update(upd, ctx, { subresource: 'status' });
      }
    }
  }

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as HarnessState;
  }
}

addTestComponent('test-harness', (cluster, args) => new Harness(cluster, args));

export function postReady(cluster: Cluster, name: string): void {
  const api = cluster.api;
  const ts = api.timestamp();
  const node = api.get<KubeObject>('Node', undefined, name);
  const upd = clone(node);
  upd.status = {
    ...(upd.status ?? {}),
    conditions: [
      {
        type: 'MemoryPressure',
        status: 'False',
        reason: 'KubeletHasSufficientMemory',
        message: 'kubelet has sufficient memory available',
        lastHeartbeatTime: ts,
        lastTransitionTime: ts
      },
      {
        type: 'DiskPressure',
        status: 'False',
        reason: 'KubeletHasNoDiskPressure',
        message: 'kubelet has no disk pressure',
        lastHeartbeatTime: ts,
        lastTransitionTime: ts
      },
      {
        type: 'PIDPressure',
        status: 'False',
        reason: 'KubeletHasSufficientPID',
        message: 'kubelet has sufficient PID available',
        lastHeartbeatTime: ts,
        lastTransitionTime: ts
      },
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: ts,
        lastTransitionTime: ts
      }
    ]
  };
  api.update(upd, { component: 'kubelet', node: name }, { subresource: 'status' });
}

export interface TestNode {
  name: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  /** Register without ever posting status or a Lease. */
  silent?: boolean;
}

export interface TestClusterOptions {
  nodes: (string | TestNode)[];
  etcdMembers?: number;
  kubernetesVersion?: string;
  schedule?: boolean;
  /** Add kube-controller-manager (default true). */
  kcm?: boolean;
}

/** A cluster whose nodes registered at t=0 with Ready=True and a fresh Lease. */
export function testCluster(opts: TestClusterOptions): { cluster: Cluster; harness: Harness } {
  const config = defaultConfig(7, opts.kubernetesVersion);
  const cluster = new Cluster(config, Etcd.withMembers(opts.etcdMembers ?? 1));
  const harness = cluster.addComponent('test-harness', { schedule: opts.schedule ?? true }) as Harness;
  for (const n of opts.nodes) {
    const spec: TestNode = typeof n === 'string' ? { name: n } : n;
    cluster.api.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: spec.name, labels: { 'kubernetes.io/hostname': spec.name, ...(spec.labels ?? {}) } },
      spec: spec.taints ? { taints: spec.taints } : {},
      status: {}
    });
    if (spec.silent) {
      harness.kill(spec.name);
      continue;
    }
    postReady(cluster, spec.name);
    cluster.api.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: spec.name, namespace: 'kube-node-lease' },
      spec: { holderIdentity: spec.name, leaseDurationSeconds: 40, renewTime: microTime(cluster.api) }
    });
    harness.state.lastRenew[spec.name] = 0;
  }
  if (opts.kcm !== false) cluster.addComponent(KCM_KIND, {});
  return { cluster, harness };
}

/** The tolerations the DefaultTolerationSeconds admission plugin adds. */
export const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }
];

export function testPod(name: string, nodeName?: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx:1.27' }], ...extra },
    status: { phase: 'Pending' }
  };
}

/** First virtual time at which `pred` holds, checking after every processed event up to `until`. */
export function timeWhen(cluster: Cluster, until: number, pred: () => boolean): number | undefined {
  if (pred()) return cluster.now;
  for (;;) {
    const next = cluster.engine.peekTime();
    if (next === undefined || next > until) {
      cluster.runUntil(until);
      return pred() ? cluster.now : undefined;
    }
    cluster.step();
    if (pred()) return cluster.now;
  }
}

export function nodeTaints(cluster: Cluster, name: string): Taint[] {
  return (cluster.api.get<KubeObject>('Node', undefined, name).spec?.taints ?? []) as Taint[];
}

export function readyOf(cluster: Cluster, name: string): NodeCondition | undefined {
  return (
    cluster.api.get<KubeObject>('Node', undefined, name).status?.conditions as NodeCondition[] | undefined
  )?.find((c) => c.type === 'Ready');
}
