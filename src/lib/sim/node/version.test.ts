import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { createCluster } from '../scenario';
import { clusterWithNode } from './testing';

// Version skew policy (kubernetes.io/releases/version-skew-policy): a kubelet may be up to three
// minor versions older than kube-apiserver, never newer. The kubelet reports its own version in
// nodeInfo.kubeletVersion (pkg/kubelet/nodestatus/setters.go VersionInfo).

const scenario = (v: string) => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: skew }
spec:
  nodePools:
    - { name: old, count: 1, kubeletVersion: ${v} }
`;

describe('kubelet versions', () => {
  it('reports the kubelet version of its pool in nodeInfo', () => {
    const { cluster } = createCluster(scenario('v1.32.9'), { fileName: 's.yaml' });
    cluster.runUntil(5_000);
    const n = cluster.api.get<KubeObject>('Node', undefined, 'old-1');
    expect(n.status.nodeInfo.kubeletVersion).toBe('v1.32.9');
  });

  it('rejects a pool whose kubelet is newer than kube-apiserver', () => {
    expect(() => createCluster(scenario('v1.36.0'), { fileName: 's.yaml' })).toThrow(
      'spec.nodePools[0].kubeletVersion: Invalid value: "v1.36.0": must not be newer than kube-apiserver (v1.35.0)'
    );
  });

  it('UpgradeKubelet restarts the kubelet with the new version, and refuses one newer than the API server', () => {
    const { c } = clusterWithNode({ kubeletVersion: 'v1.33.1' });
    c.applyFault('UpgradeKubelet', { target: 'worker-1', version: 'v1.34.3' });
    c.advance(15_000);
    expect(c.api.get<KubeObject>('Node', undefined, 'worker-1').status.nodeInfo.kubeletVersion).toBe(
      'v1.34.3'
    );
    expect(() => c.applyFault('UpgradeKubelet', { target: 'worker-1', version: 'v1.36.0' })).toThrow(
      'kubelet v1.36.0 is newer than kube-apiserver v1.35.0'
    );
  });
});
