import { describe, expect, it } from 'vitest';
import { eventsThatMove, nodeUpdateEvents } from './events';

// upstream: pkg/scheduler/framework/events.go (NodeSchedulingPropertiesChange) and
// staging/src/k8s.io/kube-scheduler/framework/types.go (ClusterEvent.Label: resource + action type)
describe('cluster events that move unschedulable pods', () => {
  const node = {
    metadata: { labels: { zone: 'a' } },
    spec: { taints: [] as unknown[] },
    status: { allocatable: { cpu: '2' }, images: [] as unknown[] }
  };

  it('names a Node update by what changed; a heartbeat is no event', () => {
    expect(nodeUpdateEvents(node, structuredClone(node))).toEqual([]);
    expect(
      nodeUpdateEvents(node, { ...node, status: { ...node.status, allocatable: { cpu: '4' } } })
    ).toEqual(['NodeUpdateNodeAllocatable']);
    expect(nodeUpdateEvents(node, { ...node, metadata: { labels: { zone: 'b' } } })).toEqual([
      'NodeUpdateNodeLabel'
    ]);
    // spec.unschedulable is a taint change upstream (extractNodeSpecUnschedulableChange).
    expect(nodeUpdateEvents(node, { ...node, spec: { ...node.spec, unschedulable: true } })).toEqual([
      'NodeUpdateNodeTaint'
    ]);
    expect(
      nodeUpdateEvents(node, { ...node, status: { ...node.status, images: [{ names: ['nginx'] }] } })
    ).toEqual(['NodeUpdate']);
  });

  it('lists the events registered for the plugins that rejected a pod', () => {
    const nodeEvents = [
      'NodeAdd',
      'NodeUpdateNodeAllocatable',
      'NodeUpdateNodeLabel',
      'NodeUpdateNodeTaint',
      'NodeUpdate'
    ];
    expect(eventsThatMove(['TaintToleration'])).toEqual([...nodeEvents, 'UnschedulablePodUpdate']);
    expect(eventsThatMove(['NodeResourcesFit'])).toEqual([
      ...nodeEvents,
      'AssignedPodDelete',
      'UnschedulablePodUpdate'
    ]);
    expect(eventsThatMove(['PodTopologySpread'])).toEqual([
      ...nodeEvents,
      'AssignedPodAdd',
      'AssignedPodDelete',
      'UnschedulablePodUpdate'
    ]);
    // No plugin recorded (no nodes at all): whatever may help.
    expect(eventsThatMove([])).toEqual([...nodeEvents, 'AssignedPodDelete', 'UnschedulablePodUpdate']);
  });
});
