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

describe('snapshots share the runtime and the pod records that did not change', () => {
  it('shares unchanged container, sandbox and machine records and restores a run that continues identically', () => {
    const a = busyCluster();
    a.advance(60_000);
    const first = a.snapshot();
    a.advance(10_000);
    const second = a.snapshot();
    const host = (s: typeof first) => s.hosts['worker-1'].runtime;
    const web = (s: typeof first) => host(s).containers.find((c) => c.podName === 'web')!;
    // The web container kept running: the same frozen record in both snapshots and in the runtime.
    expect(web(second)).toBe(web(first));
    expect(web(second)).toBe(
      a.nodeHost('worker-1')!.state.runtime.containers.find((c) => c.podName === 'web')
    );
    expect(Object.isFrozen(web(first))).toBe(true);
    const sandbox = host(first).sandboxes.find((s) => s.podName === 'web')!;
    expect(host(second).sandboxes.find((s) => s.podName === 'web')).toBe(sandbox);
    const kubelet = (s: typeof first) =>
      s.components.find((c) => c.id === 'kubelet/worker-1')!.state as Kubelet['state'];
    const rec = (s: typeof first) => kubelet(s).pods['default/web'];
    expect(rec(second).containers[0].machine).toBe(rec(first).containers[0].machine);
    expect(rec(second).condTimes).toBe(rec(first).condTimes);

    // crashy exits at 7 s and restarts with back-off: its record is replaced, the snapshot's stays.
    const crashyId = (s: typeof first) =>
      host(s).containers.filter((c) => c.podName === 'crashy' && c.state === 'CONTAINER_RUNNING');
    const running = crashyId(second);
    a.advance(30_000);
    expect(crashyId(second)).toEqual(running);

    // Restoring the live (not JSON) snapshot continues exactly as a run that was never restored.
    const b = Cluster.restore(second);
    const d = busyCluster();
    d.advance(60_000);
    d.snapshot();
    d.advance(10_000);
    b.applyFault('FillMemory', { target: 'worker-2' });
    d.applyFault('FillMemory', { target: 'worker-2' });
    b.advance(300_000);
    d.advance(300_000);
    expect(fingerprint(b)).toEqual(fingerprint(d));
    expect(fingerprint(b).events.some((e) => e.reason === 'Evicted')).toBe(true);
    // The snapshot itself is unchanged by the runs of the clusters restored from it.
    expect(web(second).state).toBe('CONTAINER_RUNNING');
    expect(JSON.stringify(Cluster.restore(second).snapshot().hosts)).toBe(JSON.stringify(second.hosts));
  });
});
