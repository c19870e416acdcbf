import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { defaultConfig } from '../../config';
import type { KubeObject } from '../../api/types';
import { MANAGED_BY } from './controller';
import '../../network';

function setup(): Cluster {
  const c = new Cluster(defaultConfig(3));
  c.api.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'w1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
    spec: {},
    status: {}
  });
  c.addComponent('endpointslice-controller', {});
  return c;
}

function pod(c: Cluster, name: string, ip: string, ready = true) {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: 'w1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] }
  });
}

const slices = (c: Cluster) =>
  c.api
    .list('EndpointSlice', { labelSelector: 'kubernetes.io/service-name=web' })
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));

const sizes = (c: Cluster) =>
  slices(c)
    .map((s) => (s.endpoints as unknown[]).length)
    .sort((a, b) => b - a);

describe('EndpointSlice controller', () => {
  it('publishes ready, not-ready and terminating pods with their conditions, node and zone', () => {
    const c = setup();
    pod(c, 'a', '10.244.0.2');
    pod(c, 'b', '10.244.0.3', false);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] }
    });
    c.advance(1);
    const [s] = slices(c);
    expect(s.metadata.labels).toMatchObject({
      'endpointslice.kubernetes.io/managed-by': MANAGED_BY,
      'kubernetes.io/service-name': 'web'
    });
    expect(s.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'web', controller: true });
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect((s.endpoints as KubeObject[]).map((e) => [e.addresses, e.conditions, e.nodeName, e.zone])).toEqual(
      [
        [['10.244.0.2'], { ready: true, serving: true, terminating: false }, 'w1', 'zone-a'],
        [['10.244.0.3'], { ready: false, serving: false, terminating: false }, 'w1', 'zone-a']
      ]
    );
    c.api.delete('Pod', 'default', 'a', { gracePeriodSeconds: 30 });
    c.advance(1);
    const eps = slices(c)[0].endpoints as KubeObject[];
    expect(eps[0].conditions).toEqual({ ready: false, serving: true, terminating: true });
  });

  it('splits more than 100 endpoints into several slices', () => {
    const c = setup();
    for (let i = 0; i < 230; i++) pod(c, `p${i}`, `10.244.${Math.floor(i / 200)}.${(i % 200) + 2}`);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] }
    });
    c.advance(1);
    expect(sizes(c)).toEqual([100, 100, 30]);
    expect(slices(c).every((s) => s.metadata.name.startsWith('web-'))).toBe(true);
  });

  // staging/src/k8s.io/endpointslice/reconciler.go reconcileByPortMapping: endpoints stay in the
  // slice that holds them; a change rewrites that slice only.
  it('keeps endpoints in place: a change rewrites only the slice it touches', () => {
    const c = setup();
    for (let i = 0; i < 230; i++) pod(c, `p${i}`, `10.244.${Math.floor(i / 200)}.${(i % 200) + 2}`);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] }
    });
    c.advance(1);
    const versions = () => new Map(slices(c).map((s) => [s.metadata.name, s.metadata.resourceVersion]));
    const holder = (podName: string) =>
      slices(c).find((s) =>
        (s.endpoints as { targetRef: { name: string } }[]).some((e) => e.targetRef.name === podName)
      )!.metadata.name;
    const changed = (before: Map<string, string | undefined>) =>
      [...versions()].filter(([n, v]) => before.get(n) !== v).map(([n]) => n);

    // A new pod goes into the slice it fills closest to full (getSliceToFill): the one with 30.
    const partial = slices(c).find((s) => (s.endpoints as unknown[]).length === 30)!.metadata.name;
    let before = versions();
    pod(c, 'a0', '10.244.9.2');
    c.advance(1);
    expect(changed(before)).toEqual([partial]);
    expect(holder('a0')).toBe(partial);
    expect(sizes(c)).toEqual([100, 100, 31]);

    // A pod that stops being ready is updated where it is: same slice, same position.
    const slice = holder('p5');
    const position = (name: string) =>
      (
        slices(c).find((s) => s.metadata.name === name)!.endpoints as { targetRef: { name: string } }[]
      ).findIndex((e) => e.targetRef.name === 'p5');
    const at = position(slice);
    before = versions();
    const p5 = c.api.get<KubeObject>('Pod', 'default', 'p5');
    c.api.update(
      { ...p5, status: { ...p5.status, conditions: [{ type: 'Ready', status: 'False' }] } },
      undefined,
      { subresource: 'status' }
    );
    c.advance(1);
    expect(changed(before)).toEqual([slice]);
    expect(position(slice)).toBe(at);

    // A deleted pod leaves its slice one shorter; no other slice is rewritten.
    before = versions();
    c.api.delete('Pod', 'default', 'p5', { gracePeriodSeconds: 0 });
    c.advance(1);
    expect(changed(before)).toEqual([slice]);
    expect(sizes(c)).toEqual([100, 99, 31]);
  });
});
