import { describe, expect, it } from 'vitest';
import { placeholderCluster } from '../session/placeholder';
import { buildView, stoppedByFaults, ViewBuilder } from './cluster-map';
import { recordReady } from './ready-history';

describe('buildView', () => {
  it('shows three Ready workers with their resources, and the oversized pod pending', () => {
    const c = placeholderCluster();
    c.runUntil(60_000);
    const v = buildView(c);
    expect(v.nodes.map((n) => [n.name, n.ready])).toEqual([
      ['worker-1', 'True'],
      ['worker-2', 'True'],
      ['worker-3', 'True']
    ]);
    const cpu = v.nodes[0].resources.find((r) => r.name === 'cpu')!;
    expect(cpu.label.capacity).toBe('4');
    expect(v.nodes.map((n) => n.resources.map((r) => r.name))).toEqual([
      ['cpu', 'memory', 'pods'],
      ['cpu', 'memory', 'pods'],
      ['cpu', 'memory', 'pods']
    ]);
    expect(v.pendingPods.map((p) => p.key)).toEqual(['default/big']);
    const web = v.nodes.flatMap((n) => n.pods).filter((p) => p.owner?.startsWith('ReplicaSet/web-'));
    expect(web).toHaveLength(3);
    expect(web.every((p) => p.status === 'Running')).toBe(true);
    expect(v.controlPlane.scheduler).toEqual({ present: true, running: true });
    expect(v.controlPlane.etcd).toEqual({
      members: [{ name: 'etcd-0', running: true, leader: true }],
      quorum: true,
      need: 1
    });
  });

  it('after StopKubelet the node goes Unknown, gets the unreachable taints and counts down to eviction', () => {
    const c = placeholderCluster();
    c.runUntil(60_000);
    c.applyFault('StopKubelet', { target: 'worker-1' });
    expect(buildView(c).nodes[0].kubeletRunning).toBe(false);
    c.runUntil(60_000 + 120_000);
    const n = buildView(c).nodes[0];
    expect(n.ready).toBe('Unknown');
    expect(n.taints.map((t) => `${t.key}:${t.effect}`).sort()).toEqual([
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule'
    ]);
    const counting = n.pods.filter((p) => p.evictionIn !== undefined);
    expect(counting.length).toBeGreaterThan(0);
    // DefaultTolerationSeconds: 300 s from the taint's timeAdded.
    for (const p of counting) {
      expect(p.evictionIn).toBeGreaterThan(200_000);
      expect(p.evictionIn).toBeLessThanOrEqual(300_000);
      // The ring's whole: the toleration the countdown started from.
      expect(p.evictionTotal).toBe(300_000);
    }
    expect(n.pods.filter((p) => p.evictionIn === undefined).every((p) => p.evictionTotal === undefined)).toBe(
      true
    );
  });

  it('reads control-plane state from the fault log when a component has no running flag', () => {
    const faults = [
      { action: 'StopScheduler' },
      { action: 'StopKubelet', target: 'worker-1' },
      { action: 'StartKubelet', target: 'worker-1' }
    ];
    expect(stoppedByFaults(faults, 'kube-scheduler', 'StopScheduler', 'StartScheduler')).toBe(true);
    expect(stoppedByFaults(faults, 'worker-1', 'StopKubelet', 'StartKubelet')).toBe(false);
    expect(stoppedByFaults(faults, 'worker-2', 'StopKubelet', 'StartKubelet')).toBe(false);
  });
});

describe('recordReady', () => {
  it('dates changes by lastTransitionTime and drops entries after the clock when time jumps back', () => {
    const node = (ready: 'True' | 'Unknown', readySince: number) => ({
      name: 'w',
      exists: true,
      ready,
      readySince
    });
    let h = recordReady({}, { now: 0, nodes: [node('True', 0)] });
    h = recordReady(h, { now: 10_000, nodes: [node('True', 0)] });
    // One frame covered 10 s → 5 min; the change is dated by lastTransitionTime, not the frame.
    h = recordReady(h, { now: 300_000, nodes: [node('Unknown', 55_000)] });
    expect(h).toEqual({
      w: [
        { t: 0, status: 'True' },
        { t: 55_000, status: 'Unknown' }
      ]
    });
    h = recordReady(h, { now: 30_000, nodes: [node('True', 0)] });
    expect(h).toEqual({ w: [{ t: 0, status: 'True' }] });
  });
});

describe('ViewBuilder', () => {
  it('keeps the objects of what did not change, and rebuilds what did', () => {
    const c = placeholderCluster();
    c.runUntil(60_000);
    const b = new ViewBuilder(c);
    const v1 = b.build();
    const v2 = b.build();
    expect(v2.nodes).toBe(v1.nodes);
    expect(v2.pendingPods).toBe(v1.pendingPods);
    expect(v2.controlPlane).toBe(v1.controlPlane);
    // Lease renewals (every 10 s) change the heartbeat, not the pods or the bars.
    c.runUntil(70_000);
    const v3 = b.build();
    const [a, n] = [v1.nodes[0], v3.nodes[0]];
    expect(n).not.toBe(a);
    expect(n.leaseRenewedAt).toBeGreaterThan(a.leaseRenewedAt!);
    expect(n.pods).toBe(a.pods);
    expect(n.resources).toBe(a.resources);
    expect(n.taints).toBe(a.taints);
    expect(v3).toEqual(buildView(c));
  });

  it('rebuilds a node whose countdown runs on every frame', () => {
    const c = placeholderCluster();
    c.runUntil(60_000);
    c.applyFault('StopKubelet', { target: 'worker-1' });
    c.runUntil(60_000 + 120_000);
    const b = new ViewBuilder(c);
    const first = b.build().nodes[0].pods.find((p) => p.evictionIn !== undefined)!;
    c.runUntil(60_000 + 121_000);
    const later = b.build().nodes[0].pods.find((p) => p.key === first.key)!;
    expect(first.evictionIn! - later.evictionIn!).toBe(1000);
  });
});
