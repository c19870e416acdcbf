import { describe, expect, it } from 'vitest';
import { buildQueueingHintMap, isPodWorthRequeuing, nodeUpdateEvents, registeredEvents } from './events';
import { registry } from './registry';
import { env, makeNode, makePod } from './testing';

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
    // extractNodeSpecUnschedulableChange: only spec.unschedulable turning false is an event (a
    // taint change); cordoning makes nothing schedulable.
    const cordoned = { ...node, spec: { ...node.spec, unschedulable: true } };
    expect(nodeUpdateEvents(node, cordoned)).toEqual([]);
    expect(nodeUpdateEvents(cordoned, node)).toEqual(['NodeUpdateNodeTaint']);
    expect(
      nodeUpdateEvents(node, { ...node, spec: { taints: [{ key: 'x', effect: 'NoSchedule' }] } })
    ).toEqual(['NodeUpdateNodeTaint']);
    // No plugin registers the kubelet's image list (ImageLocality only scores).
    const pulled = { ...node, status: { ...node.status, images: [{ names: ['nginx'] }] } };
    expect(nodeUpdateEvents(node, pulled)).toEqual([]);
    const both = {
      metadata: { labels: { zone: 'b' } },
      spec: node.spec,
      status: { allocatable: { cpu: '4' } }
    };
    expect(nodeUpdateEvents(node, both)).toEqual(['NodeUpdateNodeAllocatable', 'NodeUpdateNodeLabel']);
  });
});

// upstream: pkg/scheduler/backend/queue/scheduling_queue.go (isPodWorthRequeuing) and
// pkg/scheduler/framework/runtime/framework.go (the queueing hint map of a profile)
describe('isPodWorthRequeuing', () => {
  const plugins = ['NodeResourcesFit', 'TaintToleration', 'NodeAffinity', 'NodePorts'].map((n) =>
    registry[n].create({} as never, { minor: 35 })
  );
  const map = buildQueueingHintMap(plugins);
  const { h } = env([]);
  const pod = makePod('big', { cpu: '3' });
  const small = makeNode('n', { cpu: '2' });
  const large = makeNode('n', { cpu: '4' });

  it('asks only the rejecting plugins registered for the event', () => {
    expect(isPodWorthRequeuing(map, ['NodeResourcesFit'], 'NodeAdd', pod, undefined, large, h)).toBe(true);
    expect(isPodWorthRequeuing(map, ['NodeResourcesFit'], 'NodeAdd', pod, undefined, small, h)).toBe(false);
    // NodeResourcesFit registers no label change: nothing asks, the pod stays.
    expect(isPodWorthRequeuing(map, ['NodeResourcesFit'], 'NodeUpdateNodeLabel', pod, small, large, h)).toBe(
      false
    );
    // Any one rejecting plugin saying Queue is enough.
    expect(
      isPodWorthRequeuing(map, ['NodeResourcesFit', 'TaintToleration'], 'NodeAdd', pod, undefined, small, h)
    ).toBe(true);
    // NodePorts registers NodeAdd without a hint: it always queues.
    expect(isPodWorthRequeuing(map, ['NodePorts'], 'NodeAdd', pod, undefined, small, h)).toBe(true);
    // "Worth requeuing because no failed plugins".
    expect(isPodWorthRequeuing(map, [], 'NodeUpdateNodeLabel', pod, small, large, h)).toBe(true);
  });

  it('lists the events a waiting pod may move back on, with the plugin that judges each', () => {
    expect(registeredEvents(map, ['NodeResourcesFit'])).toEqual([
      { event: 'NodeAdd', plugin: 'NodeResourcesFit' },
      { event: 'NodeUpdateNodeAllocatable', plugin: 'NodeResourcesFit' },
      { event: 'AssignedPodDelete', plugin: 'NodeResourcesFit' }
    ]);
    expect(registeredEvents(map, ['TaintToleration', 'NodeAffinity'])).toEqual([
      { event: 'NodeAdd', plugin: 'TaintToleration' },
      { event: 'NodeAdd', plugin: 'NodeAffinity' },
      { event: 'NodeUpdateNodeLabel', plugin: 'NodeAffinity' },
      { event: 'NodeUpdateNodeTaint', plugin: 'TaintToleration' },
      { event: 'UnschedulablePodUpdate', plugin: 'TaintToleration' }
    ]);
    // No rejecting plugin: every event some plugin registered.
    expect(registeredEvents(map, []).map((e) => e.event)).toEqual([
      'NodeAdd',
      'NodeUpdateNodeAllocatable',
      'NodeUpdateNodeLabel',
      'NodeUpdateNodeTaint',
      'AssignedPodDelete',
      'UnschedulablePodUpdate'
    ]);
  });
});
