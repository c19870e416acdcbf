// upstream: pkg/controller/endpoint/endpoints_controller.go (syncService, addEndpointSubset, truncateEndpoints)
// upstream: pkg/api/v1/endpoints/util.go (RepackSubsets)
// upstream: staging/src/k8s.io/endpointslice/util/trigger_time_tracker.go
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { testCluster } from '../testing/harness';
import '../../network';
import {
  LAST_CHANGE_TRIGGER_TIME,
  OVER_CAPACITY,
  repackSubsets,
  truncateSubsets
} from './endpoints_controller';

function pod(c: Cluster, name: string, ip: string, ready: boolean, extra: Partial<KubeObject['spec']> = {}) {
  return c.api.create<KubeObject>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: {
      nodeName: 'w1',
      containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }] }],
      ...extra
    },
    status: {
      phase: 'Running',
      podIP: ip,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: c.api.timestamp() }]
    }
  });
}

function service(c: Cluster, spec: Record<string, unknown>, labels?: Record<string, string>) {
  return c.api.create<KubeObject>({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', ...(labels ? { labels } : {}) },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }], ...spec }
  });
}

const ep = (c: Cluster) => c.api.tryGet<KubeObject>('Endpoints', 'default', 'web');
/* eslint-disable @typescript-eslint/no-explicit-any */
const subsets = (c: Cluster) => ep(c)!.subsets as any[] | undefined;

describe('endpoints controller', () => {
  it('keeps ready pods in addresses and the others in notReadyAddresses, with nodeName and targetRef', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    const a = pod(c, 'a', '10.244.1.3', true);
    const b = pod(c, 'b', '10.244.1.2', false);
    service(c, {}, { app: 'web', tier: 'front' });
    c.advance(100);
    const e = ep(c)!;
    expect(e.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(e.metadata.ownerReferences).toBeUndefined();
    expect(e.subsets).toEqual([
      {
        addresses: [
          {
            ip: '10.244.1.3',
            nodeName: 'w1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: a.metadata.uid }
          }
        ],
        notReadyAddresses: [
          {
            ip: '10.244.1.2',
            nodeName: 'w1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: b.metadata.uid }
          }
        ],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }]
      }
    ]);
  });

  it('leaves terminating pods out, unless the Service publishes not-ready addresses', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    pod(c, 'a', '10.244.1.2', true, { terminationGracePeriodSeconds: 30 });
    service(c, {});
    c.advance(100);
    expect(subsets(c)![0].addresses.map((x: { ip: string }) => x.ip)).toEqual(['10.244.1.2']);
    c.api.delete('Pod', 'default', 'a', { gracePeriodSeconds: 30 });
    c.advance(1);
    expect(subsets(c)).toBeUndefined();
  });

  it('publishes every selected pod as ready with publishNotReadyAddresses', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    pod(c, 'a', '10.244.1.2', false);
    service(c, { publishNotReadyAddresses: true });
    c.advance(100);
    expect(subsets(c)![0].addresses.map((x: { ip: string }) => x.ip)).toEqual(['10.244.1.2']);
    expect(subsets(c)![0].notReadyAddresses).toBeUndefined();
  });

  it('skips Services without a selector and ExternalName Services, and deletes the Endpoints with the Service', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    pod(c, 'a', '10.244.1.2', true);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'manual', namespace: 'default' },
      spec: { ports: [{ port: 80 }] }
    });
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'ext', namespace: 'default' },
      spec: { type: 'ExternalName', externalName: 'example.com', selector: { app: 'web' } }
    });
    service(c, {});
    c.advance(100);
    expect(c.api.tryGet('Endpoints', 'default', 'manual')).toBeUndefined();
    expect(c.api.tryGet('Endpoints', 'default', 'ext')).toBeUndefined();
    expect(ep(c)).toBeDefined();
    c.api.delete('Service', 'default', 'web');
    c.advance(100);
    expect(ep(c)).toBeUndefined();
  });

  it('labels a headless Service’s Endpoints and lists addresses without ports when it has none', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    pod(c, 'a', '10.244.1.2', true, { hostname: 'a', subdomain: 'web' });
    service(c, { clusterIP: 'None', ports: [] });
    c.advance(100);
    const e = ep(c)!;
    expect(e.metadata.labels).toEqual({ 'service.kubernetes.io/headless': '' });
    expect(e.subsets).toEqual([
      { addresses: [expect.objectContaining({ ip: '10.244.1.2', hostname: 'a' })] }
    ]);
  });

  it('stamps last-change-trigger-time: the Service creation first, then the Ready transition that changed it', () => {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    c.advance(5_000);
    const svc = service(c, {});
    c.advance(100);
    expect(ep(c)!.metadata.annotations![LAST_CHANGE_TRIGGER_TIME]).toBe(
      svc.metadata.creationTimestamp as string
    );
    c.advance(10_000);
    pod(c, 'a', '10.244.1.2', true);
    c.advance(100);
    expect(ep(c)!.metadata.annotations![LAST_CHANGE_TRIGGER_TIME]).toBe('2026-01-01T00:00:15Z');
  });

  it('stores subsets frozen all the way down (one port set and mixed ones)', () => {
    const frozen = (v: unknown): boolean =>
      v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(frozen));
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    pod(c, 'a', '10.244.1.3', true);
    pod(c, 'b', '10.244.1.2', false);
    service(c, {});
    c.advance(100);
    expect(subsets(c)).toHaveLength(1);
    expect(frozen(ep(c))).toBe(true);
    pod(c, 'c', '10.244.1.4', true, {
      containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 9090 }] }]
    });
    c.advance(2_000);
    expect(subsets(c)!.length).toBeGreaterThan(1);
    expect(frozen(ep(c))).toBe(true);
  });

  it('groups pods that resolve a named port differently into separate subsets', () => {
    const mk = (ip: string, uid: string, port: number) => ({
      address: { ip, targetRef: { kind: 'Pod' as const, namespace: 'default', name: ip, uid } },
      ready: true,
      port: { name: 'http', port, protocol: 'TCP' }
    });
    const subsets = repackSubsets([
      mk('10.0.0.3', 'u3', 8080),
      mk('10.0.0.1', 'u1', 9090),
      mk('10.0.0.2', 'u2', 8080)
    ]);
    expect(subsets.map((s) => [s.addresses!.map((a) => a.ip), s.ports!.map((p) => p.port)])).toEqual([
      [['10.0.0.1'], [9090]],
      [['10.0.0.2', '10.0.0.3'], [8080]]
    ]);
  });

  it('truncates to 1000 addresses, ready ones first, and marks the object over capacity', () => {
    const addr = (i: number) => ({
      ip: `10.1.${Math.floor(i / 250)}.${i % 250}`,
      targetRef: { kind: 'Pod' as const, namespace: 'default', name: `p${i}`, uid: `u${i}` }
    });
    const subsets = [
      {
        addresses: Array.from({ length: 900 }, (_, i) => addr(i)),
        notReadyAddresses: Array.from({ length: 300 }, (_, i) => addr(1000 + i))
      }
    ];
    expect(truncateSubsets(subsets)).toBe(true);
    expect([subsets[0].addresses.length, subsets[0].notReadyAddresses.length]).toEqual([900, 100]);
    expect(OVER_CAPACITY).toBe('endpoints.kubernetes.io/over-capacity');
  });
});
