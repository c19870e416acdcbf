// upstream: pkg/kubelet/eviction/eviction_manager.go (synchronize: EvictionThresholdMet before reclaim and ranking)
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster';
import { tryParseQuantity } from '../api/quantity';
import { observe, podDisk, podMemory, type Observations } from './eviction';
import type { Kubelet } from './kubelet';
import { clusterWithNode, createPod, events, nodeCondition, pod, runWatching } from './testing';

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

/** observe as a walk over every container of every pod the kubelet knows, at this moment. */
function observedAfresh(k: Kubelet): Observations {
  const known = new Set(Object.values(k.state.pods).map((r) => r.uid));
  let memory = 0;
  let fs = 0;
  for (const uid of known) {
    memory += podMemory(k, uid).total;
    fs += podDisk(k, uid).total;
  }
  const bytes = (q: string | undefined) => Math.round((tryParseQuantity(q) ?? 0) / 1000);
  const memoryCapacity = bytes(k.args.capacity.memory);
  const fsCapacity = bytes(k.args.capacity['ephemeral-storage']);
  const sys = k.host.state.system;
  const images = k.host.state.runtime.images.reduce((s, i) => s + i.sizeBytes, 0);
  return {
    memoryCapacity,
    memoryAvailable: Math.max(0, memoryCapacity - sys.memory - sys.fillMemory - memory),
    fsCapacity,
    fsAvailable: Math.max(0, fsCapacity - sys.disk - sys.fillDisk - images - fs),
    pidAvailable: 4_194_304 - 180 - 4 * k.runtime.running().length
  };
}

describe('the eviction manager keeps its pod stats between observations', () => {
  // upstream: pkg/kubelet/eviction/eviction_manager.go (synchronize reads the summary every
  // monitoring interval); the kept sums must read what a fresh walk of the containers reads.
  it('reads what a walk of every container reads, after every event', () => {
    const { c, k } = clusterWithNode({
      capacity: { cpu: '4', memory: '8Gi', 'ephemeral-storage': '20Gi' }
    });
    createPod(c, {
      name: 'growing',
      annotations: {
        'nodeplane.dev/memory-usage': '100Mi+5Mi/s,max=800Mi',
        'nodeplane.dev/disk-usage': '10Mi+1Mi/s'
      }
    });
    createPod(c, { name: 'crashing', annotations: { 'nodeplane.dev/crash-after': '7s' } });
    createPod(c, {
      name: 'done',
      annotations: { 'nodeplane.dev/complete-after': '5s', 'nodeplane.dev/disk-usage': '0+2Mi/s' },
      spec: { restartPolicy: 'Never' }
    });
    createPod(c, { name: 'steady', annotations: { 'nodeplane.dev/memory-usage': '300Mi' } });
    let checks = 0;
    const probe = () => {
      expect(observe(k)).toEqual(observedAfresh(k));
      checks++;
    };
    runWatching(c, 60_000, probe);
    // The runtime stops, a pod is deleted and created again under the same name: the kubelet
    // forgets the old pod without removing its containers (they no longer count), then the
    // runtime comes back.
    c.applyFault('StopRuntime', { target: 'worker-1' });
    c.api.delete('Pod', 'default', 'steady', { gracePeriodSeconds: 0 }, { component: 'kubectl' });
    runWatching(c, 65_000, probe);
    createPod(c, { name: 'steady', annotations: { 'nodeplane.dev/memory-usage': '500Mi' } });
    runWatching(c, 75_000, probe);
    c.applyFault('StartRuntime', { target: 'worker-1' });
    runWatching(c, 120_000, probe);
    c.applyFault('FillDisk', { target: 'worker-1' });
    runWatching(c, 180_000, probe);
    c.api.delete('Pod', 'default', 'growing', { gracePeriodSeconds: 0 }, { component: 'kubectl' });
    c.applyFault('FillMemory', { target: 'worker-1' });
    runWatching(c, 240_000, probe);
    expect(checks).toBeGreaterThan(100);
    // The workload really moved: pods were evicted under the filled disk and memory.
    expect(c.eventLog.filter((e) => e.reason === 'Evicted').length).toBeGreaterThan(0);
  });
});
