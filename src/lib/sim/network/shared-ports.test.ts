/**
 * kube-proxy's service-port map is built once per change of a Service or its slices, not once per
 * kube-proxy: every node's kube-proxy reads the same stored objects, so the ports built from them
 * are one frozen object, shared by the proxies, the snapshots and a restored cluster.
 * upstream: pkg/proxy/endpointslicecache.go, pkg/proxy/endpointschangetracker.go (each kube-proxy
 * applies only the changes it was told of; the map it ends with is the same).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { defaultConfig } from '../config';
import { installNetworking, installServiceAllocator, kubeProxyOf } from './index';
import { collectServicePorts } from './model';

function cluster(): Cluster {
  const c = new Cluster(defaultConfig(7));
  installServiceAllocator(c.api, c);
  for (const [i, name] of ['worker-1', 'worker-2'].entries())
    c.api.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      spec: { podCIDR: `10.244.${i + 1}.0/24` },
      status: { addresses: [{ type: 'InternalIP', address: `10.0.0.${11 + i}` }] }
    });
  c.api.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] }
  });
  addPod(c, 'web-1', 'worker-1', '10.244.1.5');
  installNetworking(c);
  c.advance(2_000);
  return c;
}

function addPod(c: Cluster, name: string, node: string, ip: string): void {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'nginx:1.27' }] },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] }
  });
}

const web = (c: Cluster, node: string) => kubeProxyOf(c, node)!.state.ports.find((p) => p.name === 'web')!;

describe("kube-proxy's service ports", () => {
  it('are one frozen object for every kube-proxy until the Service or its slices change', () => {
    const c = cluster();
    const a = web(c, 'worker-1');
    expect(a.endpoints.map((e) => `${e.ip}:${e.port}`)).toEqual(['10.244.1.5:8080']);
    expect(Object.isFrozen(a) && Object.isFrozen(a.endpoints[0])).toBe(true);
    expect(web(c, 'worker-2')).toBe(a);
    const live = collectServicePorts(c.api.list('Service'), c.api.list('EndpointSlice'));
    expect(live.find((p) => p.name === 'web')).toBe(a);

    addPod(c, 'web-2', 'worker-2', '10.244.2.9');
    c.advance(2_000);
    const b = web(c, 'worker-1');
    expect(b).not.toBe(a);
    expect(b.endpoints.map((e) => `${e.ip}:${e.port}`)).toEqual(['10.244.1.5:8080', '10.244.2.9:8080']);
    expect(web(c, 'worker-2')).toBe(b);
    for (const node of ['worker-1', 'worker-2'])
      expect(kubeProxyOf(c, node)!.state.syncs.at(-1)).toMatchObject({
        full: false,
        changed: ['default/web:http/TCP'],
        servicePorts: 1,
        endpoints: 2
      });
  });

  it('stay shared through a snapshot and a restore; the next sync writes only what changed', () => {
    const c = cluster();
    const a = web(c, 'worker-1');
    const r = Cluster.restore(c.snapshot());
    expect(web(r, 'worker-1')).toBe(a);
    expect(web(r, 'worker-2')).toBe(a);
    // A restart of the process is a full sync; the next one, after a change elsewhere, is partial.
    r.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api', namespace: 'default' },
      spec: { selector: { app: 'api' }, ports: [{ port: 8080 }] }
    });
    r.advance(2_000);
    expect(kubeProxyOf(r, 'worker-1')!.state.syncs.at(-1)).toMatchObject({
      full: false,
      changed: ['default/api/TCP']
    });
    expect(web(r, 'worker-1')).toBe(a);
  });
});
