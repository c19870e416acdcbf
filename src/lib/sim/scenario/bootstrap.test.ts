/** What a scenario's cluster looks like in its first seconds: registration, readiness, objects. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { createCluster } from '.';

const CNI_NOT_READY =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

const scenario = (faults: string, objects = '') => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: t
spec:
  seed: 5
  nodePools:
    - { name: worker, count: 2 }
  faults:
${faults}
${objects}`;

function ready(node: KubeObject | undefined) {
  const c = (
    (node?.status?.conditions ?? []) as { type: string; status: string; reason: string; message: string }[]
  ).find((x) => x.type === 'Ready');
  return c && { status: c.status, reason: c.reason, message: c.message };
}

describe('scenario bootstrap', () => {
  it('a node whose CNI config is removed at 0s registers NotReady and is never Ready', () => {
    const { cluster } = createCluster(scenario('    - { at: 0s, action: RemoveCNI, target: worker-1 }'));
    cluster.runUntil(100);
    const w1 = cluster.api.get<KubeObject>('Node', undefined, 'worker-1');
    expect(w1.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(ready(w1)).toEqual({ status: 'False', reason: 'KubeletNotReady', message: CNI_NOT_READY });
    expect(ready(cluster.api.get('Node', undefined, 'worker-2'))?.status).toBe('True');
    cluster.runUntil(60_000);
    expect(ready(cluster.api.get('Node', undefined, 'worker-1'))).toEqual({
      status: 'False',
      reason: 'KubeletNotReady',
      message: CNI_NOT_READY
    });
    const w1Events = cluster.eventLog.filter((e) => e.object === 'Node/worker-1').map((e) => e.reason);
    expect(w1Events).not.toContain('NodeReady');
    expect(w1Events).not.toContain('NodeNotReady');
    expect(cluster.eventLog.filter((e) => e.reason === 'NodeReady').map((e) => [e.t, e.object])).toEqual([
      [100, 'Node/worker-2']
    ]);
  });
});
