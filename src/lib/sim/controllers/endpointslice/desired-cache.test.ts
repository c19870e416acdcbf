import { describe, expect, it } from 'vitest';
import { Random } from '../../engine/random';
import { Cluster } from '../../cluster';
import { defaultConfig } from '../../config';
import type { KubeObject } from '../../api/types';
import { DesiredEndpointsCache, SelectedPodsIndex, desiredEndpoints, syncEndpointSlices } from './controller';

/** Groups as comparable text: port set → endpoint keys (sorted) with each endpoint's JSON. */
function text(groups: ReturnType<typeof desiredEndpoints>): string[] {
  return [...groups]
    .map(
      ([k, g]) =>
        `${k} ${[...g.set]
          .map(([key, e]) => `${key}=${e.json}`)
          .sort()
          .join(' ')}`
    )
    .sort();
}

describe('the EndpointSlice controller’s kept desired endpoints', () => {
  it('equal the endpoints built from every pod after each of 400 random changes', () => {
    const c = new Cluster(defaultConfig(3));
    for (const [n, zone] of [
      ['w1', 'zone-a'],
      ['w2', 'zone-b']
    ])
      c.api.create({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: n, labels: { 'topology.kubernetes.io/zone': zone } },
        spec: {},
        status: {}
      });
    const svc = c.api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { app: 'web' },
        ports: [
          { name: 'http', port: 80, targetPort: 'http' },
          { name: 'metrics', port: 9090 }
        ]
      }
    });
    const index = new SelectedPodsIndex(c);
    const cache = new DesiredEndpointsCache(c, index);
    index.watch();
    cache.watch();
    const random = new Random(7);
    const rnd = (n: number) => random.int(n);
    const names: string[] = [];
    let created = 0;
    for (let step = 0; step < 400; step++) {
      const op = rnd(7);
      const name = names.length ? names[rnd(names.length)] : undefined;
      const pod = name ? c.api.tryGet<KubeObject>('Pod', 'default', name) : undefined;
      if (op === 0 || !pod) {
        const n = `p${step}`;
        names.push(n);
        created++;
        c.api.create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: n, namespace: 'default', labels: { app: rnd(5) ? 'web' : 'other' } },
          spec: {
            nodeName: rnd(2) ? 'w1' : 'w2',
            containers: [
              { name: 'c', image: 'nginx:1.27', ports: rnd(3) ? [{ name: 'http', containerPort: 8080 }] : [] }
            ]
          },
          status: { phase: 'Pending' }
        });
      } else if (op === 1) {
        c.api.delete('Pod', 'default', name!, { gracePeriodSeconds: 0 });
        names.splice(names.indexOf(name!), 1);
      } else if (op === 2 || op === 3) {
        // An IP, readiness flipping, or a status write that changes neither.
        const ready = rnd(2) === 0;
        c.api.update(
          {
            ...pod,
            status: {
              phase: 'Running',
              podIP: pod.status?.podIP ?? `10.244.${rnd(2)}.${step % 250}`,
              conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }]
            }
          },
          undefined,
          { subresource: 'status' }
        );
      } else if (op === 4) {
        c.api.update({ ...pod, metadata: { ...pod.metadata, labels: { app: rnd(3) ? 'web' : 'other' } } });
      } else if (op === 5) {
        c.api.delete('Pod', 'default', name!, { gracePeriodSeconds: 30 });
      } else {
        const node = c.api.get<KubeObject>('Node', undefined, rnd(2) ? 'w1' : 'w2');
        const zone = rnd(2) ? 'zone-a' : 'zone-c';
        c.api.update({
          ...node,
          metadata: { ...node.metadata, labels: { 'topology.kubernetes.io/zone': zone } }
        });
      }
      expect(text(cache.desired('default/web', svc)), `step ${step}`).toEqual(
        text(desiredEndpoints(c, svc, index))
      );
    }
    expect(created).toBeGreaterThan(40);
    expect(names.length).toBeGreaterThan(5);
  });

  // staging/src/k8s.io/endpointslice/reconciler.go: the kept slices let a reconcile skip the slices
  // none of whose endpoints changed; what it writes must be what a full reconcile writes.
  it('reconcile the same slices as a reconcile that walks every slice, through 150 pods and 300 random changes', () => {
    const clusters = [0, 1].map(() => {
      const c = new Cluster(defaultConfig(3));
      c.api.create({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'w1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
        spec: {},
        status: {}
      });
      c.api.create({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'default' },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] }
      });
      const index = new SelectedPodsIndex(c);
      index.watch();
      const cache = new DesiredEndpointsCache(c, index);
      cache.watch();
      return { c, index, cache };
    });
    const random = new Random(3);
    const rnd = (n: number) => random.int(n);
    const names: string[] = [];
    const slicesOf = (c: Cluster) =>
      JSON.stringify(
        c.api
          .list<KubeObject>('EndpointSlice')
          .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
          .map((s) => [s.metadata.name, s.metadata.resourceVersion, s.ports, s.endpoints])
      );
    for (let step = 0; step < 450; step++) {
      const op = step < 150 ? 0 : rnd(5);
      const name = names.length ? names[rnd(names.length)] : undefined;
      const ip = `10.244.${rnd(4)}.${rnd(250) + 2}`;
      const ready = rnd(2) === 0;
      const named = rnd(4) > 0;
      const fresh = `p${step}`;
      if (op === 0 || !name) names.push(fresh);
      else if (op === 1) names.splice(names.indexOf(name), 1);
      for (const { c, index, cache } of clusters) {
        if (op === 0 || !name)
          c.api.create({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: fresh, namespace: 'default', labels: { app: 'web' } },
            spec: {
              nodeName: 'w1',
              containers: [
                {
                  name: 'c',
                  image: 'nginx:1.27',
                  ports: named ? [{ name: 'http', containerPort: 8080 }] : []
                }
              ]
            },
            status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] }
          });
        else if (op === 1) c.api.delete('Pod', 'default', name, { gracePeriodSeconds: 0 });
        else {
          const p = c.api.get<KubeObject>('Pod', 'default', name);
          c.api.update(
            {
              ...p,
              status: { ...p.status, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] }
            },
            undefined,
            { subresource: 'status' }
          );
        }
        // One cluster reconciles with the kept slices, the other walks every slice each time.
        if (c === clusters[0].c) syncEndpointSlices(c, 'default/web', undefined, index, cache);
        else syncEndpointSlices(c, 'default/web', undefined, index);
      }
      expect(slicesOf(clusters[0].c), `step ${step}`).toBe(slicesOf(clusters[1].c));
    }
    expect(clusters[0].c.api.list('EndpointSlice').length).toBeGreaterThan(1);
  });
});
