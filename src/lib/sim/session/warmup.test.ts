import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario';
import { PROGRESS_WINDOW_MS, WARMUP_LIMIT_MS, clusterUp, warmUp } from './warmup';
import type { BootProgress } from './protocol';

const three = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');
const noCni = readFileSync(new URL('../../../../scenarios/no-cni.yaml', import.meta.url), 'utf8');

describe('the quiet start', () => {
  it('runs a second at a time until every Node is Ready and no pod is Pending', () => {
    const { cluster } = createCluster(three);
    const ran = warmUp(
      (ms) => cluster.advance(ms),
      () => cluster,
      60_000
    );
    expect(clusterUp(cluster)).toBe(true);
    expect(ran % 1000).toBe(0);
    expect(ran).toBeGreaterThan(1_000);
    expect(ran).toBeLessThan(60_000);
  });

  it('opens anyway once the learner has waited long enough, with the cluster still booting', () => {
    const { cluster } = createCluster(three);
    const ran = warmUp(
      (ms) => cluster.advance(ms),
      () => cluster,
      60_000,
      { outOfTime: () => true }
    );
    expect(ran).toBe(1_000);
    expect(clusterUp(cluster)).toBe(false);
  });
});

describe('the quiet start past its cap', () => {
  it('goes on while nodes turn Ready or pods start, and stops once the cluster is up', () => {
    const { cluster } = createCluster(three);
    const seen: BootProgress[] = [];
    // A cap shorter than the boot: the cluster is still coming up when it is reached.
    const ran = warmUp(
      (ms) => cluster.advance(ms),
      () => cluster,
      2_000,
      { progress: (p) => seen.push(p) }
    );
    expect(ran).toBeGreaterThan(2_000);
    expect(clusterUp(cluster)).toBe(true);
    expect(seen).toHaveLength(ran / 1000);
    expect(seen.map((p) => p.now)).toEqual(seen.map((_, i) => (i + 1) * 1000));
    const last = seen[seen.length - 1];
    // three-nodes.yaml: a control-plane node and three workers, 21 pods once up; the workloads are
    // web and CoreDNS, calico-kube-controllers (Deployments), log-agent, kube-proxy and calico-node
    // (DaemonSets).
    expect(last).toMatchObject({
      nodes: 4,
      nodesReady: 4,
      podsPending: 0,
      podsStarted: 21,
      workloads: 6,
      workloadsRolledOut: 6
    });
    expect(seen[0].podsStarted).toBeLessThan(21);
  });

  it(`stops ${PROGRESS_WINDOW_MS / 1000} s after the last node turned Ready or pod started`, () => {
    const { cluster } = createCluster(noCni);
    const seen: BootProgress[] = [];
    const ran = warmUp(
      (ms) => cluster.advance(ms),
      () => cluster,
      1_000,
      { progress: (p) => seen.push(p) }
    );
    expect(clusterUp(cluster)).toBe(false);
    const reached = seen.map((p) => p.nodesReady + p.podsStarted + p.workloadsRolledOut);
    const lastGrowth = reached.findIndex((r) => r === Math.max(...reached));
    expect(ran).toBe(Math.max(1_000, (lastGrowth + 1) * 1000 + PROGRESS_WINDOW_MS));
    expect(ran).toBeLessThan(WARMUP_LIMIT_MS);
  });
});
