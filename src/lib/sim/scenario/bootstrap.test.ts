/** What a scenario's cluster looks like in its first seconds: registration, readiness, objects. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { Cluster } from '../cluster';
import { createCluster, scenarioFaultFailures } from '.';

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
    // control-plane-1's kubelet registers after the workers' at the same instant.
    expect(cluster.eventLog.filter((e) => e.reason === 'NodeReady').map((e) => [e.t, e.object])).toEqual([
      [100, 'Node/worker-2'],
      [100, 'Node/control-plane-1']
    ]);
  });

  const web = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
`;

  it('applies the objects right after the nodes register: no "no nodes available" at 0s', () => {
    const { cluster } = createCluster(
      scenario('    - { at: 0s, action: StopKubelet, target: worker-2 }', web)
    );
    expect(cluster.api.list('Deployment')).toEqual([]);
    cluster.runUntil(99);
    expect(cluster.api.list('Deployment')).toEqual([]);
    expect(cluster.api.list('Node')).toEqual([]);
    cluster.runUntil(100);
    // worker-2's kubelet was stopped at 0s: it never registers, the objects do not wait for it.
    // (control-plane-1's kubelet, kubeadm's, registers right after the workers'.)
    expect(cluster.api.list('Node').map((n) => n.metadata.name)).toEqual(['worker-1', 'control-plane-1']);
    expect(cluster.api.get<KubeObject>('Deployment', 'default', 'web').metadata.creationTimestamp).toBe(
      '2026-01-01T00:00:00Z'
    );
    cluster.runUntil(10_000);
    expect(cluster.eventLog.filter((e) => e.reason === 'FailedScheduling')).toEqual([]);
    // (kube-system's own pods, kubeadm's and the CNI's, are scheduled beside them.)
    const scheduled = cluster.eventLog.filter(
      (e) => e.reason === 'Scheduled' && e.message.includes(' default/')
    );
    expect(scheduled.map((e) => [e.t, e.message.replace(/web-\w+-\w+/, 'web-*')])).toEqual([
      // After kube-system's own pods, which the installer applied first (100-107 ms, with the
      // kube-proxy and calico-node pods of control-plane-1).
      [108, 'Successfully assigned default/web-* to worker-1'],
      [109, 'Successfully assigned default/web-* to worker-1']
    ]);
    expect(scenarioFaultFailures(cluster)).toEqual([]);
  });

  it('a snapshot taken before the objects are applied still applies them after a restore', () => {
    const a = createCluster(scenario('    []', web)).cluster;
    const b = Cluster.restore(a.snapshot());
    a.runUntil(30_000);
    b.runUntil(30_000);
    expect(b.api.list('Pod', { namespace: 'default' }).length).toBe(2);
    expect(JSON.stringify(b.eventLog)).toBe(JSON.stringify(a.eventLog));
  });
});
