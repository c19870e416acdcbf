/**
 * A kubelet that rejects every pod (DiskPressure) while the scheduler still sends it pods: the
 * ReplicaSet is held to its client's 20 qps / burst 30, the DaemonSet backs off 1 s, 2 s, 4 s…,
 * and the fight ends when the node lifecycle controller taints the node.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../scenario';
import { newTokenBucket, takeToken } from './util/ratelimit';

const scenario = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: disk-fight
spec:
  seed: 42
  nodePools:
    - name: worker
      count: 3
      capacity: { cpu: "4", memory: 16Gi, ephemeral-storage: 100Gi }
  faults:
    - { at: 60s, action: FillDisk, target: worker-1 }
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          resources:
            requests: { cpu: 250m, memory: 128Mi }
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: log-agent
  namespace: kube-system
spec:
  selector:
    matchLabels: { app: log-agent }
  template:
    metadata:
      labels: { app: log-agent }
    spec:
      containers:
        - name: agent
          image: busybox:1.36
`;

describe('client token bucket', () => {
  it('gives a burst of 30, then one token every 50 ms', () => {
    const b = newTokenBucket(0);
    for (let i = 0; i < 30; i++) expect(takeToken(b, 0)).toBe(0);
    expect(takeToken(b, 0)).toBe(50);
    expect(takeToken(b, 49)).toBe(1);
    expect(takeToken(b, 50)).toBe(0);
    expect(takeToken(b, 10_000)).toBe(0);
    expect(b.tokens).toBe(29);
  });
});

describe('pods rejected by a kubelet under DiskPressure', () => {
  it('the ReplicaSet recreates at 20 per second and the DaemonSet backs off exponentially', () => {
    const { cluster } = createCluster(scenario);
    cluster.runUntil(180_000);
    const events = cluster.recorder.log.filter((e) => e.t >= 60_000);
    const rejectedWeb = events.filter(
      (e) =>
        e.reason === 'Evicted' &&
        e.object.startsWith('Pod/default/web-') &&
        e.message.includes('[DiskPressure]')
    );
    const pressure = events.find((e) => e.reason === 'NodeHasDiskPressure');
    expect(pressure?.object).toBe('Node/worker-1');
    const window = (pressure!.t - 60_000) / 1000;
    // Burst 30, then 20 per second, until the disk-pressure taint turns the scheduler away.
    expect(rejectedWeb.length).toBeGreaterThan(20 * window);
    expect(rejectedWeb.length).toBeLessThanOrEqual(30 + 20 * (window + 1));
    expect(Math.max(...rejectedWeb.map((e) => e.t))).toBeLessThan(pressure!.t + 1000);

    // The scenario's own DaemonSet (kube-proxy's and calico-node's back off on their own keys).
    const failedDaemon = events
      .filter((e) => e.reason === 'FailedDaemonPod' && !/kube-proxy|calico-node/.test(e.object))
      .map((e) => e.t);
    const gaps = failedDaemon.slice(1).map((t, i) => t - failedDaemon[i]);
    expect(gaps.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });
});
