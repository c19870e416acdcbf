import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { nodeCondition, clusterWithNode, createPod, events, pod } from './testing';
import { shutdownNode, powerOn } from './nodeshutdown';

// upstream: pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go (Shutdown event, "node is
// shutting down", podShutdownReason/Message, groups by priority) and
// pkg/kubelet/nodeshutdown/nodeshutdown_manager.go (killPods: DisruptionTarget TerminationByKubelet)

const slow = { 'nodeplane.dev/termination-delay': '60s' };

describe('kubelet graceful node shutdown', () => {
  it('terminates regular pods within grace − critical, critical pods after, marks them Failed/Terminated, then powers off', () => {
    const { c, k } = clusterWithNode({
      shutdownGracePeriod: '30s',
      shutdownGracePeriodCriticalPods: '10s',
      preloadedImages: ['nginx:1.27']
    });
    createPod(c, { name: 'web', annotations: slow });
    createPod(c, { name: 'agent', annotations: slow, spec: { priorityClassName: 'system-node-critical' } });
    c.advance(20_000);
    expect(pod(c, 'web')?.status.phase).toBe('Running');
    const t0 = c.now;
    shutdownNode(k);
    expect(events(c, 'Shutdown', 'Node/worker-1')).toEqual([
      [t0, 'Shutdown manager detected shutdown event']
    ]);
    expect(nodeCondition(c, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'node is shutting down'
    });
    c.runUntil(t0 + 19_000);
    expect(pod(c, 'web')?.status.phase).toBe('Running');
    c.runUntil(t0 + 21_000);
    const web = pod(c, 'web') as KubeObject;
    expect(web.status).toMatchObject({
      phase: 'Failed',
      reason: 'Terminated',
      message: 'Pod was terminated in response to imminent node shutdown.'
    });
    expect(web.status.conditions.find((x: { type: string }) => x.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'TerminationByKubelet',
      message: 'Pod was terminated in response to imminent node shutdown.'
    });
    expect(pod(c, 'agent')?.status.phase).toBe('Running');
    // A pod bound now is refused.
    createPod(c, { name: 'late' });
    c.runUntil(t0 + 22_000);
    expect(pod(c, 'late')?.status).toMatchObject({
      phase: 'Failed',
      reason: 'NodeShutdown',
      message: 'Pod was rejected as the node is shutting down.'
    });
    c.runUntil(t0 + 29_000);
    expect(pod(c, 'agent')?.status).toMatchObject({ phase: 'Running' });
    c.runUntil(t0 + 30_000);
    expect(k.running).toBe(false);
    expect(k.host.state.poweredOff).toBe(true);
  });

  it('with shutdownGracePeriod 0 (the default) the machine just stops: pods keep their Running status', () => {
    const { c, k } = clusterWithNode({ preloadedImages: ['nginx:1.27'] });
    createPod(c, { name: 'web' });
    c.advance(10_000);
    shutdownNode(k);
    expect(k.running).toBe(false);
    c.advance(30_000);
    expect(pod(c, 'web')?.status.phase).toBe('Running');
    expect(events(c, 'Shutdown', 'Node/worker-1')).toEqual([]);
    powerOn(k);
    c.advance(15_000);
    expect(k.running).toBe(true);
    expect(nodeCondition(c, 'Ready').status).toBe('True');
  });
});
