import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { defaultConfig } from '../config';
import type { KubeObject } from '../api/types';
import { cidrContains } from './ip';
import { LB_POOL, LB_PROVISION_MS, NODE_PORT_RANGE, installNetworking } from './index';

const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'default' },
  spec
});

describe('Service allocation', () => {
  it('gives default/kubernetes 10.96.0.1 and others a seeded address from the upper band of the range', () => {
    const ips = (seed: number) => {
      const c = new Cluster(defaultConfig(seed));
      const k = c.api.create(svc('kubernetes', { ports: [{ name: 'https', port: 443, targetPort: 6443 }] }));
      const a = c.api.create(svc('a', { ports: [{ port: 80 }] }));
      return [k.spec.clusterIP, a.spec.clusterIP];
    };
    const [k, a] = ips(5);
    expect(k).toBe('10.96.0.1');
    expect(cidrContains('10.96.0.0/12', a)).toBe(true);
    expect(cidrContains('10.96.0.0/24', a)).toBe(false);
    expect(ips(5)).toEqual([k, a]);
  });

  it('allocates NodePorts in 30000-32767 above the static band and rejects taken or out-of-range ports', () => {
    const c = new Cluster(defaultConfig(1));
    const s = c.api.create(svc('np', { type: 'NodePort', ports: [{ port: 80 }] }));
    const port = s.spec.ports[0].nodePort;
    expect(port).toBeGreaterThanOrEqual(NODE_PORT_RANGE.min + 86);
    expect(port).toBeLessThanOrEqual(NODE_PORT_RANGE.max);
    expect(() =>
      c.api.create(svc('dup', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }))
    ).toThrow(
      `Service "dup" is invalid: spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`
    );
    expect(() => c.api.create(svc('low', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }))).toThrow(
      'Service "low" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767'
    );
    expect(() => c.api.create(svc('ip', { clusterIP: s.spec.clusterIP, ports: [{ port: 80 }] }))).toThrow(
      `Service "ip" is invalid: spec.clusterIPs: Invalid value: []string{"${s.spec.clusterIP}"}: failed to allocate IP ${s.spec.clusterIP}: provided IP is already allocated`
    );
  });

  it('the simulated cloud assigns a LoadBalancer IP after provisioning', () => {
    const c = new Cluster(defaultConfig(1));
    installNetworking(c);
    c.api.create(svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }));
    const created = c.api.get('Service', 'default', 'lb');
    expect(created.spec.healthCheckNodePort).toBeGreaterThan(30000);
    c.advance(LB_PROVISION_MS - 1);
    expect(c.api.get('Service', 'default', 'lb').status?.loadBalancer?.ingress).toBeUndefined();
    c.advance(1);
    const ip = c.api.get('Service', 'default', 'lb').status.loadBalancer.ingress[0].ip;
    expect(ip).toBe('198.51.100.10');
    expect(cidrContains(LB_POOL, ip)).toBe(true);
  });
});
