// upstream: pkg/controller/endpoint/endpoints_controller.go (syncService: one Create or Update per
// sync through the controller's clientset), staging/src/k8s.io/client-go/util/flowcontrol
// (the client-side token bucket: kube-controller-manager's --kube-api-qps 20, --kube-api-burst 30)
import { describe, expect, it } from 'vitest';
import { testCluster } from '../testing/harness';
import '../../network';

describe('endpoints controller client', () => {
  it('writes at most 30 times at once, then 20 times a second; a waiting Service is synced once with every change', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] }
    });
    c.advance(1_000);
    const writes: [number, number][] = [];
    c.api.watch('Endpoints', (_t, o) => {
      const subsets = (o.subsets ?? []) as { addresses: unknown[] }[];
      if (o.metadata.name === 'web') writes.push([c.now - start, subsets[0]?.addresses.length ?? 0]);
    });
    const start = c.now;
    // 60 ready pods, one every 5 ms: each changes web's Endpoints.
    for (let i = 0; i < 60; i++) {
      c.api.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `web-${i}`, namespace: 'default', labels: { app: 'web' } },
        spec: { nodeName: 'w1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
        status: {
          phase: 'Running',
          podIP: `10.244.1.${i + 2}`,
          conditions: [{ type: 'Ready', status: 'True' }]
        }
      });
      c.advance(5);
    }
    // The first 33 pods each got their write at once (a burst of 30 and the 3.2 tokens refilled
    // meanwhile); then web waited for a token every 50 ms, and each write had every pod created
    // before it.
    expect(writes).toEqual([
      ...Array.from({ length: 33 }, (_, i) => [i * 5, i + 1]),
      [200, 40],
      [250, 50],
      [300, 60]
    ]);
    c.advance(1_000);
    expect(writes).toHaveLength(36);
  });
});
