/**
 * kube-proxy's partial sync: after a change to some Services only their chains are written again,
 * and what is programmed is exactly what a sync from nothing would program.
 * upstream: pkg/proxy/iptables/proxier.go (syncProxyRules, tryPartialSync: only the changed
 * services' KUBE-SVC-/KUBE-SEP- chains are written), pkg/proxy/nftables/proxier.go (the same for
 * service- and endpoint- chains), pkg/proxy/ipvs/proxier.go.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { defaultConfig } from '../config';
import { dataplane } from './dataplane';
import { installNetworking, installServiceAllocator, kubeProxyOf } from './index';
import { IptablesProxier, buildIptables, renderIptablesSave } from './iptables';
import { renderIptablesList } from './listing';
import { IpvsProxier, buildIpvs, renderIpvsadm } from './ipvs';
import type { EndpointInfo, ServicePortInfo } from './model';
import { NftablesProxier, buildNftables, renderNft } from './nftables';

const NODE = { nodeName: 'n0', nodeIP: '10.0.0.11', clusterCIDR: '10.244.0.0/16' };
const WALL = Date.UTC(2026, 0, 1);

function ep(i: number, j: number, o: Partial<EndpointInfo> = {}): EndpointInfo {
  return {
    ip: `10.244.${j}.${(i % 250) + 2}`,
    port: 8080,
    nodeName: `n${j % 3}`,
    ready: true,
    serving: true,
    terminating: false,
    ...o
  };
}

/** Service ports of every shape the proxiers write: ClusterIP, NodePort, LoadBalancer, Local, affinity, none. */
function port(i: number, endpoints = 3, o: Partial<ServicePortInfo> = {}): ServicePortInfo {
  const kind = i % 5;
  return {
    namespace: i % 2 ? 'default' : 'shop',
    name: `svc-${i}`,
    portName: i % 3 ? 'http' : '',
    protocol: i % 7 === 3 ? 'UDP' : 'TCP',
    port: 80 + (i % 4),
    clusterIP: `10.96.${(i >> 8) & 255}.${i & 255}`,
    type: kind === 1 ? 'NodePort' : kind === 2 ? 'LoadBalancer' : 'ClusterIP',
    ...(kind === 1 || kind === 2 ? { nodePort: 30000 + i } : {}),
    ...(kind === 2 ? { healthCheckNodePort: 32000 + i } : {}),
    externalIPs: kind === 3 ? [`192.0.2.${i & 255}`] : [],
    loadBalancerIPs: kind === 2 ? [`203.0.113.${i & 255}`] : [],
    ...(kind === 4 ? { affinitySeconds: 10800 } : {}),
    externalPolicyLocal: kind === 2 && i % 2 === 0,
    internalPolicyLocal: kind === 0 && i % 4 === 0,
    endpoints: Array.from({ length: endpoints }, (_, j) =>
      ep(i, j, j === 2 && i % 6 === 0 ? { ready: false, terminating: true } : {})
    ),
    ...o
  };
}

const key = (sp: ServicePortInfo) =>
  `${sp.namespace}/${sp.name}${sp.portName ? ':' + sp.portName : ''}/${sp.protocol.toLowerCase()}`;

describe('partial sync renders what a full sync renders', () => {
  it('keeps iptables-save, nft list ruleset and ipvsadm -Ln byte-identical through a sequence of changes', () => {
    const ipt = new IptablesProxier();
    const nft = new NftablesProxier();
    const ipvs = new IpvsProxier();
    let ports = Array.from({ length: 60 }, (_, i) => port(i));
    const check = (changed: string[], others = changed) => {
      const a = renderIptablesSave(ipt.build(ports, NODE).tables, WALL);
      expect(a).toBe(renderIptablesSave(buildIptables(ports, NODE).tables, WALL));
      expect(renderNft(nft.build(ports, NODE))).toBe(renderNft(buildNftables(ports, NODE)));
      expect(renderIpvsadm(ipvs.build(ports, NODE))).toBe(renderIpvsadm(buildIpvs(ports, NODE)));
      expect(ipt.lastWritten).toEqual(changed);
      for (const p of [nft, ipvs]) expect(p.lastWritten).toEqual(others);
    };
    check(ports.map(key));
    // Nothing changed: nothing is written, even when the port infos are new, equal objects.
    ports = ports.map((p) => structuredClone(p));
    check([]);
    // One Service's endpoints change (a pod became ready elsewhere).
    ports[7] = port(7, 4);
    check([key(ports[7])]);
    // One endpoint starts terminating; another Service loses all its endpoints.
    ports[12] = port(12, 3, { endpoints: [ep(12, 0), ep(12, 1, { ready: false, terminating: true })] });
    ports[20] = port(20, 0);
    check([key(ports[12]), key(ports[20])]);
    // A Service is deleted and another created (its chains disappear and appear).
    const gone = ports.splice(30, 1);
    expect(gone).toHaveLength(1);
    ports.push(port(99));
    check([key(port(99))]);
    // A type change: ClusterIP to NodePort with Local external policy.
    ports[5] = { ...port(5), type: 'NodePort', nodePort: 31005, externalPolicyLocal: true };
    check([key(ports[5])]);
    // Past 1000 endpoints the iptables proxier drops rule comments everywhere, so every chain is
    // written again; nftables and IPVS have no such mode.
    ports[0] = port(0, 1000);
    check(ports.map(key), [key(ports[0])]);
    ports[0] = port(0, 3);
    check(ports.map(key), [key(ports[0])]);
  });

  it('writes one Service of 2,000 again, not the other 1,999', () => {
    const ipt = new IptablesProxier();
    const ports = Array.from({ length: 2000 }, (_, i) => port(i, 2, { affinitySeconds: undefined }));
    ipt.build(ports, NODE);
    expect(ipt.lastWritten).toHaveLength(2000);
    const next = ports.slice();
    next[1234] = port(1234, 3);
    const built = ipt.build(next, NODE);
    expect(ipt.lastWritten).toEqual([key(next[1234])]);
    expect(renderIptablesSave(built.tables, WALL)).toBe(
      renderIptablesSave(buildIptables(next, NODE).tables, WALL)
    );
  });

  it("iptables -L counts each chain's references and lists its rules as a per-chain scan does", () => {
    const nat = buildIptables(
      Array.from({ length: 60 }, (_, i) => port(i)),
      NODE
    ).tables.nat;
    const text = renderIptablesList(nat);
    for (const c of nat.chains) {
      // The definition: rules whose spec jumps to the chain, at the end or followed by a space.
      const refs = nat.rules.filter((r) => r.spec.endsWith(`-j ${c}`) || r.spec.includes(`-j ${c} `)).length;
      expect(text).toContain(`Chain ${c} (${refs} references)\n`);
      expect(renderIptablesList(nat, c).split('\n').length - 3).toBe(
        nat.rules.filter((r) => r.chain === c).length
      );
    }
    expect(text).toContain('Chain KUBE-MARK-MASQ (');
  });

  it('a node shell sees the same rules after a partial sync as after a full one', () => {
    for (const mode of ['iptables', 'ipvs', 'nftables'] as const) {
      const cfg = defaultConfig(7);
      cfg.network.proxyMode = mode;
      const c = new Cluster(cfg);
      installServiceAllocator(c.api, c);
      c.api.create({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'worker-1', labels: { 'kubernetes.io/hostname': 'worker-1' } },
        spec: { podCIDR: '10.244.1.0/24' },
        status: { addresses: [{ type: 'InternalIP', address: '10.0.0.11' }] }
      });
      for (const name of ['web', 'api'])
        c.api.create({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name, namespace: 'default' },
          spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] }
        });
      const addPod = (name: string, app: string, ip: string) =>
        c.api.create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'default', labels: { app } },
          spec: { nodeName: 'worker-1', containers: [{ name: 'app', image: 'nginx:1.27' }] },
          status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] }
        });
      addPod('web-1', 'web', '10.244.1.5');
      addPod('api-1', 'api', '10.244.1.6');
      installNetworking(c);
      c.advance(2_000);
      const kp = kubeProxyOf(c, 'worker-1')!;
      const node = { nodeName: 'worker-1', nodeIP: '10.0.0.11', clusterCIDR: cfg.network.clusterCIDR };
      const dump = () => {
        const dp = dataplane(c, 'worker-1')!;
        return mode === 'iptables'
          ? dp.iptablesSave()
          : mode === 'ipvs'
            ? dp.ipvsadmList()
            : dp.nftListRuleset();
      };
      const fromScratch = () =>
        mode === 'iptables'
          ? renderIptablesSave(buildIptables(kp.state.ports, node).tables, c.api.epochMs + c.now)
          : mode === 'ipvs'
            ? renderIpvsadm(buildIpvs(kp.state.ports, node, kp.state.scheduler))
            : renderNft(buildNftables(kp.state.ports, node));
      expect(dump()).toContain('10.244.1.5');
      expect(dump()).toBe(fromScratch());
      addPod('web-2', 'web', '10.244.1.7');
      c.advance(2_000);
      expect(kp.state.syncs.at(-1)).toMatchObject({ full: false, changed: ['default/web:http/TCP'] });
      const partial = dump();
      expect(partial).toContain('10.244.1.7');
      expect(partial).toBe(fromScratch());
    }
  });
});
