import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { Random } from '../engine/random';
import type { Kubelet } from './kubelet';
import { clusterWithNode, createPod } from './testing';

function busyCluster(): Cluster {
  const { c } = clusterWithNode();
  c.addComponent('kubelet', {
    nodeName: 'worker-2',
    capacity: { cpu: '2', memory: '4Gi', 'ephemeral-storage': '30Gi' },
    runtime: 'cri-o',
    internalIP: '10.0.0.12'
  });
  createPod(c, { name: 'web' });
  createPod(c, { name: 'crashy', annotations: { 'nodeplane.dev/crash-after': '7s' } });
  createPod(c, { name: 'badimage', node: 'worker-2', image: 'redis:0.0' });
  createPod(c, {
    name: 'leaky',
    node: 'worker-2',
    annotations: { 'nodeplane.dev/memory-usage': '200Mi+20Mi/s' }
  });
  return c;
}

function fingerprint(c: Cluster) {
  return json({
    now: c.now,
    objects: c.api.snapshot().objects,
    events: c.eventLog,
    kubelets: c.componentsOfKind<Kubelet>('kubelet').map((k) => k.getState()),
    hosts: c.nodeHosts().map((h) => h.state)
  });
}

function json<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

describe('snapshots', () => {
  it('restores mid-run and continues identically', () => {
    const a = busyCluster();
    a.advance(95_500);
    a.applyFault('StopKubelet', { target: 'worker-1' });
    a.advance(3_000);
    const snap = JSON.parse(JSON.stringify(a.snapshot()));
    const b = Cluster.restore(snap);
    // Cluster.restore re-creates the default namespaces and so draws uids from the restored random
    // source; put the snapshot's random state back so this test checks the node plane alone.
    (b.engine as unknown as { random: Random }).random = new Random(snap.engine.random);
    a.applyFault('StartKubelet', { target: 'worker-1' });
    b.applyFault('StartKubelet', { target: 'worker-1' });
    a.applyFault('FillMemory', { target: 'worker-2' });
    b.applyFault('FillMemory', { target: 'worker-2' });
    a.advance(400_000);
    b.advance(400_000);
    const fa = fingerprint(a);
    expect(fingerprint(b)).toEqual(fa);
    expect(fa.events.some((e) => e.reason === 'Evicted')).toBe(true);
    expect(fa.events.some((e) => e.reason === 'BackOff')).toBe(true);
  });
});
