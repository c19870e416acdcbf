// upstream: staging/src/k8s.io/endpointslice/util/controller_utils.go (podEndpointsChanged,
// GetServicesToUpdateOnPodChange), staging/src/k8s.io/endpointslice/util/endpointslice_tracker.go
// (ShouldSync), pkg/controller/endpointslice/endpointslice_controller.go (onEndpointSliceUpdate)
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { KCM_ID, type KubeControllerManager } from '../kube-controller-manager';
import { testCluster } from '../testing/harness';
import { podEndpointsChanged } from './controller';
import '../../network';

function pod(o: { labels?: Record<string, string>; ip?: string; ready?: boolean; deleting?: boolean } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'a',
      namespace: 'default',
      labels: o.labels ?? { app: 'web' },
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {})
    },
    spec: { nodeName: 'w1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
    status: {
      phase: 'Running',
      ...(o.ip ? { podIP: o.ip, podIPs: [{ ip: o.ip }] } : {}),
      conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }]
    }
  } as KubeObject;
}

describe('podEndpointsChanged', () => {
  it('sees readiness, IPs and deletion as endpoint changes, labels and hostname as membership changes', () => {
    const base = pod({ ip: '10.244.1.2', ready: true });
    expect(podEndpointsChanged(base, pod({ ip: '10.244.1.2', ready: true }))).toEqual({
      podChanged: false,
      labelsChanged: false
    });
    expect(podEndpointsChanged(base, pod({ ip: '10.244.1.2', ready: false })).podChanged).toBe(true);
    expect(podEndpointsChanged(pod(), pod({ ip: '10.244.1.2' })).podChanged).toBe(true);
    expect(podEndpointsChanged(base, pod({ ip: '10.244.1.3', ready: true })).podChanged).toBe(true);
    expect(podEndpointsChanged(base, pod({ ip: '10.244.1.2', ready: true, deleting: true })).podChanged).toBe(
      true
    );
    expect(podEndpointsChanged(base, pod({ ip: '10.244.1.2', ready: true, labels: { app: 'api' } }))).toEqual(
      {
        podChanged: false,
        labelsChanged: true
      }
    );
    const named = { ...base, spec: { ...base.spec, hostname: 'a-0' } };
    expect(podEndpointsChanged(base, named)).toEqual({ podChanged: false, labelsChanged: true });
  });
});

describe('the Endpoints and EndpointSlice controllers queue a Service', () => {
  const adds = (c: Cluster) =>
    Object.fromEntries(
      c
        .component<KubeControllerManager>(KCM_ID)!
        .workQueues()
        .filter((q) => q.controller === 'endpoints-controller' || q.controller === 'endpointslice-controller')
        .map((q) => [q.controller, q.adds])
    );

  function setup(): Cluster {
    const { cluster: c } = testCluster({ nodes: ['w1'] });
    c.api.create(pod({ ip: '10.244.1.2', ready: false }));
    c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] }
    });
    c.advance(100);
    return c;
  }

  const update = (c: Cluster, change: (p: KubeObject) => void, subresource?: 'status') => {
    const p = structuredClone(c.api.get<KubeObject>('Pod', 'default', 'a'));
    change(p);
    c.api.update(p, { component: 'test' }, { subresource });
    c.advance(100);
  };

  it('for a pod update that may change its endpoint, not for one that cannot', () => {
    const c = setup();
    const before = adds(c);
    // An annotation (or a container's restart count) cannot change an endpoint: nothing is queued.
    update(c, (p) => (p.metadata.annotations = { note: 'x' }));
    expect(adds(c)).toEqual(before);
    // Ready: each controller queues web once and writes; its own slice write queues nothing more.
    update(c, (p) => (p.status.conditions = [{ type: 'Ready', status: 'True' }]), 'status');
    expect(adds(c)).toEqual({
      'endpoints-controller': before['endpoints-controller'] + 1,
      'endpointslice-controller': before['endpointslice-controller'] + 1
    });
    const slice = c.api.list<KubeObject>('EndpointSlice', {
      labelSelector: 'kubernetes.io/service-name=web'
    })[0];
    expect((slice.endpoints as { conditions: { ready: boolean } }[])[0].conditions.ready).toBe(true);
    expect(c.api.get<KubeObject>('Endpoints', 'default', 'web').subsets).toMatchObject([
      { addresses: [{ ip: '10.244.1.2' }] }
    ]);
    // A label change that takes the pod out of the Service queues it: the endpoint goes.
    update(c, (p) => (p.metadata.labels = { app: 'api' }));
    expect(adds(c)['endpointslice-controller']).toBe(before['endpointslice-controller'] + 2);
    expect(c.api.get<KubeObject>('Endpoints', 'default', 'web').subsets).toBeUndefined();
  });

  it('again when someone else changes or deletes its slice', () => {
    const c = setup();
    const before = adds(c)['endpointslice-controller'];
    const slice = c.api.list<KubeObject>('EndpointSlice', {
      labelSelector: 'kubernetes.io/service-name=web'
    })[0];
    c.api.delete('EndpointSlice', 'default', slice.metadata.name, {}, { component: 'test' });
    c.advance(100);
    expect(adds(c)['endpointslice-controller']).toBe(before + 1);
    expect(c.api.list('EndpointSlice', { labelSelector: 'kubernetes.io/service-name=web' })).toHaveLength(1);
  });
});
