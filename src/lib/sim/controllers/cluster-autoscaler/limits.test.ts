import { describe, expect, it } from 'vitest';
import { createCluster } from '../../scenario';
import './index';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { CA_ID, type ClusterAutoscaler } from './autoscaler';
import { caOptions, capByResources, exceeded, GIB, nodeDelta, resourcesLeft } from './limits';

const events = (cluster: Cluster, reason: string) =>
  cluster.eventLog.filter((e) => e.reason === reason).map((e) => [e.t, e.type, e.message]);
const ca = (cluster: Cluster) => cluster.component<ClusterAutoscaler>(CA_ID)!;

/**
 * One 2-CPU/8Gi worker that may grow to 6; six pods of 1200m each want one node apiece. The
 * cluster also has kubeadm's control-plane-1 (2 CPUs, 8Gi), in no node group: the autoscaler's
 * cluster-wide limits count every node of the cluster, that one too (upstream:
 * cluster-autoscaler/core/scaleup/resource/manager.go, static_autoscaler.go MaxNodesTotal), so
 * each limit below is one control-plane machine higher than the workers' share.
 */
function scenario(flags: string): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ca-limits }
spec:
  seed: 2
  clusterAutoscaler: ${flags}
  nodePools:
    - name: worker
      count: 1
      min: 1
      max: 6
      capacity: { cpu: '2', memory: 8Gi }
      provider: { bootTime: 45s }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 6
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: nginx, image: 'nginx:1.27', resources: { requests: { cpu: 1200m, memory: 256Mi } } }
`;
}

describe('cluster autoscaler: cluster-wide limits', () => {
  it('flags from the scenario with upstream defaults', () => {
    expect(caOptions({})).toEqual({
      expander: 'least-waste',
      scanIntervalMs: 10_000,
      maxNodeProvisionTimeMs: 900_000,
      scaleDownUnneededTimeMs: 600_000,
      scaleDownDelayAfterAddMs: 600_000,
      maxNodesTotal: 0,
      coresTotal: { min: 0, max: 320_000 },
      memoryTotalGiB: { min: 0, max: 6_400_000 }
    });
    expect(
      caOptions({ maxNodeProvisionTime: '5m', coresTotal: '2:64', memoryTotal: '0:256', maxNodesTotal: 20 })
    ).toMatchObject({
      maxNodeProvisionTimeMs: 300_000,
      coresTotal: { min: 2, max: 64 },
      memoryTotalGiB: { min: 0, max: 256 },
      maxNodesTotal: 20
    });
  });

  it('counts whole cores and bytes, caps a scale-up and names what is exceeded', () => {
    expect(nodeDelta({ cpu: '2500m', memory: '8Gi' })).toEqual({ cpu: 3, memory: 8 * GIB });
    const left = resourcesLeft(caOptions({ coresTotal: '0:10', memoryTotal: '0:20' }), {
      cpu: 6,
      memory: 8 * GIB
    });
    expect(left).toEqual({ cpu: 4, memory: 12 * GIB });
    expect(capByResources(5, left, { cpu: 2, memory: 8 * GIB })).toBe(1);
    expect(exceeded({ cpu: 1, memory: 0 }, { cpu: 2, memory: 8 * GIB })).toEqual(['cpu', 'memory']);
  });

  it('--max-nodes-total caps the scale-up and records MaxNodesTotalReached', () => {
    const { cluster } = createCluster(scenario('{ maxNodesTotal: 4 }'));
    cluster.runUntil(10_000);
    expect(events(cluster, 'MaxNodesTotalReached')).toEqual([
      [10_000, 'Warning', 'Max total nodes in cluster reached: 4']
    ]);
    expect(events(cluster, 'ScaledUpGroup')).toEqual([
      [10_000, 'Normal', 'Scale-up: setting group worker size to 3 instead of 1 (max: 6)']
    ]);
    // 20 s: two nodes plus two upcoming is the limit: no new nodes (capped to 0), the warning again.
    cluster.runUntil(20_000);
    expect(events(cluster, 'MaxNodesTotalReached').length).toBe(2);
    expect(events(cluster, 'ScaledUpGroup').length).toBe(1);
    // Once four nodes are Ready the loop stops before planning: the pods hear nothing more.
    cluster.runUntil(3 * 60_000);
    expect(cluster.api.list<KubeObject>('Node').length).toBe(4);
    const late = cluster.eventLog.filter(
      (e) => e.t > 2 * 60_000 && ['MaxNodesTotalReached', 'NotTriggerScaleUp'].includes(e.reason)
    );
    expect(late).toEqual([]);
    expect(ca(cluster).state.target.worker).toBe(3);
  });

  it('--cores-total caps the scale-up, then the pool is skipped with "max cluster cpu limit reached"', () => {
    const { cluster } = createCluster(scenario("{ coresTotal: '0:8' }"));
    cluster.runUntil(10_000);
    // 2 nodes × 2 cores used, 4 left: two more 2-core machines, not five.
    expect(events(cluster, 'ScaledUpGroup')).toEqual([
      [10_000, 'Normal', 'Scale-up: setting group worker size to 3 instead of 1 (max: 6)']
    ]);
    cluster.runUntil(20_000);
    expect(events(cluster, 'NotTriggerScaleUp').map((e) => [e[0], e[2]])).toEqual(
      Array(3).fill([20_000, "pod didn't trigger scale-up: 1 max cluster cpu limit reached"])
    );
  });

  it('--memory-total counts GiB', () => {
    const { cluster } = createCluster(scenario("{ memoryTotal: '0:24' }"));
    cluster.runUntil(20_000);
    expect(events(cluster, 'ScaledUpGroup').map((e) => e[2])).toEqual([
      'Scale-up: setting group worker size to 2 instead of 1 (max: 6)'
    ]);
    expect(events(cluster, 'NotTriggerScaleUp')[0][2]).toBe(
      "pod didn't trigger scale-up: 1 max cluster memory limit reached"
    );
  });
});
