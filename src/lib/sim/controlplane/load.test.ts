import { describe, expect, it } from 'vitest';
import { estimateLoad, MUTATING_P99_SLO_MS, REQUEST_TIMEOUT_MS } from './load';

describe('API-server load model', () => {
  it('counts writes by source from the components periods', () => {
    const e = estimateLoad({ nodes: 100, podChurnPerSecond: 20, apiServers: 1, cores: 4 });
    // 100 Leases every 10 s, status every 5 m, 2 leader Leases every 2 s, 16 writes per pod cycle.
    expect(e.writes.nodeLeases).toBe(10);
    expect(e.writes.nodeStatus).toBeCloseTo(100 / 300, 10);
    expect(e.writes.leaderElection).toBe(1);
    expect(e.writes.podChurn).toBe(320);
    expect(e.watchEventsPerSecond).toBe(4000);
    expect(e.perServerLoad).toBeCloseTo(444.4667, 3);
    expect(e.utilisation).toBeCloseTo(0.5556, 4);
    expect(e.p99MutatingMs).toBeCloseTo(27.95, 2);
    expect(e.sloMet).toBe(true);
  });

  it('5000 nodes saturate one 4-core API server; three 32-core ones meet the SLO', () => {
    const small = estimateLoad({ nodes: 5000, podChurnPerSecond: 20, apiServers: 1, cores: 4 });
    expect(small.utilisation).toBeGreaterThan(1);
    expect(small.p99MutatingMs).toBe(REQUEST_TIMEOUT_MS);
    expect(small.sloMet).toBe(false);
    const big = estimateLoad({ nodes: 5000, podChurnPerSecond: 20, apiServers: 3, cores: 32 });
    expect(big.p99MutatingMs).toBeCloseTo(15.97, 2);
    expect(big.p99MutatingMs).toBeLessThanOrEqual(MUTATING_P99_SLO_MS);
  });

  it('is monotonic: more nodes or churn never lower latency; more cores or servers never raise it', () => {
    let prev = 0;
    for (let nodes = 10; nodes <= 5000; nodes += 70) {
      const p = estimateLoad({ nodes, podChurnPerSecond: 10, apiServers: 2, cores: 8 }).p99MutatingMs;
      expect(p).toBeGreaterThanOrEqual(prev);
      prev = p;
    }
    prev = Infinity;
    for (const cores of [1, 2, 4, 8, 16, 32, 64]) {
      for (const apiServers of [1, 2, 3]) {
        const p = estimateLoad({ nodes: 1000, podChurnPerSecond: 20, apiServers, cores }).p99MutatingMs;
        if (apiServers === 1) {
          expect(p).toBeLessThanOrEqual(prev);
          prev = p;
        }
        expect(p).toBeLessThanOrEqual(
          estimateLoad({ nodes: 1000, podChurnPerSecond: 20, apiServers: 1, cores }).p99MutatingMs
        );
      }
    }
  });
});
