import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '$lib/sim/scenario';
import { clusterUp, warmUp } from './warmup';

const three = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

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
      undefined,
      () => true
    );
    expect(ran).toBe(1_000);
    expect(clusterUp(cluster)).toBe(false);
  });
});
