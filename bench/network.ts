/**
 * kube-proxy cost model figures: rule counts, sync time, first-packet lookup and programming latency
 * per mode as Services grow, plus the time to generate a real ruleset. Run alone with
 * `npx tsx bench/network.ts` or as part of `npm run bench`.
 */
import {
  firstPacketLookup,
  programmingLatency,
  rules,
  syncTime,
  FITTED
} from '../src/lib/sim/network/costmodel';
import { buildIptables, countRules, renderIptablesSave } from '../src/lib/sim/network/iptables';
import type { ServicePortInfo } from '../src/lib/sim/network/model';

function syntheticPorts(services: number, e: number): ServicePortInfo[] {
  return Array.from({ length: services }, (_, i) => ({
    namespace: 'default',
    name: `svc-${i}`,
    portName: 'http',
    protocol: 'TCP' as const,
    port: 80,
    clusterIP: `10.96.${(i >> 8) & 255}.${i & 255}`,
    type: 'ClusterIP' as const,
    externalIPs: [],
    loadBalancerIPs: [],
    externalPolicyLocal: false,
    internalPolicyLocal: false,
    endpoints: Array.from({ length: e }, (_, j) => ({
      ip: `10.244.${j}.${(i % 250) + 2}`,
      port: 8080,
      nodeName: `n${j}`,
      ready: true,
      serving: true,
      terminating: false
    }))
  }));
}

export async function run(): Promise<string[]> {
  const E = 10;
  const out = [
    `fitted: wait factor ${FITTED.waitFactor.toFixed(3)}, α ${(FITTED.alphaMs * 1000).toFixed(2)} µs/rule, β ${(FITTED.betaMs * 1000).toFixed(2)} µs/line`,
    `services  mode      rules    full sync ms  partial sync ms  lookup steps  lookup µs   (${E} endpoints each)`
  ];
  for (const s of [100, 1000, 5000, 10000]) {
    for (const mode of ['iptables', 'ipvs', 'nftables'] as const) {
      const r = rules(s, E, mode).total;
      const full = syncTime(mode, s, E, { full: true });
      const partial = syncTime(mode, s, E, { full: false, changedServices: Math.max(1, s / 100) });
      const l = firstPacketLookup(mode, s, E);
      out.push(
        `${String(s).padStart(8)}  ${mode.padEnd(8)} ${String(r).padStart(7)} ${full.toFixed(1).padStart(13)} ${partial.toFixed(1).padStart(16)} ${l.steps.toFixed(1).padStart(13)} ${l.micros.toFixed(2).padStart(10)}`
      );
    }
  }
  const p = (full: boolean, min: number) =>
    programmingLatency('iptables', 5000, 30, { minSyncPeriodSeconds: min, partialSync: !full }).toFixed(1);
  out.push(
    `5,000-node test (iptables, p50): full+minSync10 ${p(true, 10)} s, partial+minSync10 ${p(false, 10)} s, partial+minSync1 ${p(false, 1)} s`
  );
  const ports = syntheticPorts(2000, E);
  const t0 = process.hrtime.bigint();
  const built = buildIptables(ports, { nodeName: 'n0', nodeIP: '10.0.0.11', clusterCIDR: '10.244.0.0/16' });
  const text = renderIptablesSave(built.tables, Date.UTC(2026, 0, 1));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  out.push(
    `generator: 2,000 services × ${E} endpoints → ${countRules(built.tables)} rules, ${(text.length / 1024).toFixed(0)} KiB iptables-save, built in ${ms.toFixed(0)} ms`
  );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await run()) console.log(line);
}
