import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario/bootstrap';
import { ConsoleSession } from '$lib/sim/kubectl/console';
import type { KubeObject } from '$lib/sim/api/types';
import { renderTrace } from '$lib/sim/network/trace';
import { routeLabel, traceStops } from './trace-map';

const scenario = readFileSync('lessons/08-kube-proxy/scenario.yaml', 'utf8');

function lab() {
  const { cluster } = createCluster(scenario, { fileName: 'scenario.yaml' });
  cluster.advance(120_000);
  const pods = cluster.api.list<KubeObject>('Pod').filter((p) => p.metadata.labels?.app === 'web');
  return { cluster, pods };
}

describe('trace on the map', () => {
  it('the console returns the trace it printed; its stops are laid out on the map', () => {
    const { cluster, pods } = lab();
    const src = `default/${pods[0].metadata.name}`;
    const con = new ConsoleSession(cluster);
    const line = `nodeplane trace ${src} web:80`;
    const out = con.exec(line);
    expect(out.exitCode).toBe(0);
    const r = out.trace!;
    expect(renderTrace(r)).toBe(out.stdout);
    expect(r.verdict).toBe('delivered');
    const stops = traceStops(r);
    expect(stops[0]).toEqual({
      kind: 'source',
      node: pods[0].spec!.nodeName,
      pod: src,
      label: `${src} ${pods[0].status!.podIP}`
    });
    expect(stops[1].kind).toBe('proxy');
    expect(stops[1].label).toMatch(/^nat\/KUBE-SEP-[A-Z0-9]{16} · DNAT → 10\.\d+\.\d+\.\d+:80$/);
    const last = stops[stops.length - 1];
    expect(last.kind).toBe('endpoint');
    expect(last.pod).toBe(r.endpoint!.pod);
    if (r.endpoint!.node !== r.from.node)
      expect(stops.map((s) => s.kind)).toEqual(['source', 'proxy', 'egress', 'ingress', 'endpoint']);
    else expect(stops.map((s) => s.kind)).toEqual(['source', 'proxy', 'endpoint']);
  });

  it('names the tunnel or route of each CNI', () => {
    const hop = (action: string) => ({ node: 'w1', where: 'route', action });
    expect(routeLabel(hop('to worker-2 (10.0.0.12) via tunl0: IP-in-IP (protocol 4) to the peer node'))).toBe(
      'tunl0 · IP-in-IP (protocol 4)'
    );
    expect(
      routeLabel(hop('to worker-2 (10.0.0.12) via flannel.1: VXLAN VNI 1 over UDP 8472 to the peer node'))
    ).toBe('flannel.1 · VXLAN VNI 1 over UDP 8472');
    expect(
      routeLabel(
        hop(
          'to worker-2 (10.0.0.12) via eth0: plain routing: BGP (BIRD) route to the peer node, no encapsulation'
        )
      )
    ).toBe('eth0 · plain routing: BGP (BIRD)');
    expect(
      routeLabel(hop('to worker-2 (10.0.0.12) via cilium_vxlan: eBPF, VXLAN (UDP 8472) to the peer node'))
    ).toBe('cilium_vxlan · eBPF, VXLAN (UDP 8472)');
  });

  it('stops at the kube-proxy hop when the Service has no endpoints', () => {
    const { cluster, pods } = lab();
    cluster.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'empty', namespace: 'default' },
      spec: { selector: { app: 'nothing' }, ports: [{ name: 'http', port: 80 }] }
    });
    cluster.advance(5_000);
    const src = `default/${pods[0].metadata.name}`;
    const con = new ConsoleSession(cluster);
    const line = `nodeplane trace ${src} empty:80`;
    const out = con.exec(line);
    const r = out.trace!;
    expect(r.verdict).toBe('rejected');
    expect(traceStops(r).map((s) => [s.kind, s.label])).toEqual([
      ['source', `${src} ${pods[0].status!.podIP}`],
      ['drop', 'filter/KUBE-SERVICES: rejected']
    ]);
  });
});
