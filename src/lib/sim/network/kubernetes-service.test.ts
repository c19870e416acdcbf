/** `default/kubernetes`: the Service kube-apiserver creates and the endpoints its lease reconciler keeps. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { createCluster } from '../scenario';
import { dataplane } from './dataplane';
import { apiServerAddress } from './apiserver-endpoints';
import { renderTrace, trace } from './trace';

const scenario = (controlPlane = '', extra = '') => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: t
spec:
  seed: 3
${controlPlane}  nodePools:
    - { name: worker, count: 2 }
${extra}`;

const strip = (o: KubeObject) => {
  const { uid, resourceVersion, creationTimestamp, generation, ...meta } = o.metadata as Record<
    string,
    unknown
  >;
  void uid;
  void resourceVersion;
  void generation;
  return { ...o, metadata: { ...meta, created: creationTimestamp } };
};

describe('default/kubernetes', () => {
  it('exists from the start: ClusterIP .1, https 443 → 6443, no selector, one endpoint per API server', () => {
    const { cluster } = createCluster(scenario());
    const api = cluster.api;
    expect(strip(api.get<KubeObject>('Service', 'default', 'kubernetes'))).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { component: 'apiserver', provider: 'kubernetes' },
        created: '2026-01-01T00:00:00Z'
      },
      spec: {
        type: 'ClusterIP',
        sessionAffinity: 'None',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        clusterIP: '10.96.0.1',
        clusterIPs: ['10.96.0.1']
      },
      status: { loadBalancer: {} }
    });
    expect(strip(api.get<KubeObject>('Endpoints', 'default', 'kubernetes'))).toEqual({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
        created: '2026-01-01T00:00:00Z'
      },
      subsets: [{ addresses: [{ ip: '10.0.0.10' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]
    });
    expect(strip(api.get<KubeObject>('EndpointSlice', 'default', 'kubernetes'))).toEqual({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { 'kubernetes.io/service-name': 'kubernetes' },
        created: '2026-01-01T00:00:00Z'
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.10'], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }]
    });
    // The EndpointSlice controller leaves it alone (no selector), also after its resyncs.
    cluster.runUntil(120_000);
    expect(api.list('EndpointSlice', { namespace: 'default' }).map((s) => s.metadata.name)).toEqual([
      'kubernetes'
    ]);
    expect(api.get<KubeObject>('EndpointSlice', 'default', 'kubernetes').endpoints).toEqual([
      { addresses: ['10.0.0.10'], conditions: { ready: true } }
    ]);
  });

  it('kube-proxy programs it on every node (the well-known KUBE-SVC-NPX46M4PTMTKRN6Y)', () => {
    const { cluster } = createCluster(scenario());
    cluster.runUntil(5_000);
    const nat = dataplane(cluster, 'worker-1')!.iptablesSave('nat');
    expect(nat).toContain(
      '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\n'
    );
    expect(nat).toMatch(
      /-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default\/kubernetes:https -> 10\.0\.0\.10:6443" -j KUBE-SEP-[A-Z2-7]{16}\n/
    );
    expect(nat).toMatch(
      /-A KUBE-SEP-[A-Z2-7]{16} -p tcp -m comment --comment "default\/kubernetes:https" -m tcp -j DNAT --to-destination 10\.0\.0\.10:6443\n/
    );
  });

  it('a pod reaches the API server through 10.96.0.1:443, DNATed to 10.0.0.10:6443 on the link', () => {
    const { cluster } = createCluster(
      scenario(
        '',
        `---
apiVersion: v1
kind: Pod
metadata: { name: client }
spec:
  containers: [{ name: c, image: nginx:1.27 }]
`
      )
    );
    cluster.runUntil(20_000);
    const out = renderTrace(trace(cluster, 'default/client', '10.96.0.1:443'));
    expect(out).toContain('(default/kubernetes:https), kube-proxy mode: iptables');
    expect(out).toContain(': DNAT 10.96.0.1:443 → 10.0.0.10:6443\n');
    expect(out).toContain('route: out of eth0 to the host 10.0.0.10\n');
    expect(out).toContain('result: delivered to 10.0.0.10:6443');
  });

  it('with three API servers lists each advertise address; a stopped one drops out when its lease expires', () => {
    const { cluster } = createCluster(
      scenario(
        '  controlPlane:\n    apiServers: 3\n    etcd: { members: 3, topology: stacked }\n',
        '  faults:\n    - { at: 25s, action: StopControlPlaneNode, target: control-plane-2 }\n'
      )
    );
    expect([0, 1, 2].map((i) => apiServerAddress(i, 3))).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4']);
    const ips = () =>
      (
        cluster.api.get<KubeObject>('EndpointSlice', 'default', 'kubernetes').endpoints as {
          addresses: string[];
        }[]
      ).map((e) => e.addresses[0]);
    expect(ips()).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4']);
    // Last refresh at 20s; still within the 15s TTL at the 30s round, expired at the 40s round.
    cluster.runUntil(39_999);
    expect(ips()).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4']);
    cluster.runUntil(40_000);
    expect(ips()).toEqual(['10.0.0.2', '10.0.0.4']);
    expect(cluster.api.get<KubeObject>('Endpoints', 'default', 'kubernetes').subsets).toEqual([
      {
        addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.4' }],
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }]
      }
    ]);
  });
});
