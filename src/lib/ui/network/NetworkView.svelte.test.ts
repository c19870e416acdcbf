import { render, screen, fireEvent } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { Cluster } from '$lib/sim/cluster';
import { defaultConfig } from '$lib/sim/config';
import { installNetworking } from '$lib/sim/network';
import { networkModel, type NetworkSubscription } from '$lib/sim/observe/network';
import NetworkView from './NetworkView.svelte';
import ScalingChart from './ScalingChart.svelte';
import TracePanel from './TracePanel.svelte';
import { trace } from '$lib/sim/network/trace';

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

/** The lab's side of the view: what it subscribes to, and the traces it asks for. */
function fakeLab(trace?: (from: string, to: string) => string | undefined) {
  const subscriptions: (NetworkSubscription | undefined)[] = [];
  return {
    subscriptions,
    networkModel: undefined,
    subscribe: (_part: string, v: unknown) => void subscriptions.push(v as NetworkSubscription | undefined),
    traceConnection: async (from: string, to: string) => trace?.(from, to)
  };
}

describe('NetworkView', () => {
  it('shows the iptables rules kube-proxy programmed on the node', () => {
    const c = cluster('iptables');
    render(NetworkView, { node: 'worker-1', model: networkModel(c, { node: 'worker-1' }) });
    expect(screen.getByTestId('proxy-mode').textContent).toBe('iptables');
    expect(screen.getByTestId('dump').textContent).toContain(
      '-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment --comment "default/web:http -> 10.244.1.10:80" -j KUBE-SEP-'
    );
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('shows ipvsadm output and the deprecation note in IPVS mode; a tab asks the session for its dump', async () => {
    const c = cluster('ipvs');
    const lab = fakeLab();
    const { rerender } = render(NetworkView, {
      lab,
      node: 'worker-1',
      model: networkModel(c, { node: 'worker-1' })
    });
    expect(screen.getByRole('note').textContent).toContain('deprecated since Kubernetes v1.35');
    expect(screen.getByTestId('dump').textContent).toContain('TCP  10.96.100.10:80 rr');
    expect(lab.subscriptions.at(-1)).toEqual({ node: 'worker-1' });
    await fireEvent.click(screen.getByRole('tab', { name: 'ip route' }));
    expect(lab.subscriptions.at(-1)).toEqual({ node: 'worker-1', dump: 'route' });
    await rerender({ lab, node: 'worker-1', model: networkModel(c, { node: 'worker-1', dump: 'route' }) });
    expect(screen.getByTestId('dump').textContent).toContain('blackhole 10.244.1.0/26 proto bird');
  });
});

describe('tracing from the network view', () => {
  it('traces from the first pod to the first Service by default and shows errors', async () => {
    const calls: string[][] = [];
    const lab = fakeLab((from, to) => {
      calls.push([from, to]);
      return calls.length > 1 ? 'service "default/nope" not found' : undefined;
    });
    render(NetworkView, {
      lab,
      node: 'worker-1',
      model: networkModel(cluster('iptables'), { node: 'worker-1' })
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Trace' }));
    expect(calls).toEqual([['default/web-1', 'web.default:80']]);
    await fireEvent.input(screen.getByLabelText('To (Service:port or IP:port)'), {
      target: { value: 'nope:80' }
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Trace' }));
    expect(calls[1]).toEqual(['default/web-1', 'nope:80']);
    expect(screen.getByRole('alert').textContent).toBe('service "default/nope" not found');
  });

  it('lists every hop in order, replies marked, and hides on request', async () => {
    const c = cluster('iptables');
    const r = trace(c, 'default/web-1', 'web:80', { seed: 1 });
    let hidden = 0;
    render(TracePanel, { trace: r, ondismiss: () => hidden++ });
    expect(screen.getByRole('heading').textContent).toBe(
      'Packet trace: default/web-1 (10.244.1.10) → 10.96.100.10:80 (default/web:http)'
    );
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(r.hops.length);
    expect(items.filter((li) => li.textContent!.includes('← reply'))).toHaveLength(
      r.hops.filter((h) => h.reply).length
    );
    await fireEvent.click(screen.getByRole('button', { name: 'Hide the trace' }));
    expect(hidden).toBe(1);
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

  it('shows each node’s kube-proxy mode and a line when the mode switches', () => {
    const c = cluster('iptables');
    const before = render(NetworkView, { node: 'worker-1', model: networkModel(c, { node: 'worker-1' }) });
    expect(screen.getByTestId('proxy-modes').textContent).toMatch(/worker-1\s*:\s*iptables/);
    expect(screen.getByTestId('mode-changes').textContent).toContain('No mode switch yet');
    before.unmount();
    c.applyFault('SetProxyMode', { target: 'all', mode: 'nftables' });
    c.advance(1000);
    render(NetworkView, { node: 'worker-1', model: networkModel(c, { node: 'worker-1' }) });
    expect(screen.getByTestId('proxy-mode').textContent).toBe('nftables');
    expect(screen.getByTestId('mode-changes').textContent).toContain(
      "worker-1: iptables → nftables (kube-proxy restarted, the old mode's rules removed)"
    );
  });
});
