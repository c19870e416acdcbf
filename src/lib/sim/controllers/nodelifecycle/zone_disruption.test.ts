import { describe, expect, it } from 'vitest';
import type { KubeControllerManager } from '../kube-controller-manager';
import type { NodeLifecycleController } from './node_lifecycle_controller';
import { computeZoneState, getZoneKey } from './zone';
import { nodeTaints, readyOf, testCluster } from '../testing/harness';
import type { Cluster } from '../../cluster';

const zoned = (name: string, zone: string) => ({
  name,
  labels: { 'topology.kubernetes.io/region': 'eu-west-1', 'topology.kubernetes.io/zone': zone }
});

function lifecycle(cluster: Cluster): NodeLifecycleController {
  return cluster
    .component<KubeControllerManager>('kube-controller-manager')!
    .controller('node-lifecycle-controller');
}

function taintKeys(cluster: Cluster, node: string): string[] {
  return nodeTaints(cluster, node)
    .map((t) => `${t.key.replace('node.kubernetes.io/', '')}:${t.effect}`)
    .sort();
}

describe('ComputeZoneState', () => {
  const c = (status: string) => ({ type: 'Ready', status });
  it.each([
    { ready: 5, notReady: 0, state: 'Normal' },
    { ready: 0, notReady: 2, state: 'FullDisruption' },
    { ready: 2, notReady: 3, state: 'PartialDisruption' },
    { ready: 1, notReady: 2, state: 'Normal' },
    { ready: 9, notReady: 11, state: 'PartialDisruption' },
    { ready: 10, notReady: 10, state: 'Normal' }
  ])('$ready ready, $notReady not ready ⇒ $state', ({ ready, notReady, state }) => {
    const conds = [...Array(ready).fill(c('True')), ...Array(notReady).fill(c('Unknown'))];
    expect(computeZoneState(conds, 0.55).state).toBe(state);
  });

  it('keys zones by region and zone labels', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: zoned('a', 'eu-west-1a') };
    expect(getZoneKey(node)).toBe('eu-west-1:\u0000:eu-west-1a');
    expect(getZoneKey({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'b' } })).toBe('');
  });
});

describe('node lifecycle controller: zone disruption', () => {
  it('stops NoExecute tainting in a small zone with ≥55% and more than 2 nodes not ready', () => {
    const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => zoned(n, 'eu-west-1a'));
    const { cluster, harness } = testCluster({ nodes });
    cluster.runUntil(55_000);
    for (const n of ['n1', 'n2', 'n3']) harness.kill(n);
    cluster.runUntil(600_000);
    expect(readyOf(cluster, 'n1')?.status).toBe('Unknown');
    expect(lifecycle(cluster).zoneStates).toEqual({ 'eu-west-1:\u0000:eu-west-1a': 'PartialDisruption' });
    for (const n of ['n1', 'n2', 'n3']) expect(taintKeys(cluster, n)).toEqual(['unreachable:NoSchedule']);
    expect(taintKeys(cluster, 'n4')).toEqual([]);
  });

  it('keeps tainting a zone that is fully down while another zone is healthy', () => {
    const { cluster, harness } = testCluster({
      nodes: [zoned('a1', 'a'), zoned('a2', 'a'), zoned('b1', 'b'), zoned('b2', 'b')]
    });
    cluster.runUntil(55_000);
    harness.kill('a1');
    harness.kill('a2');
    cluster.runUntil(200_000);
    expect(lifecycle(cluster).zoneStates).toEqual({
      'eu-west-1:\u0000:a': 'FullDisruption',
      'eu-west-1:\u0000:b': 'Normal'
    });
    expect(taintKeys(cluster, 'a1')).toEqual(['unreachable:NoExecute', 'unreachable:NoSchedule']);
    expect(taintKeys(cluster, 'a2')).toEqual(['unreachable:NoExecute', 'unreachable:NoSchedule']);
  });

  it('enters master disruption mode when every zone is down: NoExecute taints are removed', () => {
    const { cluster, harness } = testCluster({
      nodes: [zoned('a1', 'a'), zoned('a2', 'a'), zoned('b1', 'b'), zoned('b2', 'b')]
    });
    cluster.runUntil(55_000);
    harness.kill('a1');
    harness.kill('a2');
    cluster.runUntil(150_000);
    expect(taintKeys(cluster, 'a1')).toContain('unreachable:NoExecute');
    harness.kill('b1');
    harness.kill('b2');
    cluster.runUntil(400_000);
    expect(lifecycle(cluster).zoneStates).toEqual({
      'eu-west-1:\u0000:a': 'FullDisruption',
      'eu-west-1:\u0000:b': 'FullDisruption'
    });
    for (const n of ['a1', 'a2', 'b1', 'b2']) {
      expect(readyOf(cluster, n)?.status).toBe('Unknown');
      expect(taintKeys(cluster, n)).toEqual(['unreachable:NoSchedule']);
    }
    // Leaving the mode: every node gets a fresh probe timestamp, then silent nodes are tainted again.
    harness.revive('b1');
    harness.revive('b2');
    cluster.runUntil(500_000);
    expect(lifecycle(cluster).zoneStates['eu-west-1:\u0000:b']).toBe('Normal');
    expect(taintKeys(cluster, 'b1')).toEqual([]);
    expect(taintKeys(cluster, 'a1')).toEqual(['unreachable:NoExecute', 'unreachable:NoSchedule']);
  });
});
