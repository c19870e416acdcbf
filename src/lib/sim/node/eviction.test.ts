// upstream: pkg/kubelet/eviction/eviction_manager.go (synchronize: EvictionThresholdMet before reclaim and ranking)
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster';
import { clusterWithNode, createPod, events, nodeCondition, pod } from './testing';

function workloads(c: Cluster): void {
  const app = (memory?: string) => [
    { name: 'app', image: 'nginx:1.27', ...(memory ? { resources: { requests: { memory } } } : {}) }
  ];
  createPod(c, {
    name: 'guaranteed',
    annotations: { 'nodeplane.dev/memory-usage': '900Mi' },
    containers: [
      {
        name: 'app',
        image: 'nginx:1.27',
        resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '500m', memory: '1Gi' } }
      }
    ]
  });
  createPod(c, {
    name: 'burstable',
    annotations: { 'nodeplane.dev/memory-usage': '1200Mi' },
    containers: app('256Mi')
  });
  createPod(c, {
    name: 'besteffort',
    annotations: { 'nodeplane.dev/memory-usage': '300Mi' },
    containers: app()
  });
  c.api.create({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'important' },
    value: 1000
  });
  createPod(c, {
    name: 'important',
    annotations: { 'nodeplane.dev/memory-usage': '2Gi' },
    containers: app('100Mi'),
    spec: { priorityClassName: 'important' }
  });
}

describe('node-pressure eviction', () => {
  it('evicts the pod furthest over its request with the upstream message and status', () => {
    const { c } = clusterWithNode();
    workloads(c);
    c.runUntil(12_000);
    expect(nodeCondition(c, 'MemoryPressure').status).toBe('False');
    c.applyFault('FillMemory', { target: 'worker-1' });
    c.runUntil(20_100);
    const p = pod(c, 'burstable')!;
    const msg =
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container app was using 1200Mi, request is 256Mi, has larger consumption of memory. ';
    expect(p.status).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: msg });
    expect(p.status.conditions[0]).toMatchObject({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'TerminationByKubelet',
      message: msg
    });
    expect(p.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 137 });
    expect(events(c, 'Evicted', 'Pod/default/burstable')).toEqual([[20_100, msg]]);
    expect(events(c, 'EvictionThresholdMet', 'Node/worker-1')).toEqual([
      [20_100, 'Attempting to reclaim memory']
    ]);
    const order = c.eventLog.filter((e) => e.t === 20_100).map((e) => e.reason);
    expect(order.indexOf('EvictionThresholdMet')).toBeLessThan(order.indexOf('Killing'));
    expect(c.eventLog.find((e) => e.reason === 'EvictionThresholdMet')!.type).toBe('Warning');
    expect(c.eventLog.find((e) => e.reason === 'Evicted')!.type).toBe('Warning');
    for (const other of ['guaranteed', 'besteffort', 'important'])
      expect(pod(c, other)!.status.phase).toBe('Running');

    // Evicting it freed enough memory; the condition stays True for the 5 min transition period.
    c.runUntil(30_100);
    expect(nodeCondition(c, 'MemoryPressure')).toMatchObject({
      status: 'True',
      reason: 'KubeletHasInsufficientMemory',
      message: 'kubelet has insufficient memory available'
    });
    expect(events(c, 'NodeHasInsufficientMemory', 'Node/worker-1')).toEqual([
      [30_100, 'Node worker-1 status is now: NodeHasInsufficientMemory']
    ]);
    expect(c.eventLog.filter((e) => e.reason === 'Evicted')).toHaveLength(1);

    // Admission under MemoryPressure: BestEffort rejected, Burstable admitted.
    createPod(c, { name: 'late-be' });
    createPod(c, {
      name: 'late-bu',
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { memory: '64Mi' } } }]
    });
    c.advance(3_000);
    expect(pod(c, 'late-be')!.status).toMatchObject({
      phase: 'Failed',
      reason: 'Evicted',
      message: 'The node had condition: [MemoryPressure]. '
    });
    expect(pod(c, 'late-bu')!.status.phase).toBe('Running');

    // Last met at 20.1s: the condition clears on the first status tick after 5m20.1s.
    c.runUntil(320_000);
    expect(nodeCondition(c, 'MemoryPressure').status).toBe('True');
    c.runUntil(330_100);
    expect(nodeCondition(c, 'MemoryPressure').status).toBe('False');
  });

  it('ranks: over request first, then by priority, then by usage above request; one pod per 10s', () => {
    const { c } = clusterWithNode();
    workloads(c);
    c.runUntil(12_000);
    c.applyFault('FillMemory', { target: 'worker-1', amount: '8Gi' });
    c.runUntil(60_000);
    const order = c.eventLog.filter((e) => e.reason === 'Evicted').map((e) => [e.t, e.object]);
    expect(order).toEqual([
      [20_100, 'Pod/default/burstable'],
      [30_100, 'Pod/default/besteffort'],
      [40_100, 'Pod/default/important'],
      [50_100, 'Pod/default/guaranteed']
    ]);
    expect(pod(c, 'guaranteed')!.status.message).toBe(
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. '
    );
  });

  it('under disk pressure deletes unused images before evicting pods', () => {
    const { c, k } = clusterWithNode({ preloadedImages: ['postgres:17', 'redis:8.2'] });
    createPod(c);
    c.runUntil(12_000);
    expect(
      k.host
        .images()
        .map((i) => `${i.repository}:${i.tag}`)
        .sort()
    ).toEqual([
      'docker.io/library/nginx:1.27',
      'docker.io/library/postgres:17',
      'docker.io/library/redis:8.2',
      'registry.k8s.io/pause:3.10'
    ]);
    // Leave the disk 100 MB short of the 15% imagefs threshold: removing unused images is enough.
    const free = k.host.disk().available;
    const threshold = Math.floor(50 * 2 ** 30 * 0.15);
    c.applyFault('FillDisk', { target: 'worker-1', amount: String(free - threshold + 100_000_000) });
    c.runUntil(20_100);
    expect(
      k.host
        .images()
        .map((i) => `${i.repository}:${i.tag}`)
        .sort()
    ).toEqual(['docker.io/library/nginx:1.27', 'registry.k8s.io/pause:3.10']);
    expect(pod(c)!.status.phase).toBe('Running');
    // The event comes even when reclaiming images is enough and no pod is evicted.
    expect(events(c, 'EvictionThresholdMet', 'Node/worker-1')).toEqual([
      [20_100, 'Attempting to reclaim ephemeral-storage']
    ]);
    c.runUntil(30_100);
    expect(nodeCondition(c, 'DiskPressure')).toMatchObject({
      status: 'True',
      reason: 'KubeletHasDiskPressure'
    });
  });

  it('tracks pid.available when configured and evicts by priority with a Killing event', () => {
    const { c } = clusterWithNode({ evictionHard: { 'pid.available': '4194200' } });
    createPod(c);
    c.runUntil(20_100);
    // 180 system processes + 4 per running container: 4194304 − 184 = 4194120 < 4194200.
    expect(pod(c)!.status.message).toBe(
      'The node was low on resource: pids. Threshold quantity: 4194200, available: 4194120. '
    );
    expect(events(c, 'Killing')).toEqual([[10_100, 'Stopping container app']]);
    expect(nodeCondition(c, 'PIDPressure')).toMatchObject({
      status: 'True',
      reason: 'KubeletHasInsufficientPID',
      message: 'kubelet has insufficient PID available'
    });
  });
});
