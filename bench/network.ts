/**
 * kube-proxy cost model figures: rule counts, sync time, first-packet lookup and programming latency
 * per mode as Services grow. Run: npx tsx bench/network.ts
 */
import {
  firstPacketLookup,
  programmingLatency,
  rules,
  syncTime,
  FITTED
} from '../src/lib/sim/network/costmodel';

const E = 10;
console.log(
  `fitted: wait factor ${FITTED.waitFactor.toFixed(3)}, α ${(FITTED.alphaMs * 1000).toFixed(2)} µs/rule, β ${(FITTED.betaMs * 1000).toFixed(2)} µs/line`
);
console.log('services  mode      rules    full sync ms  partial sync ms  lookup steps  lookup µs');
for (const s of [100, 1000, 5000, 10000]) {
  for (const mode of ['iptables', 'ipvs', 'nftables'] as const) {
    const r = rules(s, E, mode).total;
    const full = syncTime(mode, s, E, { full: true });
    const partial = syncTime(mode, s, E, { full: false, changedServices: Math.max(1, s / 100) });
    const l = firstPacketLookup(mode, s, E);
    console.log(
      `${String(s).padStart(8)}  ${mode.padEnd(8)} ${String(r).padStart(7)} ${full.toFixed(1).padStart(13)} ${partial.toFixed(1).padStart(16)} ${l.steps.toFixed(1).padStart(13)} ${l.micros.toFixed(2).padStart(10)}`
    );
  }
}
const p = (full: boolean, min: number) =>
  programmingLatency('iptables', 5000, 30, { minSyncPeriodSeconds: min, partialSync: !full }).toFixed(1);
console.log(
  `5,000-node test (iptables, p50): full+minSync10 ${p(true, 10)} s, partial+minSync10 ${p(false, 10)} s, partial+minSync1 ${p(false, 1)} s`
);
