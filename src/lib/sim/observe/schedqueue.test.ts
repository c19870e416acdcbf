import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario';
import type { KubeObject } from '$lib/sim/api/types';
import { attemptResults, queuedPodModel, schedulingQueueModel } from './schedqueue';

const scaleUp = readFileSync(
  new URL('../../../../scenarios/autoscaler-scale-up.yaml', import.meta.url),
  'utf8'
);

// upstream: pkg/scheduler/backend/queue/scheduling_queue.go (DefaultPodInitialBackoffDuration 1s,
// DefaultPodMaxBackoffDuration 10s, DefaultPodMaxInUnschedulablePodsDuration 5m) and
// pkg/scheduler/framework/events.go (the labels of the events that move pods) and
// pkg/scheduler/framework/plugins/noderesources/fit.go (EventsToRegister with queueing hints)
describe('the scheduling queue read model', () => {
  it('shows pods that do not fit in unschedulable pods, with what moves them back', () => {
    const { cluster } = createCluster(scaleUp);
    cluster.runUntil(5_000);
    const m = schedulingQueueModel(cluster)!;
    expect(m).toMatchObject({
      running: true,
      initialBackoffMs: 1000,
      maxBackoffMs: 10_000,
      maxInUnschedulableMs: 300_000,
      counts: { active: 0, backoff: 0, unschedulable: 2 }
    });
    const [first] = m.unschedulable;
    expect(first).toEqual({
      pod: first.pod,
      queue: 'unschedulable',
      priority: 0,
      attempts: 1,
      // The workers are full; control-plane-1 has room but its NoSchedule taint is not tolerated.
      plugins: ['NodeResourcesFit', 'TaintToleration'],
      // Tried after kube-system's pods, two more of them now (kube-proxy, calico-node on control-plane-1).
      backoffUntil: 1109,
      since: 109,
      // The first 30 s flush tick after 109 ms + 5 minutes.
      leftoverAt: 330_000,
      // Only what the two rejecting plugins registered: NodeResourcesFit a new node, more
      // allocatable or a pod deleted; TaintToleration a new node, a taint change or the pod's own
      // tolerations (upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
      // EventsToRegister). No label change, no image list.
      movesOn: [
        { event: 'NodeAdd', plugin: 'NodeResourcesFit' },
        { event: 'NodeAdd', plugin: 'TaintToleration' },
        { event: 'NodeUpdateNodeAllocatable', plugin: 'NodeResourcesFit' },
        { event: 'NodeUpdateNodeTaint', plugin: 'TaintToleration' },
        { event: 'AssignedPodDelete', plugin: 'NodeResourcesFit' },
        { event: 'UnschedulablePodUpdate', plugin: 'TaintToleration' }
      ],
      moves: [
        { t: 100, event: 'UnschedulablePodAdd', from: null, to: 'active' },
        { t: 109, event: 'ScheduleAttemptFailure', from: 'active', to: 'unschedulable' }
      ]
    });
    expect(attemptResults(cluster, first.pod)).toEqual([
      { n: 1, t: 109, result: 'unschedulable', plugins: ['NodeResourcesFit', 'TaintToleration'] }
    ]);
  });

  it('moves them back when the autoscaler’s new node is added, and they schedule', () => {
    const { cluster } = createCluster(scaleUp);
    cluster.runUntil(5_000);
    const pods = schedulingQueueModel(cluster)!.unschedulable.map((p) => p.pod);
    // The new machines register at 55.1 s: NodeAdd sends both pods to activeQ.
    cluster.runUntil(55_100);
    const moved = pods.map((k) => queuedPodModel(cluster, k));
    expect(moved.map((p) => p?.queue)).toEqual(['active', 'active']);
    expect(moved[0]!.moves.at(-1)).toEqual({
      t: 55_100,
      event: 'NodeAdd',
      from: 'unschedulable',
      to: 'active'
    });
    cluster.runUntil(56_000);
    expect(schedulingQueueModel(cluster)!.counts).toEqual({ active: 0, backoff: 0, unschedulable: 0 });
    const [ns, name] = pods[0].split('/');
    const node = cluster.api.get<KubeObject>('Pod', ns, name).spec!.nodeName;
    expect(queuedPodModel(cluster, pods[0])).toBeNull();
    const results = attemptResults(cluster, pods[0]);
    // One failed attempt, then the new node. The kubelet's image list update on worker-1 at 10.1 s
    // used to move every waiting pod for a second, useless attempt; no plugin registers it.
    expect(results.map((r) => r.result)).toEqual(['unschedulable', 'scheduled']);
    expect(results.at(-1)).toEqual({ n: 2, t: 55_105, result: 'scheduled', node, plugins: [] });
  });
});
