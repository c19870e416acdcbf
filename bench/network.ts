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
import { countRules, IptablesProxier, renderIptablesSave } from '../src/lib/sim/network/iptables';
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

/** Targets (issue #21): a full rebuild of 2,000 Services × 10 endpoints, and a one-Service partial sync. */
export const FULL_REBUILD_TARGET_MS = 500;
export const PARTIAL_TARGET_MS = 50;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The real generator: a full rebuild (the first sync of a kube-proxy, then iptables-save of the
 * result) and a partial sync after one Service's endpoints change, in wall and CPU milliseconds.
 */
function iptablesFigures(e: number): string[] {
  const ports = syntheticPorts(2000, e);
  const node = { nodeName: 'n0', nodeIP: '10.0.0.11', clusterCIDR: '10.244.0.0/16' };
  const wall = () => Number(process.hrtime.bigint()) / 1e6;
  const proxier = new IptablesProxier();
  let w0 = wall();
  let c0 = cpuMs();
  const built = proxier.build(ports, node);
  const text = renderIptablesSave(built.tables, Date.UTC(2026, 0, 1));
  const fullWall = wall() - w0;
  const fullCpu = cpuMs() - c0;
  // One Service gains an endpoint: only its chains are written again.
  const next = ports.slice();
  const changed = syntheticPorts(2000, e + 1)[1234];
  next[1234] = changed;
  w0 = wall();
  c0 = cpuMs();
  const partial = proxier.build(next, node);
  const partialWall = wall() - w0;
  const partialCpu = cpuMs() - c0;
  w0 = wall();
  const text2 = renderIptablesSave(partial.tables, Date.UTC(2026, 0, 1));
  const saveWall = wall() - w0;
  const ok = (v: number, t: number) => (v <= t ? 'met' : 'NOT met');
  return [
    `iptables full rebuild, 2,000 services × ${e} endpoints: ${countRules(built.tables)} rules, ${(text.length / 1024).toFixed(0)} KiB iptables-save, ` +
      `${fullWall.toFixed(0)} ms wall (${fullCpu.toFixed(0)} ms CPU) (target ≤ ${FULL_REBUILD_TARGET_MS} ms: ${ok(fullCpu, FULL_REBUILD_TARGET_MS)})`,
    `iptables partial sync, one Service changed: ${proxier.lastWritten.length} service port written, ` +
      `${partialWall.toFixed(1)} ms wall (${partialCpu.toFixed(1)} ms CPU) (target ≤ ${PARTIAL_TARGET_MS} ms: ${ok(partialCpu, PARTIAL_TARGET_MS)}); ` +
      `iptables-save of the result ${saveWall.toFixed(0)} ms (${(text2.length / 1024).toFixed(0)} KiB)`
  ];
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
  out.push(...iptablesFigures(E));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await run()) console.log(line);
}
