import { describe, expect, it } from 'vitest';
import { createCluster } from '../../scenario';
import type { KubeObject } from '../../api/types';

// upstream: cluster-autoscaler/processors/customresources/gpu_processor.go
// (FilterOutNodesWithUnreadyResources: a GPU node without allocatable GPUs counts as not ready)
// and cloudprovider TemplateNodeInfo (a group scaled from zero is simulated on its template);
// kubelet side: pkg/kubelet/cm/devicemanager (GPUs appear once the device plugin registers).

const SCENARIO = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: gpu-from-zero }
spec:
  seed: 1
  duration: 5m
  nodePools:
    - name: cpu
      count: 1
      capacity: { cpu: "4", memory: 16Gi }
    - name: gpu
      count: 0
      min: 0
      max: 3
      capacity: { cpu: "4", memory: 16Gi }
      devices: { nvidia.com/gpu: 1 }
      labels: { nvidia.com/gpu.present: "true" }
      taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }]
      pullBandwidth: 5Mi
      provider: { bootTime: 60s }
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: nvidia-device-plugin, namespace: kube-system }
spec:
  selector: { matchLabels: { app: dp } }
  template:
    metadata:
      labels: { app: dp }
      annotations: { nodeplane.dev/device-plugin: nvidia.com/gpu }
    spec:
      nodeSelector: { nvidia.com/gpu.present: "true" }
      tolerations: [{ key: nvidia.com/gpu, operator: Exists }]
      containers: [{ name: dp, image: "nvcr.io/nvidia/k8s-device-plugin:v0.17.4" }]
---
apiVersion: v1
kind: Pod
metadata: { name: train }
spec:
  tolerations: [{ key: nvidia.com/gpu, operator: Exists }]
  containers:
    - name: train
      image: busybox:1.36
      resources: { limits: { nvidia.com/gpu: "1" } }
`;

describe('Cluster Autoscaler and GPU node groups', () => {
  it('scales a GPU group from zero once and waits for the device plugin instead of adding a second node', () => {
    const { cluster } = createCluster(SCENARIO, { fileName: 'gpu.yaml' });
    const nodes = () =>
      cluster.api
        .list<KubeObject>('Node')
        .map((n) => n.metadata.name)
        .sort();
    let sawReadyWithoutGpu = false;
    for (let t = 1; t <= 240; t++) {
      cluster.runUntil(t * 1000);
      const gpu1 = cluster.api.tryGet<KubeObject>('Node', undefined, 'gpu-1');
      const ready = gpu1?.status?.conditions?.some(
        (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
      );
      if (ready && !gpu1!.status.allocatable['nvidia.com/gpu']) sawReadyWithoutGpu = true;
    }
    // The plugin image takes ~29 s to pull at 5Mi/s: gpu-1 is Ready without GPUs for several
    // autoscaler loops, and none of them adds gpu-2.
    expect(sawReadyWithoutGpu).toBe(true);
    // (control-plane-1 is kubeadm's, in no node group.)
    expect(nodes()).toEqual(['control-plane-1', 'cpu-1', 'gpu-1']);
    const scaleUps = cluster.eventLog.filter((e) => e.reason === 'TriggeredScaleUp').map((e) => e.message);
    expect(scaleUps).toEqual(['pod triggered scale-up: [{gpu 0->1 (max: 3)}]']);
    const train = cluster.api.get<KubeObject>('Pod', 'default', 'train');
    expect([train.spec.nodeName, train.status.phase]).toEqual(['gpu-1', 'Running']);
  });
});
