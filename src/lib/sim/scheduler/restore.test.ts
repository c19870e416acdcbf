import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { createCluster } from '../scenario/bootstrap';
import type { KubeScheduler } from './component';

const NO_CNI = readFileSync(new URL('../../../../scenarios/no-cni.yaml', import.meta.url), 'utf8');

describe('a restored kube-scheduler', () => {
  it('continues the snapshot: no scheduling cycle or informer list of its own', () => {
    const c = createCluster(NO_CNI, { fileName: 'no-cni.yaml' }).cluster;
    c.runUntil(30_000);
    const s = c.snapshot();
    // Pods wait in the queue: a scheduler building its cache from them must not kick a cycle.
    const queued = c.component<KubeScheduler>('kube-scheduler')!.queued();
    expect(queued.length).toBeGreaterThan(0);
    const r = Cluster.restore(s).snapshot();
    expect(r.engine.seq).toBe(s.engine.seq);
    expect(r.engine.queue).toEqual(s.engine.queue);
    expect(r.api.requests['list nodes']).toBe(1);
    expect(r.api.requests).toEqual(s.api.requests);
    expect(r.components.find((x) => x.id === 'kube-scheduler')).toEqual(
      s.components.find((x) => x.id === 'kube-scheduler')
    );
  });

  it('lists Nodes and Pods once when it starts and again when it restarts', () => {
    const c = createCluster(NO_CNI, { fileName: 'no-cni.yaml' }).cluster;
    expect(c.api.requestCounts()['list pods']).toBe(1);
    c.applyFault('StopScheduler');
    c.applyFault('StartScheduler');
    expect(c.api.requestCounts()['list nodes']).toBe(2);
    expect(c.api.requestCounts()['list pods']).toBe(2);
  });
});
