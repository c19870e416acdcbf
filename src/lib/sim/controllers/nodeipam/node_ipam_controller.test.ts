import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { testCluster } from '../testing/harness';
import type { KubeControllerManager } from '../kube-controller-manager';
import type { NodeIpamController } from './node_ipam_controller';

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

  it('keeps the blocks in use equal to the podCIDRs the Nodes hold, and hands out a freed one again', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    const ipam = cluster
      .component<KubeControllerManager>('kube-controller-manager')!
      .controller<NodeIpamController>('node-ipam-controller');
    const user = { component: 'kubectl' };
    const node = (name: string, podCIDR?: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec: podCIDR ? { podCIDR, podCIDRs: [podCIDR] } : {},
      status: {}
    });
    cluster.advance(1);
    // A node that brings its own block (as kubelet --pod-cidr would) occupies it.
    cluster.api.create(node('w4', '10.244.3.0/24'), user);
    cluster.api.delete('Node', undefined, 'w2', {}, user);
    cluster.api.create(node('w5'), user);
    cluster.advance(1);
    expect(ipam.keptUsed()).toEqual(ipam.countUsed());
    expect([...ipam.countUsed().keys()].sort()).toEqual([
      '10.244.0.0/24',
      '10.244.2.0/24',
      '10.244.3.0/24',
      '10.244.4.0/24'
    ]);
    expect(cluster.api.get<KubeObject>('Node', undefined, 'w5').spec.podCIDR).toBe('10.244.4.0/24');
    // Past the end of a /22 the search wraps to the first free block: w2's, released on delete.
    cluster.config.network.clusterCIDR = '10.244.0.0/21';
    for (const n of ['w6', 'w7', 'w8', 'w9']) cluster.api.create(node(n), user);
    cluster.advance(1);
    expect(ipam.keptUsed()).toEqual(ipam.countUsed());
    expect(
      ['w6', 'w7', 'w8', 'w9'].map((n) => cluster.api.get<KubeObject>('Node', undefined, n).spec.podCIDR)
    ).toEqual(['10.244.5.0/24', '10.244.6.0/24', '10.244.7.0/24', '10.244.1.0/24']);
  });
});
