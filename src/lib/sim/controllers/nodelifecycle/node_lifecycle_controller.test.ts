import { describe, expect, it } from 'vitest';
import type { KubeObject, PodCondition } from '../../api/types';
import type { KubeControllerManager } from '../kube-controller-manager';
import { DEFAULT_TOLERATIONS, nodeTaints, readyOf, testCluster, testPod, timeWhen } from '../testing/harness';

const UNREACHABLE = 'node.kubernetes.io/unreachable';

function hasTaint(c: ReturnType<typeof testCluster>['cluster'], node: string, effect: string): boolean {
  return nodeTaints(c, node).some((t) => t.key === UNREACHABLE && t.effect === effect);
}

function setup() {
  const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
  const api = cluster.api;
  api.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'node-agent' } },
      template: {
        metadata: { labels: { app: 'node-agent' } },
        spec: { containers: [{ name: 'a', image: 'agent:1' }] }
      }
    }
  });
  api.create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], tolerations: DEFAULT_TOLERATIONS }
      }
    }
  });
  // The harness binds the DaemonSet and ReplicaSet pods one per node; then the bare pods go to w3.
  cluster.runUntil(5_000);
  api.create(testPod('tolerates-300', 'w3', { tolerations: DEFAULT_TOLERATIONS }));
  api.create(
    testPod('tolerates-30', 'w3', {
      tolerations: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }]
    })
  );
  // Tolerates only unreachable=other:NoExecute, so DefaultTolerationSeconds adds nothing for that key.
  api.create(
    testPod('no-tolerations', 'w3', {
      tolerations: [{ key: UNREACHABLE, operator: 'Equal', value: 'other', effect: 'NoExecute' }]
    })
  );
  return { cluster, harness, api };
}

describe('node lifecycle controller: heartbeat loss on a 3-node cluster (v1.35 defaults)', () => {
  it('marks the node Unknown after the grace period, taints it, and evicts pods by their tolerations', () => {
    const { cluster, harness, api } = setup();
    cluster.runUntil(55_000);
    const webPodsOnW3 = api.podsOnNode<KubeObject>('w3').filter((p) => p.metadata.labels?.app === 'web');
    expect(webPodsOnW3).toHaveLength(1);
    const dsPodOnW3 = api.podsOnNode<KubeObject>('w3').find((p) => p.metadata.labels?.app === 'node-agent')!;
    expect(dsPodOnW3).toBeDefined();
    const lastRenewal = harness.state.lastRenew.w3;
    expect(lastRenewal).toBe(50_000);
    harness.kill('w3');

    const tUnknown = timeWhen(cluster, 200_000, () => readyOf(cluster, 'w3')?.status === 'Unknown')!;
    const grace = cluster.config.controllerManager.nodeMonitorGracePeriod;
    expect(grace).toBe(50_000);
    expect(tUnknown - lastRenewal).toBeGreaterThan(grace);
    expect(tUnknown - lastRenewal).toBeLessThanOrEqual(grace + 5_000);
    const ready = readyOf(cluster, 'w3')!;
    expect(ready.reason).toBe('NodeStatusUnknown');
    expect(ready.message).toBe('Kubelet stopped posting node status.');
    const conds = api.get<KubeObject>('Node', undefined, 'w3').status.conditions as {
      type: string;
      status: string;
    }[];
    expect(
      conds
        .filter((c) => c.status === 'Unknown')
        .map((c) => c.type)
        .sort()
    ).toEqual(['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready']);
    expect(readyOf(cluster, 'w1')?.status).toBe('True');

    const tNoSchedule = timeWhen(cluster, 300_000, () => hasTaint(cluster, 'w3', 'NoSchedule'))!;
    expect(tNoSchedule).toBe(tUnknown);
    const tNoExecute = timeWhen(cluster, 300_000, () => hasTaint(cluster, 'w3', 'NoExecute'))!;
    // Queued on the next monitor pass, tainted by the 100 ms tainting pass.
    expect(tNoExecute).toBe(tUnknown + 5_100);
    const noExec = nodeTaints(cluster, 'w3').find((t) => t.effect === 'NoExecute')!;
    expect(noExec.timeAdded).toBe(api.timestamp());

    const log = cluster.eventLog;
    expect(log).toContainEqual(
      expect.objectContaining({
        reason: 'NodeNotReady',
        type: 'Normal',
        object: 'Node/w3',
        message: 'Node w3 status is now: NodeNotReady',
        t: tUnknown,
        source: 'node-controller'
      })
    );
    expect(log).toContainEqual(
      expect.objectContaining({
        reason: 'NodeNotReady',
        type: 'Warning',
        object: 'Pod/default/tolerates-300',
        message: 'Node is not ready'
      })
    );
    const podReady = (
      api.get<KubeObject>('Pod', 'default', 'tolerates-300').status.conditions as PodCondition[]
    ).find((c) => c.type === 'Ready');
    expect(podReady?.status).toBe('False');
    expect(log).toContainEqual(
      expect.objectContaining({ reason: 'RegisteredNode', message: 'Registered Node w1 in Controller', t: 0 })
    );

    const deleted = (name: string) => () =>
      !!api.tryGet<KubeObject>('Pod', 'default', name)?.metadata.deletionTimestamp;
    // Untolerated: deleted at taint time.
    expect(timeWhen(cluster, 1_000_000, deleted('no-tolerations'))).toBe(tNoExecute);
    const t30 = timeWhen(cluster, 1_000_000, deleted('tolerates-30'))!;
    expect(t30 - tNoExecute).toBe(30_000);
    const t300 = timeWhen(cluster, 1_000_000, deleted('tolerates-300'))!;
    expect(t300 - tNoExecute).toBeGreaterThanOrEqual(300_000);
    expect(t300 - tNoExecute).toBeLessThanOrEqual(305_000);
    const evicted = api.get<KubeObject>('Pod', 'default', 'tolerates-300');
    expect(
      (evicted.status.conditions as PodCondition[]).find((c) => c.type === 'DisruptionTarget')
    ).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint'
    });
    expect(cluster.eventLog).toContainEqual(
      expect.objectContaining({
        reason: 'TaintManagerEviction',
        message: 'Marking for deletion Pod default/tolerates-300',
        source: 'taint-eviction-controller',
        t: t300
      })
    );
    // The web pod on w3 went at the same time; the ReplicaSet replaced it at once.
    const webOnW3 = webPodsOnW3[0].metadata.name;
    expect(api.get<KubeObject>('Pod', 'default', webOnW3).metadata.deletionTimestamp).toBeDefined();
    cluster.advance(2_000);
    const active = api
      .list<KubeObject>('Pod', { labelSelector: 'app=web' })
      .filter((p) => !p.metadata.deletionTimestamp);
    expect(active).toHaveLength(3);
    expect(active.every((p) => p.spec.nodeName !== 'w3')).toBe(true);
    expect(
      cluster.eventLog.filter((e) => e.reason === 'SuccessfulCreate' && e.object === 'ReplicaSet/default/web')
    ).toHaveLength(4);

    // The DaemonSet pod tolerates unreachable:NoExecute forever.
    cluster.advance(600_000);
    expect(
      api.get<KubeObject>('Pod', 'default', dsPodOnW3.metadata.name).metadata.deletionTimestamp
    ).toBeUndefined();

    // The node comes back: taints go, the terminating pods finish.
    harness.revive('w3');
    const tBack = timeWhen(cluster, cluster.now + 60_000, () => nodeTaints(cluster, 'w3').length === 0)!;
    expect(tBack).toBeDefined();
    expect(readyOf(cluster, 'w3')?.status).toBe('True');
  });

  it('uses the 40 s grace period before v1.32', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2'], kubernetesVersion: 'v1.31.4' });
    cluster.runUntil(55_000);
    harness.kill('w2');
    const t = timeWhen(cluster, 200_000, () => readyOf(cluster, 'w2')?.status === 'Unknown')!;
    expect(t).toBe(95_000);
  });

  it('gives a node that never posted status the 60 s startup grace, then NodeStatusNeverUpdated', () => {
    const { cluster } = testCluster({ nodes: ['w1', { name: 'ghost', silent: true }] });
    const t = timeWhen(cluster, 200_000, () => readyOf(cluster, 'ghost') !== undefined)!;
    expect(t).toBe(65_000);
    expect(readyOf(cluster, 'ghost')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
      lastHeartbeatTime: '2026-01-01T00:00:00Z',
      lastTransitionTime: '2026-01-01T00:01:05Z'
    });
  });

  it('mirrors spec.unschedulable as the unschedulable:NoSchedule taint', () => {
    const { cluster } = testCluster({ nodes: ['w1'] });
    cluster.advance(1_000);
    cluster.api.patch('Node', undefined, 'w1', { spec: { unschedulable: true } }, { component: 'kubectl' });
    cluster.advance(1);
    expect(nodeTaints(cluster, 'w1')).toEqual([
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:01Z' }
    ]);
    cluster.api.patch('Node', undefined, 'w1', { spec: { unschedulable: null } }, { component: 'kubectl' });
    cluster.advance(1);
    expect(nodeTaints(cluster, 'w1')).toEqual([]);
  });

  it('swaps unreachable for not-ready when the kubelet reports Ready=False', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    cluster.runUntil(55_000);
    harness.kill('w3');
    timeWhen(cluster, 300_000, () => hasTaint(cluster, 'w3', 'NoExecute'));
    const ts = cluster.api.timestamp();
    const node = structuredClone(cluster.api.get<KubeObject>('Node', undefined, 'w3'));
    node.status.conditions = node.status.conditions.map((c: { type: string }) =>
      c.type === 'Ready'
        ? {
            type: 'Ready',
            status: 'False',
            reason: 'KubeletNotReady',
            message: 'container runtime is down',
            lastHeartbeatTime: ts,
            lastTransitionTime: ts
          }
        : c
    );
    cluster.api.update(node, { component: 'kubelet', node: 'w3' }, { subresource: 'status' });
    cluster.advance(10_000);
    const taints = nodeTaints(cluster, 'w3')
      .map((t) => `${t.key}:${t.effect}`)
      .sort();
    expect(taints).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/not-ready:NoSchedule'
    ]);
  });

  it('adds NoExecute taints at 0.1 nodes/s within a healthy zone', () => {
    const names = Array.from({ length: 10 }, (_, i) => `n${i}`);
    const { cluster, harness } = testCluster({ nodes: names });
    cluster.runUntil(55_000);
    for (const n of ['n1', 'n2', 'n3']) harness.kill(n);
    const times: number[] = [];
    for (const n of ['n1', 'n2', 'n3'])
      times.push(timeWhen(cluster, 400_000, () => hasTaint(cluster, n, 'NoExecute'))!);
    expect(times).toEqual([110_100, 120_100, 130_100]);
    const kcm = cluster.component<KubeControllerManager>('kube-controller-manager')!;
    expect(
      kcm.controller<import('./node_lifecycle_controller').NodeLifecycleController>(
        'node-lifecycle-controller'
      ).zoneStates
    ).toEqual({
      '': 'Normal'
    });
  });
});

describe('node lifecycle controller: pods bound to a node that is not Ready', () => {
  it('marks a pod bound to an Unknown node NotReady, with the NodeNotReady event', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2'], schedule: false });
    cluster.runUntil(55_000);
    harness.kill('w2');
    cluster.runUntil(120_000);
    const api = cluster.api;
    api.create({
      ...testPod('late', 'w2'),
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: api.timestamp() }]
      }
    });
    cluster.advance(1);
    const ready = (api.get<KubeObject>('Pod', 'default', 'late').status.conditions as PodCondition[]).find(
      (c) => c.type === 'Ready'
    );
    expect(ready?.status).toBe('False');
    expect(cluster.eventLog).toContainEqual(
      expect.objectContaining({
        t: 120_000,
        reason: 'NodeNotReady',
        object: 'Pod/default/late',
        message: 'Node is not ready'
      })
    );
  });
});

describe('node lifecycle controller: the monitor pass over nodes that did not change', () => {
  // upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth: proof
  // of life is a changed Ready lastHeartbeatTime or a newer Lease renewTime, probed on the
  // controller's clock)
  it('keeps the stored health and machine of a quiet node, and moves the probe time on a Lease renewal', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const nlc = cluster
      .component<KubeControllerManager>('kube-controller-manager')!
      .controller<import('./node_lifecycle_controller').NodeLifecycleController>('node-lifecycle-controller');
    const state = () =>
      nlc.getState() as {
        health: Record<string, { probe: number; leaseRenew?: string }>;
        machines: Record<string, unknown>;
      };
    // Leases are renewed every 10 s; the pass at 55 s sees the renewal of 50 s again.
    cluster.runUntil(52_000);
    const health = state().health.w1;
    const machine = state().machines.w1;
    expect(health).toMatchObject({ probe: 50_000, leaseRenew: '2026-01-01T00:00:50.000000Z' });
    expect(nlc.machines.w1.value).toBe('ready');
    cluster.runUntil(57_000);
    expect(state().health.w1).toBe(health);
    expect(state().machines.w1).toBe(machine);
    expect(health.probe).toBe(50_000);
    // The 60 s renewal is proof of life at the 60 s pass; the node stays ready, its machine unmoved.
    cluster.runUntil(62_000);
    expect(state().health.w1).toMatchObject({ probe: 60_000, leaseRenew: '2026-01-01T00:01:00.000000Z' });
    expect(state().machines.w1).toBe(machine);
    expect(readyOf(cluster, 'w1')?.status).toBe('True');
  });
});

describe('tryUpdateNodeHealth: Lease renewTimes', () => {
  // upstream: node_lifecycle_controller.go tryUpdateNodeHealth: a Lease is proof of life only when
  // its renewTime is after the one last observed (a MicroTime compared as a time, not as text).
  it('takes a newer renewTime and not an older one, as parsing both each time would', async () => {
    const { tryUpdateNodeHealth, newHealthResult } = await import('./node_health');
    // A node nothing renews (no kubelet, no controller): the test writes its Lease itself.
    const { cluster } = testCluster({ nodes: [{ name: 'w1', silent: true }], kcm: false });
    cluster.api.create<KubeObject>({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'w1', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'w1', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:20.000000Z' }
    });
    const host = {
      cluster,
      ctx: { component: 'test' },
      now: () => cluster.now
    } as unknown as Parameters<typeof tryUpdateNodeHealth>[0];
    const healths: Record<string, { probe: number; leaseRenew?: string }> = {};
    const grace = { monitor: 1e9, startup: 1e9 };
    const renew = (renewTime: string) => {
      const lease = cluster.api.get<KubeObject>('Lease', 'kube-node-lease', 'w1');
      cluster.api.update({ ...lease, spec: { ...lease.spec, renewTime } });
    };
    const pass = () => {
      const node = cluster.api.get<KubeObject>('Node', undefined, 'w1');
      tryUpdateNodeHealth(host, node, undefined, healths as never, grace, newHealthResult());
      return { ...healths.w1 };
    };
    const seen: { at: number; renew: string; probe: number }[] = [];
    const times = [
      '2026-01-01T00:00:30.000000Z',
      '2026-01-01T00:00:30.000000Z',
      '2026-01-01T00:00:29.999000Z',
      '2026-01-01T00:00:40.500000Z',
      '2026-01-01T00:00:40.5Z',
      '2026-01-01T00:00:41.000000Z'
    ];
    for (const t of times) {
      cluster.engine.now += 1000;
      renew(t);
      const h = pass();
      seen.push({ at: cluster.now, renew: h.leaseRenew!, probe: h.probe });
    }
    // Expected with every renewTime parsed afresh: a later time moves the probe to now.
    const expected: { at: number; renew: string; probe: number }[] = [];
    let last: string | undefined;
    let probe = seen[0].probe;
    seen.forEach(({ at }, i) => {
      const t = times[i];
      if (t !== last && (last === undefined || Date.parse(last) < Date.parse(t))) {
        last = t;
        probe = at;
      }
      expected.push({ at, renew: last!, probe });
    });
    expect(seen).toEqual(expected);
    expect(seen.map((s) => s.probe)).toEqual([
      seen[0].at,
      seen[0].at,
      seen[0].at,
      seen[3].at,
      seen[3].at,
      seen[5].at
    ]);
  });
});
