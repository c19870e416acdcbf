import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario';
import { buildCpModel } from './controlplane';
import { curves, formatMs } from './sizing';

const text = readFileSync(new URL('../../../../scenarios/ha-failover.yaml', import.meta.url), 'utf8');

describe('control-plane view model', () => {
  it('shows quorum, leaders and the sizing actions of a three-node stacked control plane', () => {
    const { cluster } = createCluster(text);
    cluster.runUntil(30_000);
    const cp = buildCpModel(cluster);
    expect(cp.topology).toBe('stacked');
    expect(cp.etcd).toMatchObject({ running: 3, quorum: 2, tolerated: 1, hasQuorum: true, spare: 1 });
    expect(cp.quorumRows.find((r) => r.current)).toEqual({
      members: 3,
      quorum: 2,
      tolerated: 1,
      current: true
    });
    expect(cp.leaders.map((l) => [l.lease, l.holder.split('_')[0], l.renewedAgoMs, l.instances])).toEqual([
      ['kube-scheduler', 'control-plane-1', 0, 3],
      ['kube-controller-manager', 'control-plane-1', 0, 3]
    ]);
    expect(cp.actions.map((a) => [a.action, a.target ?? ''])).toEqual([
      ['ResizeControlPlane', '1'],
      ['ResizeControlPlane', '4'],
      // kubeadm's stacked hosts: a joined control-plane node brings an etcd member with it.
      ['JoinControlPlaneNode', ''],
      ['RemoveApiServer', 'kube-apiserver-control-plane-3']
    ]);
    expect(cp.actions[2]).toMatchObject({
      values: { host: 'control-plane-4' },
      note: { key: 'ops.cp.notes.join', values: { host: 'control-plane-4' } }
    });
    // At 60 s two etcd members stop: quorum lost, nothing spare.
    cluster.runUntil(61_000);
    expect(buildCpModel(cluster).etcd).toMatchObject({ running: 1, hasQuorum: false, spare: 0 });
  });

  it('counts quorum over voting members while a joined learner catches up', () => {
    // upstream: cmd/kubeadm/app/phases/etcd/local.go (the joining member is a learner until promoted)
    const { cluster } = createCluster(
      readFileSync(
        new URL('../../../../lessons/14-watch-control-plane/scenario.yaml', import.meta.url),
        'utf8'
      )
    );
    cluster.runUntil(20_000);
    cluster.applyFault('JoinControlPlaneNode');
    cluster.runUntil(21_500);
    let cp = buildCpModel(cluster);
    expect(cp.etcd.members.map((m) => [m.name, m.host, m.running, m.learner])).toEqual([
      ['etcd-0', 'control-plane-1', true, false],
      ['etcd-1', 'control-plane-2', true, true]
    ]);
    expect(cp.etcd).toMatchObject({ running: 1, quorum: 1, tolerated: 0 });
    cluster.runUntil(24_000);
    cp = buildCpModel(cluster);
    expect(cp.etcd).toMatchObject({ running: 2, quorum: 2, tolerated: 0, spare: 0 });
    expect(cp.quorumRows.find((r) => r.current)?.members).toBe(2);
    expect(cp.actions.find((a) => a.action === 'JoinControlPlaneNode')?.values).toEqual({
      host: 'control-plane-3'
    });
  });

  it('draws the current sizing and the next sizes up', () => {
    const c = curves(3, 2, 20);
    expect(c.map((x) => [x.id, x.apiServers, x.cores, x.limit])).toEqual([
      ['current', 3, 2, 911],
      ['cores-4', 3, 4, 2224],
      ['cores-8', 3, 8, 4851],
      ['servers-4', 4, 2, 1344]
    ]);
    // Each curve only rises with nodes.
    for (const x of c)
      for (let i = 1; i < x.points.length; i++)
        expect(x.points[i][1]).toBeGreaterThanOrEqual(x.points[i - 1][1]);
  });

  it('formats latencies', () => {
    expect([27.2, 1000, 1450, 60_000].map((v) => formatMs(v))).toEqual(['27 ms', '1 s', '1.4 s', '60 s']);
    expect(formatMs(27.2, { ms: 'мс', s: 'с' })).toBe('27 мс');
  });
});
