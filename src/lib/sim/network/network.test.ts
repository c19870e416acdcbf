import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { defaultConfig } from '../config';
import { Random } from '../engine/random';
import { dataplane } from './dataplane';
import { installNetworking, installServiceAllocator, kubeProxyOf, renderTrace, trace } from './index';
import { ciliumServiceList, setKubeProxyReplacement } from './provider';
import { chooseIptables } from './trace';
import { rules } from './costmodel';
import { buildIptables, countRules } from './iptables';
import { collectServicePorts } from './model';
import { nft } from '../node/shell/net';
import type { ShellHost } from '../node/shell/host';

const GOLDEN = new URL('../../../../tests/golden/network/', import.meta.url);

function golden(name: string, actual: string): void {
  const file = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

function node(c: Cluster, name: string, ip: string, podCIDR: string) {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { podCIDR },
    status: { addresses: [{ type: 'InternalIP', address: ip }] }
  });
}

function pod(
  c: Cluster,
  name: string,
  nodeName: string,
  ip: string,
  labels: Record<string, string>,
  ready = true
) {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      nodeName,
      containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }] }]
    },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] }
  });
}

/** A fixed scenario: 2 nodes, web (3 pods, ClusterIP), api (NodePort, Local, 1 pod), sticky (affinity), empty (no pods). */
function scenario(mode: 'iptables' | 'ipvs' | 'nftables' = 'iptables'): Cluster {
  const cfg = defaultConfig(7);
  cfg.network.proxyMode = mode;
  const c = new Cluster(cfg);
  installServiceAllocator(c.api, c);
  node(c, 'worker-1', '10.0.0.11', '10.244.1.0/24');
  node(c, 'worker-2', '10.0.0.12', '10.244.2.0/24');
  pod(c, 'web-1', 'worker-1', '10.244.1.10', { app: 'web' });
  pod(c, 'web-2', 'worker-2', '10.244.2.10', { app: 'web' });
  pod(c, 'web-3', 'worker-2', '10.244.2.11', { app: 'web' });
  pod(c, 'web-4', 'worker-1', '10.244.1.11', { app: 'web' }, false);
  pod(c, 'api-1', 'worker-2', '10.244.2.20', { app: 'api' });
  pod(c, 'client', 'worker-1', '10.244.1.50', { app: 'client' });
  const svc = (name: string, spec: Record<string, unknown>) =>
    c.api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec });
  svc('web', {
    clusterIP: '10.96.100.10',
    selector: { app: 'web' },
    ports: [{ name: 'http', port: 80, targetPort: 'http' }]
  });
  svc('api', {
    type: 'NodePort',
    clusterIP: '10.96.100.20',
    selector: { app: 'api' },
    externalTrafficPolicy: 'Local',
    ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }]
  });
  svc('sticky', {
    clusterIP: '10.96.100.30',
    selector: { app: 'web' },
    sessionAffinity: 'ClientIP',
    ports: [{ port: 8080, targetPort: 8080 }]
  });
  svc('empty', {
    clusterIP: '10.96.100.40',
    selector: { app: 'none' },
    ports: [{ name: 'dns', port: 53, protocol: 'UDP' }]
  });
  installNetworking(c);
  c.advance(2000);
  return c;
}

describe('kube-proxy dataplane dumps (golden)', () => {
  it('iptables-save on worker-1 matches the golden file', () => {
    golden('iptables-save.worker-1.txt', dataplane(scenario('iptables'), 'worker-1')!.iptablesSave());
  });
  it('ipvsadm -Ln on worker-1 matches the golden file', () => {
    const out = dataplane(scenario('ipvs'), 'worker-1')!.ipvsadmList();
    golden('ipvsadm-Ln.worker-1.txt', out);
    for (const l of out.split('\n').filter((x) => x.startsWith('  -> ') && !x.includes('RemoteAddress')))
      expect(l.length).toBe(70);
  });
  it('nft list ruleset on worker-1 matches the golden file', () => {
    golden('nft-list-ruleset.worker-1.txt', dataplane(scenario('nftables'), 'worker-1')!.nftListRuleset());
  });
  // upstream: nftables src/rule.c (do_list_tables, do_list_chain, table_print_declaration), src/cmd.c (ENOENT errors)
  it('nft list tables | table | chain print one table or one chain, errors as nft words them', () => {
    const c = scenario('nftables');
    const run = (line: string) => nft(c, { view: { nodeName: 'worker-1' } } as ShellHost, line.split(' '));
    expect(run('list tables')).toEqual({ stdout: 'table ip kube-proxy\n', stderr: '', exitCode: 0 });
    expect(run('list tables ip6').stdout).toBe('');
    const ruleset = dataplane(c, 'worker-1')!.nftListRuleset();
    expect(run('list table ip kube-proxy').stdout).toBe(ruleset);
    expect(run('list table kube-proxy').stdout).toBe(ruleset);
    const chain = run('list chain ip kube-proxy services').stdout;
    expect(chain.split('\n')[0]).toBe('table ip kube-proxy {');
    expect(chain.split('\n')[1]).toBe('\tchain services {');
    expect(chain.endsWith('\t}\n}\n')).toBe(true);
    expect(ruleset).toContain(chain.split('\n').slice(1, -2).join('\n'));
    expect(chain).not.toContain('comment "rules for kube-proxy"');
    expect(chain.match(/\tchain /g)).toHaveLength(1);
    expect(run('list table ip nat')).toEqual({
      stdout: '',
      stderr: 'Error: No such file or directory\nlist table ip nat\n              ^^^\n',
      exitCode: 1
    });
    expect(run('list table inet kube-proxy').stderr).toBe(
      'Error: No such file or directory; did you mean table \u2018kube-proxy\u2019 in family ip?\nlist table inet kube-proxy\n                ^^^^^^^^^^\n'
    );
    expect(run('list chain ip kube-proxy nope').stderr).toBe(
      'Error: No such file or directory\nlist chain ip kube-proxy nope\n                         ^^^^\n'
    );
  });
  it('ip route on worker-1 (Calico BGP) matches the golden file', () => {
    golden('ip-route.worker-1.calico.txt', dataplane(scenario(), 'worker-1')!.ipRoute());
  });
});

describe('iptables rules', () => {
  it('writes 1/(n-i) probabilities as iptables prints them back and the known chain names', () => {
    const out = dataplane(scenario(), 'worker-1')!.iptablesSave('nat');
    const lines = out.split('\n').filter((l) => l.includes('"default/web:http -> '));
    expect(lines.map((l) => /--probability (\S+)/.exec(l)?.[1] ?? 'last')).toEqual([
      '0.33333333349',
      '0.50000000000',
      'last'
    ]);
    expect(out).toContain('-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN');
    expect(out).toContain('-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000');
  });
  it('rejects traffic to a Service without endpoints in the filter table', () => {
    const out = dataplane(scenario(), 'worker-1')!.iptablesSave('filter');
    expect(out).toContain(
      '-A KUBE-SERVICES -d 10.96.100.40/32 -p udp -m comment --comment "default/empty:dns has no endpoints" -m udp --dport 53 -j REJECT --reject-with icmp-port-unreachable'
    );
  });
  it('the cost model rule count equals what the generator writes', () => {
    const svcs = Array.from({ length: 7 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `s${i}`, namespace: 'default' },
      spec: { clusterIP: `10.96.0.${10 + i}`, ports: [{ name: 'p', port: 80 }] }
    }));
    const slices = svcs.map((s, i) => ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `s${i}-x`,
        namespace: 'default',
        labels: { 'kubernetes.io/service-name': s.metadata.name }
      },
      addressType: 'IPv4',
      ports: [{ name: 'p', port: 8080, protocol: 'TCP' }],
      endpoints: [1, 2, 3, 4].map((j) => ({
        addresses: [`10.244.${i}.${j}`],
        conditions: { ready: true },
        nodeName: 'n2'
      }))
    }));
    const built = buildIptables(collectServicePorts(svcs, slices), {
      nodeName: 'n1',
      nodeIP: '10.0.0.11',
      clusterCIDR: '10.244.0.0/16'
    });
    expect(countRules(built.tables)).toBe(rules(7, 4, 'iptables').iptablesRules);
  });
});

describe('DNAT choice', () => {
  it('spreads connections 1/n over endpoints (statistic rules drawn per rule)', () => {
    const rng = new Random(42);
    for (const n of [2, 3, 5]) {
      const counts = new Array(n).fill(0);
      const N = 60000;
      for (let i = 0; i < N; i++) counts[chooseIptables(n, rng)]++;
      for (const k of counts) expect(Math.abs(k / N - 1 / n)).toBeLessThan(0.01);
    }
  });
  it('traces a pod to the ClusterIP through the exact rules, honouring ClientIP affinity', () => {
    const c = scenario();
    const a = trace(c, 'default/client', '10.96.100.30:8080', { seed: 1 });
    const b = trace(c, 'default/client', '10.96.100.30:8080', { seed: 99 });
    expect(a.verdict).toBe('delivered');
    expect(a.endpoint).toEqual(b.endpoint);
    const t = trace(c, 'default/client', 'web:80', { seed: 3 });
    expect(t.hops[1].rule).toBe(
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES'
    );
    expect(t.hops.some((h) => h.rule?.includes('-j DNAT --to-destination ' + t.endpoint!.ip + ':8080'))).toBe(
      true
    );
    expect(renderTrace(t)).toContain('result: delivered to default/web-');
  });
});

describe('traffic policy Local', () => {
  it('drops NodePort traffic on a node without a local endpoint and delivers on the node with one', () => {
    const c = scenario();
    const onW1 = trace(c, 'external', '10.0.0.11:30080');
    expect(onW1.verdict).toBe('dropped');
    expect(onW1.hops.at(-1)!.rule).toBe(
      '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/api:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 30080 -j DROP'
    );
    const onW2 = trace(c, 'external', '10.0.0.12:30080');
    expect(onW2.verdict).toBe('delivered');
    expect(onW2.endpoint).toMatchObject({ ip: '10.244.2.20', port: 8080 });
    expect(onW2.snat).toBeUndefined();
  });
});

describe('SetProxyMode', () => {
  it('cleans up the old mode and programs the new one; traffic keeps flowing', () => {
    const c = scenario('iptables');
    c.applyFault('SetProxyMode', { target: 'worker-1', mode: 'nftables' });
    c.advance(10);
    const kp = kubeProxyOf(c, 'worker-1')!;
    expect(kp.state.programmedMode).toBe('nftables');
    expect(kp.state.cleanups).toEqual([{ t: 2000, from: 'iptables', to: 'nftables' }]);
    const dp = dataplane(c, 'worker-1')!;
    expect(dp.iptablesSave('nat')).not.toContain('KUBE-SVC-');
    expect(dp.nftListRuleset()).toContain('map service-ips {');
    expect(trace(c, 'default/client', 'web:80').verdict).toBe('delivered');
    expect(kubeProxyOf(c, 'worker-2')!.state.programmedMode).toBe('iptables');
  });
  it('batches changes for minSyncPeriod and syncs partially', () => {
    const c = scenario();
    const kp = kubeProxyOf(c, 'worker-1')!;
    pod(c, 'web-5', 'worker-1', '10.244.1.12', { app: 'web' });
    c.advance(100);
    const before = kp.state.syncs.length;
    expect(kp.state.syncs.at(-1)!.t).toBe(2000);
    pod(c, 'web-6', 'worker-2', '10.244.2.12', { app: 'web' });
    c.advance(800);
    expect(kp.state.syncs.length).toBe(before);
    c.advance(200);
    expect(kp.state.syncs.length).toBe(before + 1);
    expect(kp.state.syncs.at(-1)!.t).toBe(3000);
    const last = kp.state.syncs.at(-1)!;
    expect(last.full).toBe(false);
    expect(last.changed).toEqual(['default/sticky/TCP', 'default/web:http/TCP']);
  });
});

describe('StopKubeProxy / StartKubeProxy', () => {
  it('a stopped kube-proxy keeps its stale rules while endpoints change; a start resyncs in full', () => {
    const c = scenario('iptables');
    c.applyFault('StopKubeProxy', { target: 'worker-1' });
    const kp1 = kubeProxyOf(c, 'worker-1')!;
    const syncs = kp1.state.syncs.length;
    c.api.delete('Pod', 'default', 'web-2');
    c.advance(60_000);
    // worker-1 still sends to the deleted pod's IP; worker-2 dropped it within minSyncPeriod.
    expect(kp1.state.syncs.length).toBe(syncs);
    expect(dataplane(c, 'worker-1')!.iptablesSave('nat')).toContain('--to-destination 10.244.2.10:8080');
    expect(dataplane(c, 'worker-2')!.iptablesSave('nat')).not.toContain('10.244.2.10');
    const stale = kp1.state.ports.find((p) => p.name === 'web' && p.port === 80)!;
    expect(stale.endpoints.map((e) => e.ip).sort()).toEqual([
      '10.244.1.10',
      '10.244.1.11',
      '10.244.2.10',
      '10.244.2.11'
    ]);
    c.applyFault('StartKubeProxy', { target: 'worker-1' });
    c.advance(10);
    const last = kp1.state.syncs.at(-1)!;
    expect(last).toMatchObject({ t: 62_000, full: true });
    expect(dataplane(c, 'worker-1')!.iptablesSave('nat')).not.toContain('10.244.2.10');
    expect(() => c.applyFault('StopKubeProxy', { target: 'worker-9' })).toThrow(
      'no kube-proxy on "worker-9"'
    );
  });
});

describe('other modes and CNI paths', () => {
  it('traces through the nftables verdict map and numgen, then the Calico BGP route to the other node', () => {
    const c = scenario('nftables');
    const r = trace(c, 'default/client', '10.96.100.20:80');
    expect(r.verdict).toBe('delivered');
    expect(r.hops.map((h) => h.where)).toContain('nft kube-proxy/@service-ips');
    expect(r.hops.find((h) => h.where === 'nft kube-proxy/@service-ips')!.rule).toBe(
      '10.96.100.20 . tcp . 80 : goto service-FKIP43JP-default/api/tcp/http'
    );
    const route = r.hops.find((h) => h.where === 'route' && h.node === 'worker-1')!;
    expect(route.rule).toBe('10.244.2.0/26 via 10.0.0.12 dev eth0 proto bird');
    expect(route.action).toContain('BGP');
  });

  it('goes through the IPVS virtual server and real server lines in IPVS mode', () => {
    const c = scenario('ipvs');
    const r = trace(c, 'default/client', '10.96.100.10:80', { seed: 5 });
    expect(r.hops.find((h) => h.where === 'ipvs')!.rule).toBe('TCP  10.96.100.10:80 rr');
    expect(r.hops.filter((h) => h.where === 'ipvs')[1].rule).toMatch(
      /^ {2}-> 10\.244\.\d+\.\d+:8080 +Masq {4}1 {6}0 {10}0 {9}$/
    );
  });

  it('uses flannel.1 (VXLAN VNI 1, UDP 8472) routes with Flannel', () => {
    const c = scenario();
    c.config.network.cni = 'flannel';
    const dp = dataplane(c, 'worker-1')!;
    expect(dp.ipRoute()).toContain('10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink \n');
    expect(dp.ipRoute()).toContain('10.244.1.0/24 dev cni0 proto kernel scope link src 10.244.1.1 \n');
    expect(Object.keys(dp.cniConfigFiles())).toEqual(['10-flannel.conflist']);
    const r = trace(c, 'default/client', '10.96.100.20:80');
    expect(r.hops.find((h) => h.where === 'route')!.action).toContain('VXLAN VNI 1 over UDP 8472');
  });

  it('a restored snapshot keeps the programmed rules and continues syncing identically', () => {
    const c = scenario();
    const restored = Cluster.restore(c.snapshot());
    expect(dataplane(restored, 'worker-2')!.iptablesSave()).toBe(dataplane(c, 'worker-2')!.iptablesSave());
    for (const k of [c, restored]) {
      pod(k, 'web-9', 'worker-2', '10.244.2.99', { app: 'web' });
      k.advance(2000);
    }
    expect(kubeProxyOf(restored, 'worker-2')!.state).toEqual(kubeProxyOf(c, 'worker-2')!.state);
  });
});

describe('Cilium kube-proxy replacement', () => {
  it('has no kube-proxy rules; Services are eBPF map entries and traffic still reaches a backend', () => {
    const cfg = defaultConfig(7);
    cfg.network.cni = 'cilium';
    const c = new Cluster(cfg);
    setKubeProxyReplacement(c, true);
    node(c, 'worker-1', '10.0.0.11', '10.244.1.0/24');
    pod(c, 'web-1', 'worker-1', '10.244.1.10', { app: 'web' });
    pod(c, 'client', 'worker-1', '10.244.1.50', { app: 'client' });
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        clusterIP: '10.96.100.10',
        selector: { app: 'web' },
        ports: [{ name: 'http', port: 80, targetPort: 8080 }]
      }
    });
    installNetworking(c);
    c.advance(1000);
    expect(c.componentsOfKind('kube-proxy')).toEqual([]);
    expect(dataplane(c, 'worker-1')!.iptablesSave('nat')).not.toContain('KUBE-SERVICES');
    expect(ciliumServiceList(c, 'worker-1')).toBe(
      'ID   Frontend                Service Type   Backend\n1    10.96.100.10:80/TCP     ClusterIP      1 => 10.244.1.10:8080/TCP (active)\n'
    );
    const r = trace(c, 'default/client', 'web:80');
    expect(r.verdict).toBe('delivered');
    expect(r.hops.map((h) => h.where)).toContain('cilium eBPF lb4_services_v2');
  });
});
