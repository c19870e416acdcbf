import { render, screen, fireEvent } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { Cluster } from '$lib/sim/cluster';
import { defaultConfig } from '$lib/sim/config';
import { installNetworking } from '$lib/sim/network';
import NetworkView from './NetworkView.svelte';
import ScalingChart from './ScalingChart.svelte';

function cluster(mode: 'iptables' | 'ipvs' | 'nftables'): Cluster {
  const cfg = defaultConfig(2);
  cfg.network.proxyMode = mode;
  const c = new Cluster(cfg);
  c.api.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    spec: { podCIDR: '10.244.1.0/24' },
    status: { addresses: [{ type: 'InternalIP', address: '10.0.0.11' }] }
  });
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: 'worker-1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
    status: { phase: 'Running', podIP: '10.244.1.10', conditions: [{ type: 'Ready', status: 'True' }] }
  });
  c.api.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { clusterIP: '10.96.100.10', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] }
  });
  installNetworking(c);
  c.advance(1000);
  return c;
}

describe('NetworkView', () => {
  it('shows the iptables rules kube-proxy programmed on the node', () => {
    render(NetworkView, { cluster: cluster('iptables'), node: 'worker-1' });
    expect(screen.getByTestId('proxy-mode').textContent).toBe('iptables');
    expect(screen.getByTestId('dump').textContent).toContain(
      '-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment --comment "default/web:http -> 10.244.1.10:80" -j KUBE-SEP-'
    );
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('shows ipvsadm output and the deprecation note in IPVS mode', async () => {
    render(NetworkView, { cluster: cluster('ipvs'), node: 'worker-1' });
    expect(screen.getByRole('note').textContent).toContain('deprecated since Kubernetes v1.35');
    expect(screen.getByTestId('dump').textContent).toContain('TCP  10.96.100.10:80 rr');
    await fireEvent.click(screen.getByRole('tab', { name: 'ip route' }));
    expect(screen.getByTestId('dump').textContent).toContain('blackhole 10.244.1.0/26 proto bird');
  });
});

describe('ScalingChart', () => {
  it('plots one line per mode from the cost model', () => {
    const { container } = render(ScalingChart, { endpointsPerService: 10 });
    const paths = container.querySelectorAll('path[data-mode]');
    expect([...paths].map((p) => p.getAttribute('data-mode'))).toEqual(['iptables', 'ipvs', 'nftables']);
    // IPVS keeps a constant iptables rule count: its line is flat.
    const d = paths[1].getAttribute('d')!;
    const ys = [...d.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => m[1]);
    expect(new Set(ys).size).toBe(1);
  });
});
