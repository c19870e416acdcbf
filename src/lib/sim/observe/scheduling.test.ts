// upstream: pkg/scheduler/framework/types.go (FitError.Error: reasons counted per node, sorted)
// upstream: pkg/scheduler/framework/preemption/preemption.go (per-node preemption statuses)
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { simulateScheduling } from '../scheduler/simulate';
import { summarize } from './scheduling';

const node = (name: string, cpu: string, taints: unknown[] = []): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: { taints },
  status: { allocatable: { cpu, memory: '4Gi', pods: '110' } }
});
const pod = (name: string, cpu: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }],
    priority: 0,
    ...extra
  }
});

describe('scheduling summary', () => {
  it('counts the first failing filter of each node as FitError does, and preemption per node', () => {
    const r = simulateScheduling({
      nodes: [
        node('cp', '2', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]),
        node('w1', '2'),
        node('w2', '2')
      ],
      // Higher-priority pods fill the workers: no victims there.
      pods: [
        pod('a', '1500m', { nodeName: 'w1', priority: 10 }),
        pod('b', '1500m', { nodeName: 'w2', priority: 10 }),
        pod('big', '1')
      ]
    }).pods[0];
    expect(r.message).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.'
    );
    const s = summarize(r.attempts.at(-1)!);
    expect(s).toEqual({
      totalNodes: 3,
      noNodes: false,
      passed: 0,
      selectedNode: null,
      rejections: [
        { plugin: 'TaintToleration', reason: 'node(s) had untolerated taint(s)', count: 1, kind: 'taint' },
        {
          plugin: 'NodeResourcesFit',
          reason: 'Insufficient cpu',
          count: 2,
          kind: 'insufficient',
          resource: 'cpu'
        }
      ],
      preemption: [
        {
          plugin: 'DefaultPreemption',
          reason: 'Preemption is not helpful for scheduling',
          count: 1,
          kind: 'preemptionNotHelpful'
        },
        {
          plugin: 'DefaultPreemption',
          reason: 'No preemption victims found for incoming pod',
          count: 2,
          kind: 'noVictims'
        }
      ],
      notes: []
    });
  });

  it('keeps a preemptionPolicy note, and has nothing to explain for a scheduled pod', () => {
    const r = simulateScheduling({
      nodes: [node('w1', '1')],
      pods: [pod('small', '100m'), pod('never', '2', { preemptionPolicy: 'Never' })]
    }).pods;
    expect(summarize(r[0].attempts[0]).selectedNode).toBe('w1');
    expect(summarize(r[0].attempts[0]).rejections).toEqual([]);
    expect(summarize(r[1].attempts[0]).notes).toEqual(['not eligible due to preemptionPolicy=Never.']);
  });

  it('says when there are no nodes', () => {
    const r = simulateScheduling({ nodes: [], pods: [pod('p', '1')] }).pods[0];
    expect(summarize(r.attempts[0])).toMatchObject({ noNodes: true, rejections: [], notes: [] });
  });
});
