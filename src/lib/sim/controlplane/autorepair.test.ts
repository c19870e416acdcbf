// Managed node auto-repair, from the providers' documents:
//   GKE  cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair (on by default for new
//        node pools; NotReady on consecutive checks for about 10 minutes; the node is re-created)
//   AKS  learn.microsoft.com/azure/aks/node-auto-repair (on for every cluster; unhealthy for at
//        least five minutes → reboot, then reimage, then redeploy; not triggered on a node tainted
//        node.cloudprovider.kubernetes.io/shutdown or ToBeDeletedByClusterAutoscaler)
//   EKS  docs.aws.amazon.com/eks/latest/userguide/node-repair.html (off unless enabled)
// upstream: pkg/kubelet/nodestatus/setters.go (MachineInfo: a new boot ID records `Rebooted`)
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { createCluster } from '../scenario';
import { AUTO_REPAIR_ID, REPAIR_BOOT_MS, type NodeAutoRepair } from './autorepair';

function lab(managed: 'eks' | 'gke' | 'aks', faults: string) {
  const { cluster } = createCluster(`apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: repair }
spec:
  controlPlane: { managed: ${managed} }
  nodePools:
    - name: general
      count: 2
  faults:
${faults}`);
  const ready = (node: string) =>
    (
      cluster.api.get<KubeObject>('Node', undefined, node).status?.conditions as {
        type: string;
        status: string;
      }[]
    ).find((c) => c.type === 'Ready')?.status;
  const events = (reason: string) =>
    cluster.eventLog.filter((e) => e.reason === reason && e.object === 'Node/general-1');
  const repairs = () => cluster.component<NodeAutoRepair>(AUTO_REPAIR_ID)?.repairs ?? [];
  return { cluster, ready, events, repairs };
}

describe('managed node auto-repair', () => {
  it('GKE re-creates a node NotReady for about ten minutes; it comes back Ready and the kubelet records Rebooted', () => {
    const { cluster, ready, events, repairs } = lab(
      'gke',
      '    - { at: 30s, action: StopKubelet, target: general-1 }\n'
    );
    cluster.runUntil(2 * 60_000);
    expect(ready('general-1')).toBe('Unknown');
    cluster.runUntil(10 * 60_000);
    expect(repairs()).toEqual([]);
    cluster.runUntil(13 * 60_000);
    expect(repairs()).toHaveLength(1);
    const [r] = repairs();
    expect(r.node).toBe('general-1');
    expect(r.action).toBe('recreate');
    // First failed check at 2m (NotReady after the 50s grace period), repair ten minutes later.
    expect(r.t).toBe(12 * 60_000);
    cluster.runUntil(r.t + REPAIR_BOOT_MS + 30_000);
    expect(ready('general-1')).toBe('True');
    const rebooted = events('Rebooted');
    expect(rebooted).toHaveLength(1);
    expect(rebooted[0].type).toBe('Warning');
    expect(rebooted[0].message).toMatch(/^Node general-1 has been rebooted, boot id: [0-9a-f-]{36}$/);
    expect(rebooted[0].t).toBeGreaterThanOrEqual(r.t + REPAIR_BOOT_MS);
    expect(ready('general-2')).toBe('True');
  });

  it('AKS reboots after five minutes; a reboot does not reconnect a cut-off node, so it reimages and then redeploys', () => {
    const { cluster, ready, repairs } = lab(
      'aks',
      '    - { at: 30s, action: PartitionNode, target: general-1 }\n'
    );
    cluster.runUntil(45 * 60_000);
    expect(repairs().map((r) => r.action)).toEqual(['reboot', 'reimage', 'redeploy']);
    const [a, b, c] = repairs().map((r) => r.t);
    expect(b - a).toBeGreaterThanOrEqual(5 * 60_000);
    expect(c - b).toBeGreaterThanOrEqual(5 * 60_000);
    // Only the redeploy (a new host) gave it its network back.
    expect(ready('general-1')).toBe('True');
  });

  it('AKS: a stopped kubelet is fixed by the first reboot', () => {
    const { cluster, ready, repairs } = lab(
      'aks',
      '    - { at: 30s, action: StopKubelet, target: general-1 }\n'
    );
    cluster.runUntil(12 * 60_000);
    expect(repairs().map((r) => r.action)).toEqual(['reboot']);
    expect(ready('general-1')).toBe('True');
  });

  it('EKS leaves the node alone: auto-repair is off unless enabled', () => {
    const { cluster, ready } = lab('eks', '    - { at: 30s, action: StopKubelet, target: general-1 }\n');
    cluster.runUntil(20 * 60_000);
    expect(cluster.component(AUTO_REPAIR_ID)).toBeUndefined();
    expect(ready('general-1')).toBe('Unknown');
  });
});
