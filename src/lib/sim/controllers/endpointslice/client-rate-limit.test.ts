// upstream: staging/src/k8s.io/endpointslice/reconciler.go (finalize: a sync's creates, updates
// and deletes go through the controller's clientset), staging/src/k8s.io/client-go/util/flowcontrol
// (the client-side token bucket: kube-controller-manager's --kube-api-qps 20, --kube-api-burst 30)
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../cluster';
import { testCluster } from '../testing/harness';
import '../../network';

function setup(): { c: Cluster; writes: [number, string, number][]; addPod: (i: number) => void } {
  const { cluster: c } = testCluster({ nodes: ['w1'] });
  c.api.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] }
  });
  c.advance(1_000);
  const start = c.now;
  const writes: [number, string, number][] = [];
  c.api.watch('EndpointSlice', (t, o) => {
    if (o.metadata.labels?.['kubernetes.io/service-name'] === 'web')
      writes.push([c.now - start, t, ((o.endpoints ?? []) as unknown[]).length]);
  });
  const addPod = (i: number) =>
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `web-${String(i).padStart(4, '0')}`, namespace: 'default', labels: { app: 'web' } },
      spec: { nodeName: 'w1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
      status: {
        phase: 'Running',
        podIP: `10.244.${1 + (i >> 8)}.${i & 255}`,
        conditions: [{ type: 'Ready', status: 'True' }]
      }
    });
  return { c, writes, addPod };
}

describe('EndpointSlice controller client', () => {
  it('writes at most 30 times at once, then 20 times a second; a waiting Service is synced once with every change', () => {
    const { c, writes, addPod } = setup();
    for (let i = 0; i < 60; i++) {
      addPod(i);
      c.advance(5);
    }
    c.advance(1_000);
    expect(writes).toEqual([
      ...Array.from({ length: 33 }, (_, i) => [i * 5, 'MODIFIED', i + 1]),
      [200, 'MODIFIED', 40],
      [250, 'MODIFIED', 50],
      [300, 'MODIFIED', 60]
    ]);
  });

  it("sends a sync's writes together and owes the tokens it lacked: the next sync waits for them", () => {
    const { c, writes, addPod } = setup();
    // 29 writes, one a millisecond: about one token is left.
    for (let i = 0; i < 29; i++) {
      addPod(i);
      c.advance(1);
    }
    // 250 more pods at once: one sync fills the slice and creates two more (3 writes).
    for (let i = 29; i < 279; i++) addPod(i);
    c.advance(1);
    addPod(279);
    c.advance(1_000);
    expect(writes.slice(29)).toEqual([
      [29, 'MODIFIED', 100],
      [29, 'ADDED', 100],
      [29, 'ADDED', 79],
      // The pod added at 30 ms waits until the bucket is back above one token (1.4 owed, so
      // about 2.4 tokens at 20 a second), and is then written in the same sync as the slices'
      // order by name (their names are generated) asks for.
      [151, 'MODIFIED', 100],
      [151, 'MODIFIED', 80]
    ]);
  });
});
