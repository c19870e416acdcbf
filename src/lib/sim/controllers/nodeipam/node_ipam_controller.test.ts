import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster } from '../testing/harness';

describe('node IPAM (range allocator)', () => {
  it('gives each node the next free /24 of the cluster CIDR', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    cluster.advance(1);
    const cidrs = () =>
      cluster.api
        .list<KubeObject>('Node')
        .map((n) => [n.metadata.name, n.spec.podCIDR, n.spec.podCIDRs?.join(',')]);
    expect(cidrs()).toEqual([
      ['w1', '10.244.0.0/24', '10.244.0.0/24'],
      ['w2', '10.244.1.0/24', '10.244.1.0/24'],
      ['w3', '10.244.2.0/24', '10.244.2.0/24']
    ]);
    cluster.api.delete('Node', undefined, 'w1', {}, { component: 'kubectl' });
    cluster.api.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'w4' }, spec: {}, status: {} });
    cluster.advance(1);
    // cidrset.AllocateNext continues after the last block handed out.
    expect(cluster.api.get<KubeObject>('Node', undefined, 'w4').spec.podCIDR).toBe('10.244.3.0/24');
  });

  it('reports CIDRNotAvailable when the range is used up', () => {
    const { cluster } = testCluster({ nodes: ['w1'], kcm: false });
    cluster.config.network.clusterCIDR = '10.244.0.0/24';
    cluster.addComponent('kube-controller-manager', {});
    cluster.api.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'w2' }, spec: {}, status: {} });
    cluster.advance(1);
    expect(cluster.api.get<KubeObject>('Node', undefined, 'w1').spec.podCIDR).toBe('10.244.0.0/24');
    expect(cluster.api.get<KubeObject>('Node', undefined, 'w2').spec.podCIDR).toBeUndefined();
    expect(cluster.eventLog).toContainEqual(
      expect.objectContaining({
        reason: 'CIDRNotAvailable',
        object: 'Node/w2',
        message: 'Node w2 status is now: CIDRNotAvailable'
      })
    );
  });
});
