// upstream: cluster-autoscaler/clusterstate/clusterstate.go (updateScaleRequests: a request is
// done when its nodes registered, or times out after MaxNodeProvisionTime and backs the group off;
// RegisterFailedScaleUp), cluster-autoscaler/utils/backoff/exponential_backoff.go (5m initial,
// doubled while it had expired, 30m max), cluster-autoscaler/config/autoscaling_options.go
// (ScaleDownUnneededTime 10m)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../api/types';
import { createCluster } from '../../scenario';
import './index';
import type { Cluster } from '../../cluster';
import { CA_ID, type ClusterAutoscaler } from './autoscaler';

const machine = (cluster: Cluster, g: string) =>
  cluster.component<ClusterAutoscaler>(CA_ID)!.groupMachines[g];
const path = (cluster: Cluster, g: string) =>
  machine(cluster, g).path.map((s) => [s.at, s.value, s.event ?? '', s.detail ?? '']);

const WEB = (replicas: number, cpu: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: nginx, image: 'nginx:1.27', resources: { requests: { cpu: ${cpu}, memory: 256Mi } } }
`;

/** CoreDNS without a budget keeps its node (kube-system pods are not moved without one). */
const COREDNS_PDB = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: coredns, namespace: kube-system }
spec:
  maxUnavailable: 1
  selector: { matchLabels: { k8s-app: kube-dns } }
`;

function pool(failBoot: boolean, replicas: number, cpu = '1200m'): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ca-machine }
spec:
  seed: 5
  nodePools:
    - name: spot
      count: 1
      min: 1
      max: 4
      capacity: { cpu: '2', memory: 8Gi }
      provider: { flavour: eks, bootTime: 45s, failBoot: ${failBoot} }
---
${COREDNS_PDB}---
${WEB(replicas, cpu)}`;
}

describe('Cluster Autoscaler node group machine', () => {
  it('scale-up in flight until the new nodes register, then idle', () => {
    const { cluster } = createCluster(pool(false, 3));
    cluster.runUntil(10_000);
    expect(machine(cluster, 'spot')).toMatchObject({
      value: 'scaleUpInFlight',
      event: 'SCALE_UP',
      at: 10_000
    });
    expect(machine(cluster, 'spot').detail).toBe('1->3');
    cluster.runUntil(5 * 60_000);
    expect(machine(cluster, 'spot').value).toBe('idle');
    expect(
      path(cluster, 'spot')
        .slice(0, 3)
        .map((s) => s.slice(1, 3))
    ).toEqual([
      ['idle', ''],
      ['scaleUpInFlight', 'SCALE_UP'],
      ['idle', 'NODES_REGISTERED']
    ]);
  });

  it('a timed-out scale-up backs off 5 minutes; the loop that ends it scales up again', () => {
    const { cluster } = createCluster(pool(true, 3));
    const first = 15 * 60_000 + 20_000;
    cluster.runUntil(first);
    expect(machine(cluster, 'spot')).toMatchObject({
      value: 'backoff',
      event: 'SCALE_UP_TIMED_OUT',
      at: first,
      detail: 'backoff 5m0s'
    });
    cluster.runUntil(first + 5 * 60_000);
    expect(path(cluster, 'spot').slice(-3)).toEqual([
      [first, 'backoff', 'SCALE_UP_TIMED_OUT', 'backoff 5m0s'],
      [first + 5 * 60_000, 'idle', 'BACKOFF_EXPIRED', ''],
      [first + 5 * 60_000, 'scaleUpInFlight', 'SCALE_UP', '1->3']
    ]);
  });

  it('an unneeded node: scale-down candidate, deleted after 10 minutes unneeded, then idle', () => {
    // One small pod on two nodes: the second node is empty and unneeded.
    const { cluster } = createCluster(pool(false, 1, '100m').replace('count: 1', 'count: 2'));
    cluster.runUntil(60_000);
    expect(cluster.component<ClusterAutoscaler>(CA_ID)!.state.unremovable).toEqual({});
    expect(machine(cluster, 'spot')).toMatchObject({ value: 'scaleDownCandidate', event: 'NODE_UNNEEDED' });
    const since = machine(cluster, 'spot').at;
    cluster.runUntil(since + 10 * 60_000 + 10_000);
    const steps = path(cluster, 'spot').map((s) => s[1]);
    expect(steps).toContain('deleting');
    const del = path(cluster, 'spot').find((s) => s[1] === 'deleting')!;
    expect(del[0]).toBeGreaterThanOrEqual(since + 10 * 60_000);
    cluster.runUntil(since + 13 * 60_000);
    expect(machine(cluster, 'spot').value).toBe('idle');
    expect(machine(cluster, 'spot').event).toBe('NODES_DELETED');
  });
});

describe('node group machine and the status ConfigMap agree', () => {
  const status = (cluster: Cluster) =>
    parse(
      (
        cluster.api.get<KubeObject>('ConfigMap', 'kube-system', 'cluster-autoscaler-status').data as Record<
          string,
          string
        >
      ).status
    ) as { nodeGroups: { name: string; scaleUp: { status: string } }[] };
  const SCALE_UP: Record<string, string> = { scaleUpInFlight: 'InProgress', backoff: 'Backoff' };

  for (const file of ['autoscaler-scale-up.yaml', 'autoscaler-boot-failure.yaml']) {
    it(`scenarios/${file}: scale-up in flight ⇔ InProgress, backoff ⇔ Backoff, after every loop`, () => {
      const text = readFileSync(new URL(`../../../../../scenarios/${file}`, import.meta.url), 'utf8');
      const { cluster } = createCluster(text);
      const seen = new Set<string>();
      for (let t = 10_000; t <= 30 * 60_000; t += 10_000) {
        cluster.runUntil(t + 1);
        for (const g of status(cluster).nodeGroups) {
          const value = machine(cluster, g.name).value;
          seen.add(value);
          expect(g.scaleUp.status, `${g.name} at ${t} (${value})`).toBe(SCALE_UP[value] ?? 'NoActivity');
        }
      }
      expect(seen.has('scaleUpInFlight')).toBe(true);
      if (file.includes('failure')) expect(seen.has('backoff')).toBe(true);
    });
  }
});
