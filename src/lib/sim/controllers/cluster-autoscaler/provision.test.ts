import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCluster } from '../../scenario';
import './index';
import type { KubeObject } from '../../api/types';
import { Cluster, type Cluster as ClusterT } from '../../cluster';
import { CA_ID, type ClusterAutoscaler } from './autoscaler';

const caEvents = (cluster: ClusterT, reason: string) =>
  cluster.eventLog.filter((e) => e.reason === reason).map((e) => [e.t, e.object, e.message]);
const ca = (cluster: ClusterT) => cluster.component<ClusterAutoscaler>(CA_ID)!;
const nodeNames = (cluster: ClusterT) =>
  cluster.api
    .list<KubeObject>('Node')
    // kubeadm's control-plane-1 is a Node too, in no node group: the autoscaler never touches it.
    .filter((n) => n.metadata.labels?.['node-role.kubernetes.io/control-plane'] === undefined)
    .map((n) => n.metadata.name)
    .sort();
const status = (cluster: ClusterT) =>
  parse(
    (
      cluster.api.get<KubeObject>('ConfigMap', 'kube-system', 'cluster-autoscaler-status').data as Record<
        string,
        string
      >
    ).status
  );

const WEB = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: nginx, image: 'nginx:1.27', resources: { requests: { cpu: 1200m, memory: 256Mi } } }
`;

/** One pool whose new machines never register; a second, healthy pool the priority expander ranks lower. */
function twoPools(): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ca-provision }
spec:
  seed: 5
  clusterAutoscaler: { expander: 'priority,least-waste' }
  nodePools:
    - name: spot
      count: 1
      min: 1
      max: 4
      capacity: { cpu: '2', memory: 8Gi }
      provider: { flavour: eks, bootTime: 45s, failBoot: true }
    - name: ondemand
      count: 0
      min: 0
      max: 4
      capacity: { cpu: '2', memory: 8Gi }
      provider: { flavour: eks, bootTime: 45s }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: cluster-autoscaler-priority-expander, namespace: kube-system }
data:
  priorities: |
    50:
      - spot
    10:
      - ondemand
---
${WEB(3)}`;
}

describe('cluster autoscaler: --max-node-provision-time', () => {
  it('deletes machines that never register after 15m, backs the group off and tries another pool', () => {
    const { cluster } = createCluster(twoPools());
    cluster.runUntil(60_000);
    // 10 s: spot is preferred and grows by two machines; they boot at 55 s but never register.
    expect(caEvents(cluster, 'TriggeredScaleUp').map((e) => e[2])).toEqual([
      'pod triggered scale-up: [{spot 1->3 (max: 4)}]',
      'pod triggered scale-up: [{spot 1->3 (max: 4)}]'
    ]);
    expect(nodeNames(cluster)).toEqual(['spot-1']);
    expect(Object.keys(ca(cluster).state.machines).sort()).toEqual(['spot-2', 'spot-3']);
    // While the machines are within the provision time they are upcoming: nothing new is asked for.
    cluster.runUntil(15 * 60_000 + 10_000);
    expect(caEvents(cluster, 'TriggeredScaleUp').length).toBe(2);
    expect(status(cluster).nodeGroups[0]).toMatchObject({
      name: 'spot',
      health: { nodeCounts: { unregistered: 2, longUnregistered: 0 }, cloudProviderTarget: 3 },
      scaleUp: { status: 'InProgress' }
    });
    // 10 s + 15 m is the deadline; the first loop after it (15m20s) gives up on the machines.
    cluster.runUntil(15 * 60_000 + 20_000);
    const at = 15 * 60_000 + 20_000;
    const cm = 'ConfigMap/kube-system/cluster-autoscaler-status';
    expect(caEvents(cluster, 'ScaleUpTimedOut')).toEqual([
      [at, cm, 'Nodes added to group spot failed to register within 15m10s']
    ]);
    expect(caEvents(cluster, 'DeleteUnregistered')).toEqual([
      [at, cm, 'Removed unregistered node spot-2'],
      [at, cm, 'Removed unregistered node spot-3']
    ]);
    expect(cluster.eventLog.find((e) => e.reason === 'ScaleUpTimedOut')?.type).toBe('Warning');
    // The same loop: spot is in backoff, so the expander gets only ondemand.
    expect(caEvents(cluster, 'TriggeredScaleUp').slice(2)).toEqual([
      [
        at,
        expect.stringMatching(/^Pod\/default\/web-/),
        'pod triggered scale-up: [{ondemand 0->2 (max: 4)}]'
      ],
      [at, expect.stringMatching(/^Pod\/default\/web-/), 'pod triggered scale-up: [{ondemand 0->2 (max: 4)}]']
    ]);
    expect(ca(cluster).state.backoff.spot).toEqual({
      durationMs: 5 * 60_000,
      until: at + 5 * 60_000,
      lastFailed: at,
      errorCode: 'timeout',
      errorMessage: 'Scale-up timed out for node group spot after 15m10s'
    });
    expect(ca(cluster).state.target).toEqual({ spot: 1, ondemand: 2 });
    const spot = status(cluster).nodeGroups[0];
    expect(spot.scaleUp).toMatchObject({
      status: 'Backoff',
      backoffInfo: {
        errorCode: 'timeout',
        errorMessage: 'Scale-up timed out for node group spot after 15m10s'
      }
    });
    // ondemand machines boot in 45 s and take the pods.
    cluster.runUntil(at + 90_000);
    expect(nodeNames(cluster)).toEqual(['ondemand-1', 'ondemand-2', 'spot-1']);
    const pods = cluster.api.list<KubeObject>('Pod', { labelSelector: 'app=web' });
    expect(pods.every((p) => p.status?.phase === 'Running')).toBe(true);
  });

  it('a backed-off group tells the pods why; the backoff doubles after a second failure', () => {
    const one = twoPools().replace(/ {4}- name: ondemand[\s\S]*?bootTime: 45s \}\n/, '');
    const { cluster } = createCluster(one);
    const first = 15 * 60_000 + 20_000;
    cluster.runUntil(first);
    expect(caEvents(cluster, 'NotTriggerScaleUp').map((e) => [e[0], e[2]])).toEqual([
      [first, "pod didn't trigger scale-up: 1 in backoff after failed scale-up"],
      [first, "pod didn't trigger scale-up: 1 in backoff after failed scale-up"]
    ]);
    // The 5-minute backoff ends at 20m20s: that loop scales spot up again.
    cluster.runUntil(first + 5 * 60_000);
    expect(caEvents(cluster, 'ScaledUpGroup').map((e) => [e[0], e[2]])).toEqual([
      [10_000, 'Scale-up: setting group spot size to 3 instead of 1 (max: 4)'],
      [first + 5 * 60_000, 'Scale-up: setting group spot size to 3 instead of 1 (max: 4)']
    ]);
    // It fails again 15m10s later; the backoff that had ended doubles to 10 minutes.
    const second = first + 5 * 60_000 + 15 * 60_000 + 10_000;
    cluster.runUntil(second);
    expect(caEvents(cluster, 'ScaleUpTimedOut').map((e) => e[0])).toEqual([first, second]);
    expect(ca(cluster).state.backoff.spot).toMatchObject({
      durationMs: 10 * 60_000,
      until: second + 10 * 60_000
    });
  });

  it('FailMachineBoot breaks a pool from a point in time; FixMachineBoot lets new machines register', () => {
    const text = twoPools()
      .replace('failBoot: true', 'failBoot: false')
      .replace(
        'spec:\n  seed: 5',
        'spec:\n  seed: 5\n  faults:\n    - { at: 1s, action: FailMachineBoot, target: spot }'
      );
    const { cluster } = createCluster(text);
    cluster.runUntil(120_000);
    expect(nodeNames(cluster)).toEqual(['spot-1']);
    expect(cluster.faultLog.map((f) => f.action)).toEqual(['FailMachineBoot']);
    cluster.applyFault('FixMachineBoot', { target: 'spot' });
    expect(() => cluster.applyFault('FailMachineBoot', { target: 'gpu' })).toThrow(
      'no node pool "gpu" managed by the Cluster Autoscaler (pools: spot, ondemand)'
    );
    // The two broken machines stay unregistered; machines asked for after the fix join: spot grows
    // to its max of 4 for one more pod, and the next loop sends the last pod to ondemand.
    cluster.api.patch('Deployment', 'default', 'web', { spec: { replicas: 5 } }, { component: 'kubectl' });
    cluster.runUntil(200_000);
    expect(nodeNames(cluster)).toEqual(['ondemand-1', 'spot-1', 'spot-4']);
    expect(Object.keys(ca(cluster).state.machines).sort()).toEqual(['spot-2', 'spot-3']);
  });

  it('the example scenario autoscaler-boot-failure shows the same timeline', () => {
    const text = readFileSync(
      new URL('../../../../../scenarios/autoscaler-boot-failure.yaml', import.meta.url),
      'utf8'
    );
    const { cluster } = createCluster(text);
    cluster.runUntil(16 * 60_000);
    expect(caEvents(cluster, 'ScaleUpTimedOut').map((e) => [e[0], e[2]])).toEqual([
      [15 * 60_000 + 20_000, 'Nodes added to group spot failed to register within 15m10s']
    ]);
    expect(caEvents(cluster, 'ScaledUpGroup').map((e) => [e[0], e[2]])).toEqual([
      [10_000, 'Scale-up: setting group spot size to 3 instead of 1 (max: 4)'],
      [15 * 60_000 + 20_000, 'Scale-up: setting group ondemand size to 2 instead of 0 (max: 4)']
    ]);
  });

  it('a snapshot taken during the backoff restores and continues identically', () => {
    const { cluster } = createCluster(twoPools());
    cluster.runUntil(16 * 60_000);
    const restored = Cluster.restore(cluster.snapshot());
    cluster.runUntil(25 * 60_000);
    restored.runUntil(25 * 60_000);
    expect(restored.eventLog).toEqual(cluster.eventLog);
    expect(ca(restored).state).toEqual(ca(cluster).state);
  });
});

describe('cluster autoscaler: older snapshots', () => {
  it('a saved state with only `provisioning` still boots its machines', () => {
    const { cluster } = createCluster(twoPools().replace('failBoot: true', 'failBoot: false'));
    cluster.runUntil(20_000);
    const c = ca(cluster);
    const old = c.getState() as Record<string, unknown>;
    const machines = old.machines as Record<string, { group: string }>;
    const legacy: Record<string, unknown> = {
      target: old.target,
      provisioning: Object.fromEntries(Object.entries(machines).map(([n, m]) => [n, m.group])),
      unneededSince: {},
      unremovable: {},
      deleting: {},
      lastScaleUp: old.lastScaleUp,
      lastScaleDownFail: null,
      transitions: old.transitions
    };
    c.setState(legacy);
    expect(c.state.machines).toEqual({
      'spot-2': { group: 'spot', since: 20_000, booted: false },
      'spot-3': { group: 'spot', since: 20_000, booted: false }
    });
    expect(c.state.sizes).toEqual({ spot: { min: 1, max: 4 }, ondemand: { min: 0, max: 4 } });
    cluster.runUntil(70_000);
    expect(nodeNames(cluster)).toEqual(['spot-1', 'spot-2', 'spot-3']);
  });
});
