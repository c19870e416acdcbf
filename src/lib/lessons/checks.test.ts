import { describe, expect, it } from 'vitest';
import { Cluster } from '../sim/cluster';
import type { KubeObject } from '../sim/api/types';
import { evaluate, podDisplayStatus, type Check } from './checks';

function cluster(): Cluster {
  const c = new Cluster();
  const node = (name: string, labels: Record<string, string>, ready: string, taints: unknown[] = []) =>
    c.api.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels },
      spec: { taints },
      status: {
        conditions: [{ type: 'Ready', status: ready, reason: 'KubeletReady' }],
        allocatable: { memory: '28.5Gi', cpu: '14500m' }
      }
    });
  node('worker-1', { gpu: 'true' }, 'True');
  node('worker-2', {}, 'Unknown', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }]);
  const pod = (
    name: string,
    nodeName: string | undefined,
    phase: string,
    extra: Partial<KubeObject['status']> = {}
  ) =>
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: 'web' } },
      spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
      status: { phase, ...extra }
    });
  pod('web-1', 'worker-1', 'Running', { conditions: [{ type: 'Ready', status: 'True' }] });
  pod('web-2', undefined, 'Pending', {
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.'
      }
    ]
  });
  return c;
}

const ev = (c: Cluster, check: Check, answers: Record<string, boolean> = {}) =>
  evaluate(check, { cluster: c, answers });

describe('lesson checks', () => {
  it('pod Running on a node with a label', () => {
    const c = cluster();
    expect(ev(c, { pod: { name: 'web-1', phase: 'Running', nodeLabels: { gpu: 'true' } } }).ok).toBe(true);
    const r = ev(c, { pod: { name: 'web-2', phase: 'Running' } });
    expect(r).toEqual({
      ok: false,
      detail: 'web-2 is Pending, not Running: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.'
    });
  });

  it('selector counts and notNode', () => {
    const c = cluster();
    expect(ev(c, { pod: { selector: 'app=web', phase: 'Running', min: 1 } }).ok).toBe(true);
    expect(ev(c, { pod: { selector: 'app=web', phase: 'Running', min: 2 } }).detail).toBe(
      '1 of the pods matching app=web qualify, 2 needed'
    );
    expect(ev(c, { pod: { selector: 'app=web', notNode: 'worker-1', min: 2 } }).ok).toBe(false);
  });

  it('node taint, condition and allocatable', () => {
    const c = cluster();
    expect(
      ev(c, {
        node: { name: 'worker-2', taint: { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' } }
      }).ok
    ).toBe(true);
    expect(
      ev(c, { node: { name: 'worker-1', taint: { key: 'node.kubernetes.io/unreachable' } } }).detail
    ).toBe('node worker-1 does not have the taint node.kubernetes.io/unreachable');
    expect(ev(c, { node: { name: 'worker-2', ready: 'Unknown' } }).ok).toBe(true);
    expect(ev(c, { node: { name: 'worker-1', allocatable: { memory: '29184Mi' } } }).ok).toBe(true);
    expect(ev(c, { node: { name: 'worker-1', allocatable: { memory: '28Gi' } } }).ok).toBe(false);
  });

  it('events with a time window', () => {
    const c = cluster();
    const pod = c.api.get('Pod', 'default', 'web-1');
    c.engine.runUntil(350_000);
    c.recorder.event(pod, 'Normal', 'TaintManagerEviction', 'Marking for deletion Pod default/web-1', {
      component: 'taint-eviction-controller'
    });
    expect(
      ev(c, { event: { reason: 'TaintManagerEviction', object: 'Pod/default/web-1', before: '400s' } }).ok
    ).toBe(true);
    expect(ev(c, { event: { reason: 'TaintManagerEviction', before: '300s' } }).detail).toBe(
      'no TaintManagerEviction event before 300s yet'
    );
  });

  it('noPendingPods explains the pending pod; questions; all/any/not', () => {
    const c = cluster();
    expect(ev(c, { noPendingPods: true }).detail).toBe(
      'web-2 is still Pending: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.'
    );
    expect(ev(c, { question: { id: 'q1' } }, { q1: true }).ok).toBe(true);
    expect(ev(c, { all: [{ question: { id: 'q1' } }, { noPendingPods: true }] }, { q1: true }).ok).toBe(
      false
    );
    expect(ev(c, { any: [{ question: { id: 'q1' } }, { noPendingPods: true }] }, { q1: true }).ok).toBe(true);
    expect(ev(c, { not: { node: { name: 'worker-1', ready: 'True' } } }).ok).toBe(false);
  });

  it('explains in Russian', () => {
    const c = cluster();
    expect(evaluate({ pod: { name: 'web-9' } }, { cluster: c, answers: {}, lang: 'ru' }).detail).toBe(
      'Pod web-9 не существует'
    );
  });

  it('podDisplayStatus follows kubectl', () => {
    const p = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x' },
      status: {
        phase: 'Pending',
        containerStatuses: [{ state: { waiting: { reason: 'ImagePullBackOff' } } }]
      }
    } as KubeObject;
    expect(podDisplayStatus(p)).toBe('ImagePullBackOff');
    expect(podDisplayStatus({ ...p, status: { phase: 'Failed', reason: 'Evicted' } })).toBe('Evicted');
  });
});

describe('event checks relative to a fault', () => {
  it('counts only events within the window after the fault', () => {
    const c = cluster();
    const pod = c.api.get('Pod', 'default', 'web-1');
    const check: Check = {
      event: {
        reason: 'TaintManagerEviction',
        afterFault: { action: 'PartitionNode', target: 'worker-1' },
        within: '90s'
      }
    };
    expect(ev(c, check).detail).toBe('PartitionNode on worker-1 has not happened yet');
    c.engine.runUntil(10_000);
    c.faultLog.push({ t: 10_000, action: 'PartitionNode', target: 'worker-1' });
    c.engine.runUntil(120_000);
    c.recorder.event(pod, 'Normal', 'TaintManagerEviction', 'Marking for deletion Pod default/web-1', {
      component: 'x'
    });
    expect(ev(c, check).detail).toBe(
      'no TaintManagerEviction event within 90s of PartitionNode worker-1 yet'
    );
    c.engine.runUntil(121_000);
    const c2 = cluster();
    c2.faultLog.push({ t: 0, action: 'PartitionNode', target: 'worker-1' });
    c2.engine.runUntil(85_000);
    c2.recorder.event(c2.api.get('Pod', 'default', 'web-1'), 'Normal', 'TaintManagerEviction', 'm', {
      component: 'x'
    });
    expect(ev(c2, check).ok).toBe(true);
  });
});

// upstream: prometheus/prometheus rules/alerting.go (alert states); kubernetes-mixin / etcd mixin rules
describe('alert and metric checks', () => {
  it('follow the lab Prometheus: an alert is pending, then firing; a metric is summed over the job’s targets', async () => {
    const { readFileSync } = await import('node:fs');
    const { createCluster } = await import('../sim/scenario');
    const { cluster: c } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'));
    c.runUntil(100_000);
    const down: Check = { alert: { name: 'KubeSchedulerDown', state: 'firing' } };
    const ctx = { cluster: c, answers: {} };
    expect(evaluate({ alert: { name: 'KubeSchedulerDown', state: 'inactive' } }, ctx).ok).toBe(true);
    c.applyFault('StopScheduler', {});
    c.runUntil(130_000);
    expect(evaluate(down, ctx)).toEqual({
      ok: false,
      detail: 'alert KubeSchedulerDown is pending, not firing'
    });
    expect(evaluate({ alert: { name: 'KubeSchedulerDown', state: 'pending' } }, ctx).ok).toBe(true);
    c.runUntil(120_000 + 15 * 60_000);
    expect(evaluate(down, ctx).ok).toBe(true);
    expect(
      evaluate({ alert: { name: 'KubeSchedulerDown', state: 'firing', severity: 'warning' } }, ctx).ok
    ).toBe(false);
    // The kubelets' pods, summed over the three workers; a stopped scheduler serves nothing.
    expect(evaluate({ metric: { job: 'kubelet', name: 'kubelet_running_pods', min: 6 } }, ctx).ok).toBe(true);
    expect(evaluate({ metric: { job: 'etcd', name: 'etcd_server_has_leader', equals: 1 } }, ctx).ok).toBe(
      true
    );
    expect(
      evaluate({ metric: { job: 'etcd', name: 'etcd_disk_wal_fsync_duration_seconds_count', min: 1 } }, ctx)
        .ok
    ).toBe(true);
    expect(evaluate({ metric: { job: 'kube-scheduler', name: 'scheduler_pending_pods' } }, ctx)).toEqual({
      ok: false,
      detail: 'no kube-scheduler target serves scheduler_pending_pods'
    });
    expect(
      evaluate(
        { metric: { job: 'etcd', name: 'etcd_server_leader_changes_seen_total', max: 0 } },
        { ...ctx, lang: 'ru' }
      )
    ).toEqual({ ok: false, detail: 'etcd_server_leader_changes_seen_total у etcd равно 1, а нужно ≤ 0' });
  });
});

// upstream: cmd/kubeadm/app/phases/etcd/local.go (a joining member is a learner until promoted)
describe('etcd membership and alert labels', () => {
  it('counts started voting members, and picks alerts by their labels', async () => {
    const { readFileSync } = await import('node:fs');
    const { createCluster } = await import('../sim/scenario');
    const { cluster: c } = createCluster(
      readFileSync('lessons/14-watch-control-plane/scenario.yaml', 'utf8')
    );
    c.runUntil(20_000);
    const ctx = { cluster: c, answers: {} };
    const three: Check = { etcd: { members: 3 } };
    expect(evaluate(three, ctx)).toEqual({
      ok: false,
      detail: 'etcd has 1 started voting member(s), not 3'
    });
    c.applyFault('JoinControlPlaneNode');
    c.runUntil(21_500);
    // The learner runs but does not vote yet.
    expect(evaluate({ etcd: { members: 1 } }, ctx).ok).toBe(true);
    c.runUntil(25_000);
    c.applyFault('JoinControlPlaneNode');
    c.runUntil(30_000);
    expect(evaluate(three, { ...ctx, lang: 'ru' as const }).ok).toBe(true);
    c.runUntil(5 * 60_000);
    // The failing disk (60s) raised the fsync alert only for the first member's metrics listener.
    const fsync = (instance: string): Check => ({
      alert: { name: 'etcdHighFsyncDurations', severity: 'critical', labels: { instance }, state: 'pending' }
    });
    expect(evaluate(fsync('10.0.0.10:2381'), ctx).ok).toBe(true);
    expect(evaluate(fsync('10.0.0.3:2381'), ctx)).toEqual({
      ok: false,
      detail: 'alert etcdHighFsyncDurations is inactive, not pending'
    });
  });
});
