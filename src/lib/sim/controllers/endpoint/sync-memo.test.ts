// upstream: pkg/controller/endpoint/endpoints_controller.go (syncService)
import { describe, expect, it } from 'vitest';
import { Random } from '../../engine/random';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { testCluster } from '../testing/harness';
import '../../network';
import { EndpointsController } from './endpoints_controller';

describe('the Endpoints controller’s memo of its last sync', () => {
  it('gives the same Endpoints as a sync that looks at every pod, through 300 random changes', () => {
    const full = new WeakSet<Cluster>();
    const sync = EndpointsController.prototype.sync;
    EndpointsController.prototype.sync = function (this: EndpointsController, key: string) {
      const self = this as unknown as { host: { cluster: Cluster }; memos: Map<string, unknown> };
      if (full.has(self.host.cluster)) self.memos.clear();
      return sync.call(this, key);
    };
    try {
      const a = testCluster({ nodes: ['w1'] }).cluster;
      const b = testCluster({ nodes: ['w1'] }).cluster;
      full.add(b);
      const random = new Random(11);
      const rnd = (n: number) => random.int(n);
      const names: string[] = [];
      const ops: ((c: Cluster) => void)[] = [];
      for (const c of [a, b])
        c.api.create({
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
      for (let step = 0; step < 300; step++) {
        const op = rnd(6);
        // A pod still there (the kubelet removes a gracefully deleted one once it has stopped).
        const alive = names.filter((n) => a.api.tryGet('Pod', 'default', n));
        const name = alive.length ? alive[rnd(alive.length)] : undefined;
        if (op === 0 || !name) {
          const n = `p${step}`;
          names.push(n);
          const named = rnd(3) > 0;
          ops.push((c) =>
            c.api.create({
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: n, namespace: 'default', labels: { app: 'web' } },
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
              status: { phase: 'Pending' }
            })
          );
        } else if (op === 1) {
          names.splice(names.indexOf(name), 1);
          ops.push((c) => c.api.delete('Pod', 'default', name, { gracePeriodSeconds: 0 }));
        } else if (op <= 3) {
          const ready = rnd(2) === 0;
          const ip = `10.244.1.${rnd(250) + 2}`;
          ops.push((c) => {
            const p = c.api.get<KubeObject>('Pod', 'default', name);
            c.api.update(
              {
                ...p,
                status: {
                  phase: 'Running',
                  podIP: p.status?.podIP ?? ip,
                  conditions: [
                    { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: c.api.timestamp() }
                  ]
                }
              },
              undefined,
              { subresource: 'status' }
            );
          });
        } else if (op === 4) {
          const app = rnd(3) ? 'web' : 'other';
          ops.push((c) => {
            const p = c.api.get<KubeObject>('Pod', 'default', name);
            c.api.update({ ...p, metadata: { ...p.metadata, labels: { app } } });
          });
        } else ops.push((c) => c.api.delete('Pod', 'default', name, { gracePeriodSeconds: 30 }));
        const advance = rnd(4) === 0 ? 2000 : 50;
        for (const c of [a, b]) {
          ops[ops.length - 1](c);
          c.advance(advance);
        }
        const view = (c: Cluster) => {
          const e = c.api.tryGet<KubeObject>('Endpoints', 'default', 'web');
          return JSON.stringify([e?.subsets, e?.metadata.annotations, e?.metadata.resourceVersion]);
        };
        expect(view(a), `step ${step}`).toBe(view(b));
      }
      expect(
        (a.api.get<KubeObject>('Endpoints', 'default', 'web').subsets as unknown[]).length
      ).toBeGreaterThan(0);
    } finally {
      EndpointsController.prototype.sync = sync;
    }
  });
});
