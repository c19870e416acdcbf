// kube-proxy at 5,000 Services: what lesson 20 reads. The rule counts follow the proxiers'
// own generators (pkg/proxy/iptables/proxier.go: KUBE-SERVICES jump + KUBE-SVC masquerade +
// statistic and KUBE-SEP rules per endpoint; pkg/proxy/nftables/proxier.go: service-ips
// verdict-map elements), the sync times the cost model fitted to KEP-3453's 5,000-node figures.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../lessons/checks';
import { ConsoleSession } from '../kubectl/console';
import { kubeProxyOf } from '../network/kubeproxy';
import { networkModel } from '../observe/network';
import { createCluster } from '../scenario/bootstrap';
import type { Cluster } from '../cluster';

const scenario = readFileSync(
  new URL('../../../../lessons/20-kube-proxy-at-scale/scenario.yaml', import.meta.url),
  'utf8'
);

describe('kube-proxy at 5,000 Services', { timeout: 120_000 }, () => {
  let cluster: Cluster;
  let sh: ConsoleSession;
  beforeAll(() => {
    cluster = createCluster(scenario, { fileName: 'scenario.yaml' }).cluster;
    cluster.runUntil(30_000);
    sh = new ConsoleSession(cluster, {});
  }, 120_000);

  it("before: five service ports (web, kubernetes, kube-dns's three), a full sync of about a millisecond, the check not yet true", () => {
    const m = networkModel(cluster, { node: 'worker-1' });
    expect(m.services).toBe(5);
    expect(m.endpoints).toBe(17);
    expect(m.scale?.mode).toBe('iptables');
    expect(m.last!.durationMs).toBeLessThan(5);
    expect(m.excerpt).toBeUndefined();
    expect(evaluate({ kubeProxy: { minServicePorts: 5000 } }, { cluster, answers: {} })).toEqual({
      ok: false,
      // The check walks the nodes in name order: kubeadm's control-plane-1 runs kube-proxy too.
      detail: 'kube-proxy on control-plane-1 has programmed 5 service ports, not yet 5000'
    });
  });

  it('after the load: 160,000 iptables rules, a sync of seconds, a linear first-packet walk', () => {
    expect(sh.exec('nodeplane load services 5000 --selector app=web --port 80').exitCode).toBe(0);
    cluster.runUntil(40_000);
    const m = networkModel(cluster, { node: 'worker-1' });
    expect(m.services).toBe(5005);
    expect(m.endpoints).toBe(50017);
    // 5,001 ports × (2 + 3·10) + kubernetes (2 + 3) + kube-dns' three ports × (2 + 3·2) + the fixed chains.
    expect(Math.round(m.scale!.rules.iptablesRules)).toBe(160_084);
    const sync = m.last!;
    expect(sync.full).toBe(false);
    expect(sync.changed).toBe(5000);
    expect(sync.durationMs).toBeGreaterThan(6000);
    expect(sync.durationMs).toBeLessThan(7000);
    expect(m.scale!.lookup).toMatchObject({ complexity: 'O(n)' });
    expect(Math.round(m.scale!.lookup.steps)).toBe(2511);
    // The view shows the rules of the first service ports only, and says so.
    expect(m.excerpt).toEqual({ shown: 20, total: 5005 });
    expect(m.text).toContain('*nat');
    expect(m.text.split('\n').filter((l) => l.startsWith('-A KUBE-SERVICES')).length).toBeLessThan(30);
    expect(m.traceServices).toContain('web.default:80');
    expect(m.traceServices.length).toBeLessThanOrEqual(25);
    expect(evaluate({ kubeProxy: { minServicePorts: 5000 } }, { cluster, answers: {} }).ok).toBe(true);
    expect(
      evaluate(
        { kubeProxy: { mode: 'nftables', minServicePorts: 5000 } },
        { cluster, answers: {}, lang: 'ru' }
      )
    ).toEqual({
      ok: false,
      detail: 'правила kube-proxy на control-plane-1 — в режиме iptables, а нужно nftables'
    });
  });

  it('switched to nftables: one full sync of about 0.6 s, map lookups, the iptables rules cleaned up', () => {
    cluster.applyFault('SetProxyMode', { target: 'all', mode: 'nftables' });
    cluster.runUntil(45_000);
    const m = networkModel(cluster, { node: 'worker-2' });
    expect(m.scale?.mode).toBe('nftables');
    expect(m.last).toMatchObject({ full: true, changed: 5005 });
    expect(m.last!.durationMs).toBeGreaterThan(550);
    expect(m.last!.durationMs).toBeLessThan(600);
    expect(m.scale!.rules.nftMapElements).toBe(5005);
    expect(m.scale!.lookup).toEqual({ steps: 4, micros: 0.6, complexity: 'O(1)' });
    expect(kubeProxyOf(cluster, 'worker-2')!.state.cleanups.at(-1)).toMatchObject({
      from: 'iptables',
      to: 'nftables'
    });
    expect(
      evaluate({ kubeProxy: { mode: 'nftables', minServicePorts: 5000 } }, { cluster, answers: {} })
    ).toEqual({
      ok: true,
      detail: ''
    });
  });

  it('a stopped kube-proxy fails the check with its node named', () => {
    cluster.applyFault('StopKubeProxy', { target: 'worker-3' });
    expect(evaluate({ kubeProxy: { mode: 'nftables' } }, { cluster, answers: {} }).detail).toBe(
      'kube-proxy on worker-3 is not running'
    );
    expect(evaluate({ kubeProxy: { node: 'control-plane' } }, { cluster, answers: {} }).detail).toBe(
      'no kube-proxy runs on control-plane'
    );
  });
});
