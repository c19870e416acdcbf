import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { defaultConfig } from '../config';
import { clone, type KubeObject } from '../api/types';
import { getSchedulingHistory, type KubeScheduler } from './component';
import { makeNode, makePod } from './testing';

/** A cluster whose nodes are Ready (the not-ready taint TaintNodesByCondition adds is lifted). */
function cluster(version = 'v1.35.0'): Cluster {
  const c = new Cluster(defaultConfig(1, version));
  const zone = (z: string) => ({ 'topology.kubernetes.io/zone': z });
  const nodes = [
    makeNode('control-plane', {
      cpu: '2',
      labels: zone('a'),
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]
    }),
    makeNode('worker-1', { cpu: '4', labels: { ...zone('a'), disktype: 'ssd' } }),
    makeNode('worker-2', { cpu: '2', labels: zone('b') }),
    makeNode('worker-3', {
      cpu: '2',
      labels: zone('c'),
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]
    })
  ];
  for (const n of nodes) {
    c.api.create(n);
    const cur = clone(c.api.get<KubeObject>('Node', undefined, n.metadata.name));
    cur.spec.taints = n.spec.taints ?? [];
    c.api.update(cur);
  }
  c.addComponent('kube-scheduler', {});
  return c;
}

const events = (c: Cluster, object: string) =>
  c.eventLog.filter((e) => e.object === object).map((e) => `${e.type} ${e.reason} ${e.message}`);
const nodeOf = (c: Cluster, name: string) => c.api.get<KubeObject>('Pod', 'default', name).spec.nodeName;
const condition = (c: Cluster, name: string, type: string) =>
  (c.api.get<KubeObject>('Pod', 'default', name).status?.conditions ?? []).find(
    (x: { type: string }) => x.type === type
  );

describe('kube-scheduler in a cluster', () => {
  it('places pods by affinity, taints and resources, and explains the rest', () => {
    const c = cluster();
    c.api.create(makePod('ssd', { cpu: '1', spec: { nodeSelector: { disktype: 'ssd' } } }));
    c.api.create(
      makePod('gpu-job', {
        cpu: '1',
        spec: {
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
          nodeSelector: { 'topology.kubernetes.io/zone': 'c' }
        }
      })
    );
    c.api.create(makePod('huge', { cpu: '8' }));
    c.advance(5_000);
    expect(nodeOf(c, 'ssd')).toBe('worker-1');
    expect(nodeOf(c, 'gpu-job')).toBe('worker-3');
    expect(nodeOf(c, 'huge')).toBeUndefined();
    expect(events(c, 'Pod/default/ssd')).toEqual([
      'Normal Scheduled Successfully assigned default/ssd to worker-1'
    ]);
    const huge =
      '0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint(s). preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.';
    expect(events(c, 'Pod/default/huge')).toEqual([`Warning FailedScheduling ${huge}`]);
    expect(condition(c, 'huge', 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: huge
    });
    expect(condition(c, 'ssd', 'PodScheduled')).toMatchObject({ status: 'True' });
    const history = getSchedulingHistory(c, 'default/huge');
    expect(history).toHaveLength(1);
    expect(history[0].nodes['worker-2'].filter.NodeResourcesFit).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['Insufficient cpu']
    });
  });

  it('uses the pre-1.35 taint wording for older clusters', () => {
    const c = cluster('v1.34.2');
    c.api.create(makePod('p', { spec: { nodeSelector: { 'topology.kubernetes.io/zone': 'c' } } }));
    c.advance(1_000);
    expect(events(c, 'Pod/default/p')[0]).toBe(
      "Warning FailedScheduling 0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
    );
  });

  it('preempts a lower-priority pod: DisruptionTarget, graceful deletion, nominatedNodeName, then binds', () => {
    const c = cluster();
    c.api.create(
      makePod('low', { cpu: '1500m', spec: { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } } })
    );
    c.advance(1_000);
    expect(nodeOf(c, 'low')).toBe('worker-2');
    c.api.create({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000
    });
    c.api.create(
      makePod('high', {
        cpu: '1',
        spec: { priorityClassName: 'high', nodeSelector: { 'topology.kubernetes.io/zone': 'b' } }
      })
    );
    c.advance(1_000);
    expect(events(c, 'Pod/default/high')[0]).toBe(
      "Warning FailedScheduling 0/4 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint(s)."
    );
    const high = c.api.get<KubeObject>('Pod', 'default', 'high');
    expect(high.status.nominatedNodeName).toBe('worker-2');
    const low = c.api.get<KubeObject>('Pod', 'default', 'low');
    expect(low.metadata.deletionTimestamp).toBeDefined();
    expect(low.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(condition(c, 'low', 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod'
    });
    expect(events(c, 'Pod/default/low')).toContain(
      `Normal Preempted Preempted by pod ${high.metadata.uid} on node worker-2`
    );
    // While the victim terminates, the preemptor waits instead of preempting again.
    c.advance(3_000);
    expect(getSchedulingHistory(c, 'default/high').at(-1)!.message).toBe(
      "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint(s). preemption: not eligible due to a terminating pod on the nominated node."
    );
    // The kubelet finishes the victim; its deletion moves the preemptor back to the queue.
    c.api.delete('Pod', 'default', 'low', { gracePeriodSeconds: 0 });
    c.advance(11_000);
    expect(nodeOf(c, 'high')).toBe('worker-2');
    expect(c.api.get<KubeObject>('Pod', 'default', 'high').status.nominatedNodeName).toBeUndefined();
  });

  it('backs off 1s, 2s, 4s... for errors and keeps nothing bound without etcd quorum', () => {
    const c = cluster();
    c.applyFault('StopScheduler');
    c.api.create(makePod('p', { cpu: '100m' }));
    c.etcd.stop(c.etcd.snapshot().members[0].name);
    c.applyFault('StartScheduler');
    c.advance(8_000);
    const s = c.component<KubeScheduler>('kube-scheduler')!;
    expect(nodeOf(c, 'p')).toBeUndefined();
    const tries = s.errors.map((e) => e.t);
    // attempt at 1ms, then after 1s, 2s and 4s of backoff
    expect(tries).toEqual([1, 1002, 3003, 7004]);
    expect(s.errors[0].message).toMatch(/^Error scheduling pod default\/p: etcdserver: request timed out/);
    c.etcd.start(c.etcd.snapshot().members[0].name);
    c.advance(10_000);
    expect(nodeOf(c, 'p')).toBeDefined();
  });

  it('StopScheduler leaves pods Pending until StartScheduler', () => {
    const c = cluster();
    c.applyFault('StopScheduler');
    c.api.create(makePod('p'));
    c.advance(60_000);
    expect(nodeOf(c, 'p')).toBeUndefined();
    c.applyFault('StartScheduler');
    c.advance(10);
    expect(nodeOf(c, 'p')).toBeDefined();
  });

  it('retries an unschedulable pod when a node is added, and keeps its attempts', () => {
    const c = cluster();
    c.api.create(
      makePod('big', { cpu: '3', spec: { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } } })
    );
    c.advance(20_000);
    expect(getSchedulingHistory(c, 'default/big')).toHaveLength(1);
    c.api.create(makeNode('worker-4', { cpu: '8', labels: { 'topology.kubernetes.io/zone': 'b' } }));
    c.advance(1_000);
    // The new node still has the not-ready taint: the event moved the pod, the attempt failed again.
    expect(getSchedulingHistory(c, 'default/big')).toHaveLength(2);
    const n = clone(c.api.get<KubeObject>('Node', undefined, 'worker-4'));
    n.spec.taints = [];
    c.api.update(n);
    c.advance(20_000);
    expect(nodeOf(c, 'big')).toBe('worker-4');
    expect(getSchedulingHistory(c, 'default/big').map((a) => a.selectedNode)).toEqual([
      null,
      null,
      'worker-4'
    ]);
  });

  it('flushes an unschedulable pod after 5 minutes and continues identically after a restore', () => {
    const c = cluster();
    c.api.create(makePod('huge', { cpu: '16' }));
    c.advance(1_000);
    const copy = Cluster.restore(c.snapshot());
    for (const x of [c, copy]) x.advance(400_000);
    const times = (x: Cluster) => getSchedulingHistory(x, 'default/huge').map((a) => a.t);
    // first attempt at 1ms; the 30s leftover flush releases it at the first tick after 5 minutes, one cycle later
    expect(times(c)).toEqual([1, 330_001]);
    expect(times(copy)).toEqual(times(c));
    expect(c.eventLog.filter((e) => e.reason === 'FailedScheduling').map((e) => e.count)).toEqual([1, 2]);
  });

  it("keeps a bound pod's last attempt across a snapshot restore, and drops it when the pod is deleted", () => {
    const c = cluster();
    c.api.create(makePod('web', { cpu: '1' }));
    c.advance(1_000);
    const bound = getSchedulingHistory(c, 'default/web');
    expect(bound.map((a) => a.selectedNode)).toEqual([nodeOf(c, 'web')]);
    const copy = Cluster.restore(c.snapshot());
    expect(getSchedulingHistory(copy, 'default/web')).toEqual(bound);
    c.api.delete('Pod', 'default', 'web', { gracePeriodSeconds: 0 });
    c.advance(1_000);
    expect(getSchedulingHistory(c, 'default/web')).toEqual([]);
  });

  it('does not retry on node heartbeats, only on changes a plugin reads', () => {
    const c = cluster();
    c.api.create(
      makePod('big', { cpu: '3', spec: { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } } })
    );
    c.advance(1_000);
    const beat = clone(c.api.get<KubeObject>('Node', undefined, 'worker-2'));
    beat.status.conditions = [{ type: 'Ready', status: 'True', lastHeartbeatTime: c.api.timestamp() }];
    c.api.update(beat, undefined, { subresource: 'status' });
    c.advance(1_000);
    expect(getSchedulingHistory(c, 'default/big')).toHaveLength(1);
    const bigger = clone(c.api.get<KubeObject>('Node', undefined, 'worker-2'));
    bigger.status.allocatable = { ...bigger.status.allocatable, cpu: '4' };
    c.api.update(bigger, undefined, { subresource: 'status' });
    c.advance(1_000);
    expect(nodeOf(c, 'big')).toBe('worker-2');
  });

  // upstream: pkg/scheduler/backend/queue/scheduling_queue.go (MoveAllToActiveOrBackoffQueue,
  // isPodWorthRequeuing) and pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
  // (isSchedulableAfterNodeChange)
  it('keeps a pod in unschedulable pods on a Node label change its affinity ignores, and moves it on one that matches', () => {
    const c = cluster();
    const s = c.component<KubeScheduler>('kube-scheduler')!;
    c.api.create(makePod('nvme', { cpu: '1', spec: { nodeSelector: { disktype: 'nvme' } } }));
    c.advance(20_000);
    const waiting = s.queuedPod('default/nvme')!;
    expect(waiting.where).toBe('unschedulable');
    // The tainted control plane and worker-3 stop at TaintToleration, the others at NodeAffinity.
    expect(waiting.plugins).toEqual(['TaintToleration', 'NodeAffinity']);
    const relabel = (labels: Record<string, string>) => {
      const n = clone(c.api.get<KubeObject>('Node', undefined, 'worker-2'));
      n.metadata.labels = { ...n.metadata.labels, ...labels };
      c.api.update(n);
    };
    relabel({ team: 'payments' });
    c.advance(20_000);
    // NodeAffinity's hint said QueueSkip, and TaintToleration registers no label change.
    expect(s.queuedPod('default/nvme')?.where).toBe('unschedulable');
    expect(getSchedulingHistory(c, 'default/nvme')).toHaveLength(1);
    relabel({ disktype: 'nvme' });
    const moved = s.queuedPod('default/nvme')!;
    expect(moved.where).toBe('active');
    expect(moved.moves!.at(-1)).toMatchObject({
      event: 'NodeUpdateNodeLabel',
      from: 'unschedulable',
      to: 'active'
    });
    c.advance(1_000);
    expect(nodeOf(c, 'nvme')).toBe('worker-2');
    expect(getSchedulingHistory(c, 'default/nvme').map((a) => a.selectedNode)).toEqual([null, 'worker-2']);
  });

  it('moves a pod that did not fit only when a node is uncordoned or a pod on a node goes away', () => {
    const c = cluster();
    const s = c.component<KubeScheduler>('kube-scheduler')!;
    c.api.create(makePod('filler', { cpu: '3', spec: { nodeSelector: { disktype: 'ssd' } } }));
    c.advance(1_000);
    expect(nodeOf(c, 'filler')).toBe('worker-1');
    c.api.create(makePod('wide', { cpu: '3' }));
    c.advance(20_000);
    expect(s.queuedPod('default/wide')?.plugins).toEqual(['TaintToleration', 'NodeResourcesFit']);
    // Cordoning worker-2 is no event; its new label and taint are events nobody rejecting it reads.
    const n = clone(c.api.get<KubeObject>('Node', undefined, 'worker-2'));
    n.spec.unschedulable = true;
    n.metadata.labels = { ...n.metadata.labels, team: 'payments' };
    c.api.update(n);
    c.advance(20_000);
    expect(getSchedulingHistory(c, 'default/wide')).toHaveLength(1);
    // Deleting the pod that fills worker-1 is an AssignedPodDelete NodeResourcesFit queues for.
    c.api.delete('Pod', 'default', 'filler', { gracePeriodSeconds: 0 });
    c.advance(20_000);
    expect(nodeOf(c, 'wide')).toBe('worker-1');
    expect(s.queuedPod('default/wide')).toBeUndefined();
  });

  it("schedules with the profile the pod names, and leaves other schedulers' pods alone", () => {
    const c = new Cluster(defaultConfig(1));
    for (const n of [makeNode('a', { cpu: '4' }), makeNode('b', { cpu: '4' })]) {
      c.api.create(n);
      const cur = clone(c.api.get<KubeObject>('Node', undefined, n.metadata.name));
      cur.spec.taints = [];
      c.api.update(cur);
    }
    c.api.create(makePod('filler', { cpu: '1', nodeName: 'a' }));
    c.addComponent('kube-scheduler', {
      config: {
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        profiles: [
          { schedulerName: 'default-scheduler' },
          {
            schedulerName: 'bin-packing',
            pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }]
          }
        ]
      }
    });
    c.api.create(makePod('spread', { cpu: '1' }));
    c.api.create(makePod('packed', { cpu: '1', spec: { schedulerName: 'bin-packing' } }));
    c.api.create(makePod('other', { spec: { schedulerName: 'my-scheduler' } }));
    c.advance(1_000);
    expect(nodeOf(c, 'spread')).toBe('b');
    expect(nodeOf(c, 'packed')).toBe('a');
    expect(nodeOf(c, 'other')).toBeUndefined();
    expect(c.eventLog.find((e) => e.object === 'Pod/default/packed')!.source).toBe('bin-packing');
    expect(getSchedulingHistory(c, 'default/other')).toEqual([]);
  });
});

describe('scheduling attempts in snapshots', () => {
  it('a recorded attempt is frozen, shared by a snapshot and its restore, and still explains the pod', () => {
    const c = cluster();
    c.api.create(makePod('ssd', { cpu: '1', spec: { nodeSelector: { disktype: 'ssd' } } }));
    c.api.create(makePod('huge', { cpu: '8' }));
    c.advance(5_000);
    const [attempt] = getSchedulingHistory(c, 'default/ssd');
    expect(attempt.selectedNode).toBe('worker-1');
    expect(Object.isFrozen(attempt)).toBe(true);
    expect(Object.isFrozen(attempt.nodes)).toBe(true);
    // Shared, not copied: time travel at 100 nodes / 3,000 pods copied 20 MB of attempts per jump.
    // The history keeps compact frozen records (explanation.ts); the read side builds the attempt.
    const kept = (x: Cluster) =>
      (x.component<KubeScheduler>('kube-scheduler')!.getState() as { history: Record<string, unknown[]> })
        .history['default/ssd'][0];
    const snap = c.snapshot();
    const state = snap.components.find((s) => s.kind === 'kube-scheduler')!.state as {
      history: Record<string, unknown[]>;
    };
    expect(Object.isFrozen(kept(c))).toBe(true);
    expect(state.history['default/ssd'][0]).toBe(kept(c));
    const back = Cluster.restore(snap);
    expect(kept(back)).toBe(kept(c));
    expect(getSchedulingHistory(back, 'default/ssd')[0]).toEqual(attempt);
    // The pod that does not fit is explained the same on the restored cluster.
    expect(getSchedulingHistory(back, 'default/huge')).toEqual(getSchedulingHistory(c, 'default/huge'));
    expect(getSchedulingHistory(back, 'default/huge').at(-1)!.message).toBe(
      '0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint(s). preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.'
    );
  });
});
