import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import type { Kubelet } from './kubelet';
import { NETWORK_NOT_READY } from './nodestatus';
import { clusterWithNode, createPod, events, nodeArgs, nodeCondition, pod, runWatching } from './testing';

describe('kubelet registration', () => {
  it('POSTs the Node with labels, taints, annotation, addresses, nodeInfo and allocatable', () => {
    const c = new Cluster();
    c.addComponent(
      'kubelet',
      nodeArgs('worker-1', {
        zone: 'eu-west-1a',
        region: 'eu-west-1',
        labels: { role: 'web' },
        pool: 'general',
        taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
        capacity: { cpu: '16', memory: '32Gi', 'ephemeral-storage': '100Gi', 'nvidia.com/gpu': '1' },
        kubeReserved: { cpu: '1', memory: '2Gi', 'ephemeral-storage': '1Gi' },
        systemReserved: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi' },
        evictionHard: { 'memory.available': '500Mi', 'nodefs.available': '10%' },
        preloadedImages: ['registry.k8s.io/pause:3.10', 'nginx:1.27']
      })
    );
    c.advance(99);
    expect(c.api.tryGet('Node', undefined, 'worker-1')).toBeUndefined();
    c.advance(1);
    const n = c.api.get<KubeObject>('Node', undefined, 'worker-1');
    expect(n.metadata.labels).toEqual({
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'worker-1',
      'kubernetes.io/os': 'linux',
      'topology.kubernetes.io/zone': 'eu-west-1a',
      'topology.kubernetes.io/region': 'eu-west-1',
      'nodeplane.dev/pool': 'general',
      role: 'web'
    });
    expect(n.metadata.annotations).toMatchObject({
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true'
    });
    expect(n.spec.taints).toContainEqual({ key: 'dedicated', value: 'web', effect: 'NoSchedule' });
    expect(n.status.capacity).toMatchObject({
      cpu: '16',
      memory: '32Gi',
      pods: '110',
      'nvidia.com/gpu': '1'
    });
    expect(n.status.allocatable).toMatchObject({
      cpu: '14500m',
      memory: '29196Mi',
      'ephemeral-storage': '88Gi'
    });
    expect(n.status.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.11' },
      { type: 'Hostname', address: 'worker-1' }
    ]);
    expect(n.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    expect(n.status.nodeInfo).toMatchObject({
      containerRuntimeVersion: 'containerd://2.1.4',
      kubeletVersion: 'v1.35.0',
      operatingSystem: 'linux',
      architecture: 'amd64',
      osImage: 'Ubuntu 24.04.3 LTS'
    });
    expect(n.status.images.map((i: { names: string[] }) => i.names[1])).toEqual([
      'docker.io/library/nginx:1.27',
      'registry.k8s.io/pause:3.10'
    ]);
    expect(
      n.status.conditions.map((x: { type: string; status: string; reason: string }) => [
        x.type,
        x.status,
        x.reason
      ])
    ).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady']
    ]);
    expect(c.eventLog.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'Starting: Starting kubelet.',
      'NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
      'NodeHasSufficientMemory: Node worker-1 status is now: NodeHasSufficientMemory',
      'NodeHasNoDiskPressure: Node worker-1 status is now: NodeHasNoDiskPressure',
      'NodeHasSufficientPID: Node worker-1 status is now: NodeHasSufficientPID',
      'NodeReady: Node worker-1 status is now: NodeReady'
    ]);
  });

  it('reports cri-o with a version following the Kubernetes minor', () => {
    const { c } = clusterWithNode({ runtime: 'cri-o' });
    expect(c.api.get<KubeObject>('Node', undefined, 'worker-1').status.nodeInfo.containerRuntimeVersion).toBe(
      'cri-o://1.35.1'
    );
  });

  it('retries registration with 100ms doubling to 7s while the API is unreachable', () => {
    const c = new Cluster();
    c.apiServers[0].running = false;
    const k = c.addComponent('kubelet', nodeArgs('worker-1')) as Kubelet;
    c.advance(30_000);
    const attempts = k.host
      .journal('kubelet')
      .filter((j) => j.message.startsWith('"Unable to register node'))
      .map((j) => j.t);
    expect(attempts.slice(0, 9)).toEqual([100, 300, 700, 1500, 3100, 6300, 12700, 19700, 26700]);
    c.apiServers[0].running = true;
    c.advance(7_000);
    expect(c.api.tryGet('Node', undefined, 'worker-1')).toBeDefined();
  });

  it('on AlreadyExists reconciles labels and zeroes extended resources until the device plugin is back', () => {
    const { c } = clusterWithNode({ capacity: { cpu: '4', memory: '8Gi', 'nvidia.com/gpu': '2' } });
    c.applyFault('StopKubelet', { target: 'worker-1' });
    const n = c.api.get<KubeObject>('Node', undefined, 'worker-1');
    c.api.update({ ...n, metadata: { ...n.metadata, labels: { custom: 'x' } } });
    c.applyFault('StartKubelet', { target: 'worker-1' });
    c.advance(100);
    const after = c.api.get<KubeObject>('Node', undefined, 'worker-1');
    expect(after.metadata.labels).toMatchObject({ custom: 'x', 'kubernetes.io/hostname': 'worker-1' });
    expect(after.status.capacity['nvidia.com/gpu']).toBe('0');
    c.advance(10_000);
    expect(c.api.get<KubeObject>('Node', undefined, 'worker-1').status.capacity['nvidia.com/gpu']).toBe('2');
  });
});

describe('heartbeats', () => {
  it('renews the Lease every 10s and posts status only on change or every 5 minutes', () => {
    const { c } = clusterWithNode();
    const renewals: string[] = [];
    const heartbeats = new Set<string>();
    runWatching(c, 660_000, () => {
      const l = c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1');
      if (renewals[renewals.length - 1] !== l.spec.renewTime) renewals.push(l.spec.renewTime);
      heartbeats.add(nodeConditionHeartbeat(c));
    });
    const lease = c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1');
    expect(lease.spec).toMatchObject({ holderIdentity: 'worker-1', leaseDurationSeconds: 40 });
    expect(lease.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'worker-1' });
    expect(renewals.slice(0, 4)).toEqual([
      '2026-01-01T00:00:00.100000Z',
      '2026-01-01T00:00:10.100000Z',
      '2026-01-01T00:00:20.100000Z',
      '2026-01-01T00:00:30.100000Z'
    ]);
    expect(renewals.length).toBe(66);
    // Registration at 0.1s, nothing changes, so reports at 5m0.1s and 10m0.1s only.
    expect([...heartbeats]).toEqual(['2026-01-01T00:00:00Z', '2026-01-01T00:05:00Z', '2026-01-01T00:10:00Z']);
  });

  it('retries a failed lease renewal with 200ms doubling to 7s and logs it', () => {
    const { c, k } = clusterWithNode();
    c.runUntil(10_100);
    c.applyFault('PartitionNode', { target: 'worker-1' });
    c.advance(40_000);
    const fails = k.host
      .journal('kubelet')
      .filter((j) => j.message.startsWith('"Failed to update lease"'))
      .map((j) => j.t - 20_100);
    expect(fails.slice(0, 8)).toEqual([0, 200, 600, 1400, 3000, 6200, 12600, 19600]);
    expect(
      k.host.journal('kubelet').find((j) => j.message.startsWith('"Failed to update lease"'))!.message
    ).toBe(
      '"Failed to update lease" err="Put \\"https://10.0.0.10:6443/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/worker-1?timeout=10s\\": dial tcp 10.0.0.10:6443: i/o timeout"'
    );
  });
});

function nodeConditionHeartbeat(c: Cluster): string {
  const n = c.api.get<KubeObject>('Node', undefined, 'worker-1');
  return n.status.conditions.find((x: { type: string }) => x.type === 'Ready').lastHeartbeatTime;
}

describe('runtime and network readiness', () => {
  it('reports the runtime down 30s after the last good check, keeping containers running', () => {
    const { c } = clusterWithNode();
    createPod(c);
    c.advance(10_000);
    expect(pod(c)!.status.phase).toBe('Running');
    const stoppedAt = c.now;
    c.applyFault('StopRuntime', { target: 'worker-1' });
    let notReadyAt: number | undefined;
    runWatching(c, stoppedAt + 60_000, () => {
      if (notReadyAt === undefined && nodeCondition(c, 'Ready').status === 'False') notReadyAt = c.now;
    });
    // Last good check at 10s (checks every 5s from 0); down once more than 30s old, seen by the status tick at 40.1s.
    expect(notReadyAt).toBe(40_100);
    expect(nodeCondition(c, 'Ready')).toMatchObject({
      reason: 'KubeletNotReady',
      message: 'container runtime is down'
    });
    expect(events(c, 'NodeNotReady', 'Node/worker-1')).toEqual([
      [40_100, 'Node worker-1 status is now: NodeNotReady']
    ]);
    const host = c.nodeHost('worker-1')!;
    expect(host.runtimeRunning).toBe(false);
    expect(host.containers().map((x) => x.state)).toEqual(['CONTAINER_RUNNING']);
    expect(pod(c)!.status.phase).toBe('Running');
    c.applyFault('StartRuntime', { target: 'worker-1' });
    c.advance(15_000);
    expect(nodeCondition(c, 'Ready').status).toBe('True');
  });

  it("PLEG's last relist is the last housekeeping pass before the runtime stopped, at a pass's instant too", () => {
    // Housekeeping passes every 2 s from the kubelet's start at 0. A stop at 20 s queued before
    // the pass's event (at 0) comes first: the last relist is 18 s. One queued after it (at 19 s)
    // comes after the pass at 20 s. The message shows it once PLEG is past its 3-minute threshold.
    const messages = [0, 19_000, 20_500].map((queuedAt) => {
      const { c } = clusterWithNode();
      c.engine.register('test-stop', () => c.applyFault('StopRuntime', { target: 'worker-1' }));
      c.advance(queuedAt);
      c.engine.scheduleAt(Math.max(20_000, queuedAt), 'test-stop', 'stop');
      c.advance(210_000 - queuedAt);
      return nodeCondition(c, 'Ready').message;
    });
    expect(messages).toEqual([
      'container runtime is down, PLEG is not healthy: pleg was last seen active 3m12.1s ago; threshold is 3m0s',
      'container runtime is down, PLEG is not healthy: pleg was last seen active 3m10.1s ago; threshold is 3m0s',
      'container runtime is down, PLEG is not healthy: pleg was last seen active 3m10.1s ago; threshold is 3m0s'
    ]);
  });

  it('the runtime check at the instant the runtime stops or the CNI config goes: before or after it, as queued', () => {
    // Runtime checks every 5 s from 0. A change at 25 s queued at 0 comes before the check at
    // 25 s; one queued at 24 s comes after it.
    const run = (fault: 'StopRuntime' | 'RemoveCNI', queuedAt: number) => {
      const { c } = clusterWithNode();
      c.engine.register('test-fault', () => c.applyFault(fault, { target: 'worker-1' }));
      c.advance(queuedAt);
      c.engine.scheduleAt(25_000, 'test-fault', fault);
      c.advance(70_000 - queuedAt);
      const networkLines = c
        .nodeHost('worker-1')!
        .journal('kubelet')
        .filter((e) => e.message.includes('network not ready'))
        .map((e) => e.t);
      return { notReady: events(c, 'NodeNotReady', 'Node/worker-1'), networkLines };
    };
    expect([run('StopRuntime', 0), run('StopRuntime', 24_000)]).toEqual([
      { notReady: [[50_100, 'Node worker-1 status is now: NodeNotReady']], networkLines: [] },
      { notReady: [[60_100, 'Node worker-1 status is now: NodeNotReady']], networkLines: [] }
    ]);
    const removed = [run('RemoveCNI', 0), run('RemoveCNI', 24_000)].map((r) => r.networkLines.slice(0, 2));
    expect(removed).toEqual([
      [25_000, 30_000],
      [30_000, 35_000]
    ]);
  });

  it('without CNI config: exact NetworkReady message, pods stay ContainerCreating, hostNetwork pods start', () => {
    const { c, k } = clusterWithNode();
    c.applyFault('RemoveCNI', { target: 'worker-1' });
    expect(c.nodeHost('worker-1')!.cniConfig).toEqual({});
    c.advance(15_000);
    expect(nodeCondition(c, 'Ready')).toEqual(
      expect.objectContaining({ status: 'False', reason: 'KubeletNotReady', message: NETWORK_NOT_READY })
    );
    expect(NETWORK_NOT_READY).toBe(
      'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'
    );
    createPod(c, { name: 'web' });
    createPod(c, { name: 'proxy', spec: { hostNetwork: true } });
    c.advance(5_000);
    const web = pod(c, 'web')!;
    expect(web.status.phase).toBe('Pending');
    expect(web.status.containerStatuses[0].state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(events(c, 'NetworkNotReady')[0]).toEqual([16_000, `network is not ready: ${NETWORK_NOT_READY}`]);
    expect(c.eventLog.find((e) => e.reason === 'NetworkNotReady')!.type).toBe('Warning');
    const proxy = pod(c, 'proxy')!;
    expect(proxy.status.phase).toBe('Running');
    expect(proxy.status.podIP).toBe('10.0.0.11');
    expect(
      k.host.journal('kubelet').some((j) => j.message.startsWith('"Container runtime network not ready"'))
    ).toBe(true);

    c.applyFault('InstallCNI', { target: 'worker-1' });
    expect(Object.keys(k.host.cniConfig)).toEqual(['10-calico.conflist', 'calico-kubeconfig']);
    c.advance(10_000);
    expect(pod(c, 'web')!.status.phase).toBe('Running');
    expect(pod(c, 'web')!.status.podIP).toBe('10.244.0.2');
    expect(nodeCondition(c, 'Ready').status).toBe('True');
  });
});

describe('kubelet stop and restart', () => {
  it('keeps containers running while stopped and does not restart them when it comes back', () => {
    const { c, k } = clusterWithNode();
    createPod(c);
    c.advance(10_000);
    const before = k.host.containers();
    c.applyFault('StopKubelet', { target: 'worker-1' });
    c.applyFault('StopKubelet', { target: 'worker-1' });
    expect(k.host.kubeletRunning).toBe(false);
    expect(k.host.pid('kubelet')).toBeUndefined();
    const leaseAt = c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1').spec.renewTime;
    c.advance(120_000);
    expect(c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1').spec.renewTime).toBe(leaseAt);
    expect(k.host.containers()).toEqual(before);
    expect(pod(c)!.status.phase).toBe('Running');
    // Deleted while the kubelet is down: the pod stays Terminating.
    c.api.delete('Pod', 'default', 'web');
    c.advance(60_000);
    expect(pod(c)!.metadata.deletionTimestamp).toBeDefined();
    c.applyFault('StartKubelet', { target: 'worker-1' });
    c.advance(5_000);
    expect(pod(c)).toBeUndefined();
    expect(events(c, 'Killing')).toEqual([[191_100, 'Stopping container app']]);
    expect(k.host.containers()).toEqual([]);
    expect(c.eventLog.filter((e) => e.reason === 'Started')).toHaveLength(1);
    expect(c.eventLog.filter((e) => e.reason === 'Starting').map((e) => e.t)).toEqual([0, 191_000]);
  });

  it('re-syncs with running containers after a restart without restarting them', () => {
    const { c, k } = clusterWithNode();
    createPod(c);
    c.advance(10_000);
    c.applyFault('StopKubelet', { target: 'worker-1' });
    c.advance(30_000);
    c.applyFault('StartKubelet', { target: 'worker-1' });
    c.advance(30_000);
    const st = pod(c)!.status.containerStatuses[0];
    expect(st.restartCount).toBe(0);
    expect(st.state.running).toBeDefined();
    expect(k.host.containers()).toHaveLength(1);
  });
});

describe('faults', () => {
  it('rejects unknown nodes with a FaultError naming the known ones', () => {
    const { c } = clusterWithNode();
    expect(() => c.applyFault('StopKubelet', { target: 'nope' })).toThrow(
      'unknown node "nope": no kubelet runs there (nodes: worker-1)'
    );
  });

  it('DeleteNode deletes the Node and removes the kubelet', () => {
    const { c } = clusterWithNode();
    c.applyFault('DeleteNode', { target: 'worker-1' });
    expect(c.api.tryGet('Node', undefined, 'worker-1')).toBeUndefined();
    expect(c.nodeHost('worker-1')).toBeUndefined();
    c.advance(60_000);
    expect(c.api.tryGet('Node', undefined, 'worker-1')).toBeUndefined();
  });

  it('PartitionNode stops heartbeats until HealNode', () => {
    const { c } = clusterWithNode();
    c.applyFault('PartitionNode', { target: 'worker-1' });
    const before = c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1').spec.renewTime;
    c.advance(60_000);
    expect(c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1').spec.renewTime).toBe(before);
    c.applyFault('HealNode', { target: 'worker-1' });
    c.advance(8_000);
    expect(c.api.get<KubeObject>('Lease', 'kube-node-lease', 'worker-1').spec.renewTime).not.toBe(before);
  });

  it('a pod deleted during a partition stays Terminating until the node is healed', () => {
    const { c, k } = clusterWithNode();
    createPod(c);
    c.advance(10_000);
    c.applyFault('PartitionNode', { target: 'worker-1' });
    c.api.delete('Pod', 'default', 'web');
    c.advance(120_000);
    expect(pod(c)!.metadata.deletionTimestamp).toBeDefined();
    expect(k.host.containers()[0].state).toBe('CONTAINER_RUNNING');
    c.applyFault('HealNode', { target: 'worker-1' });
    c.advance(2_000);
    expect(pod(c)).toBeUndefined();
    expect(events(c, 'Killing')).toEqual([[132_000, 'Stopping container app']]);
  });

  it('ReconfigureNode resizes the machine and the restarted kubelet reports the new capacity', () => {
    const { c } = clusterWithNode();
    c.advance(5_000);
    c.applyFault('ReconfigureNode', { target: 'worker-1', capacity: { memory: '16Gi', pods: '50' } });
    c.advance(200);
    const n = c.api.get<KubeObject>('Node', undefined, 'worker-1');
    expect(n.status.capacity).toMatchObject({ cpu: '4', memory: '16Gi', pods: '50' });
    expect(n.status.allocatable).toMatchObject({ memory: '16284Mi', pods: '50' });
    expect(c.eventLog.filter((e) => e.reason === 'Starting').map((e) => e.t)).toEqual([0, 6_000]);
    const snap = c.snapshot();
    expect(snap.components.find((x) => x.id === 'kubelet/worker-1')!.args).toMatchObject({
      capacity: { memory: '16Gi' },
      maxPods: 50
    });
    expect(() => c.applyFault('ReconfigureNode', { target: 'worker-1', capacity: { cpu: 'lots' } })).toThrow(
      'invalid capacity cpu: "lots": use a quantity such as 8Gi or 4'
    );
  });
});
