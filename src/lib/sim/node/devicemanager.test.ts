import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { clusterWithNode, createPod, pod } from './testing';

// upstream: pkg/kubelet/cm/devicemanager/manager.go (GetCapacity, endpointStopGracePeriod in
// types.go), pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go (Register) and
// pkg/kubelet/nodestatus/setters.go (MachineInfo: removed device plugin resources get capacity 0)

const GPU = 'nvidia.com/gpu';
const node = (c: ReturnType<typeof clusterWithNode>['c']) =>
  c.api.get<KubeObject>('Node', undefined, 'worker-1');
const gpu = (c: ReturnType<typeof clusterWithNode>['c']) => ({
  capacity: node(c).status.capacity[GPU],
  allocatable: node(c).status.allocatable[GPU]
});

function plugin(c: ReturnType<typeof clusterWithNode>['c']): void {
  createPod(c, {
    name: 'nvidia-device-plugin',
    image: 'busybox:1.36',
    annotations: { 'nodeplane.dev/device-plugin': GPU }
  });
}

describe('kubelet device manager', () => {
  it('advertises no GPUs until a device plugin registers, then capacity and allocatable at the next status sync', () => {
    const { c, k } = clusterWithNode({ devices: { [GPU]: 2 }, preloadedImages: ['busybox:1.36'] });
    c.advance(30_000);
    expect(gpu(c)).toEqual({ capacity: undefined, allocatable: undefined });
    plugin(c);
    c.advance(15_000);
    expect(pod(c, 'nvidia-device-plugin')?.status.phase).toBe('Running');
    expect(gpu(c)).toEqual({ capacity: '2', allocatable: '2' });
    expect(
      k.host.state.journal.some((j) =>
        j.message.includes(
          '"Got registration request from device plugin with resource" resourceName="nvidia.com/gpu"'
        )
      )
    ).toBe(true);
  });

  it('keeps capacity but zeroes allocatable when the plugin goes away, and removes the resource after 5 minutes', () => {
    const { c } = clusterWithNode({ devices: { [GPU]: 1 }, preloadedImages: ['busybox:1.36'] });
    plugin(c);
    c.advance(20_000);
    expect(gpu(c)).toEqual({ capacity: '1', allocatable: '1' });
    c.api.delete(
      'Pod',
      'default',
      'nvidia-device-plugin',
      { gracePeriodSeconds: 0 },
      { component: 'kubectl' }
    );
    c.advance(15_000);
    expect(gpu(c)).toEqual({ capacity: '1', allocatable: '0' });
    c.advance(4 * 60_000);
    expect(gpu(c)).toEqual({ capacity: '1', allocatable: '0' });
    c.advance(90_000);
    expect(gpu(c)).toEqual({ capacity: '0', allocatable: '0' });
  });

  it('a kubelet restart forgets the registration until the plugin registers with the new process', () => {
    const { c, k } = clusterWithNode({ devices: { [GPU]: 1 }, preloadedImages: ['busybox:1.36'] });
    plugin(c);
    c.advance(20_000);
    k.stopService();
    k.startService();
    expect(k.state.devicePlugins).toEqual({});
    c.advance(20_000);
    expect(gpu(c)).toEqual({ capacity: '1', allocatable: '1' });
  });
});
