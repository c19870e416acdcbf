import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { choose, type ScaleUpOption } from './scaleup';

const GI = 2 ** 30 * 1000;

function option(
  group: string,
  newNodes: number,
  pods: number,
  cpuUsed: number,
  memUsed: number
): ScaleUpOption {
  return {
    group,
    current: 1,
    newNodes,
    max: 10,
    pods: Array.from({ length: pods }, (_, i) => `default/p${i}`),
    requested: { cpu: cpuUsed, memory: memUsed },
    available: { cpu: 4000 * newNodes, memory: 16 * GI * newNodes }
  };
}

// small: 1 node, 3 pods, 3.5 of 4 CPUs and 8 of 16 GiB used → waste 0.125 + 0.5 = 0.625
// large: 2 nodes, 5 pods, 6 of 8 CPUs and 28 of 32 GiB used → waste 0.25 + 0.125 = 0.375
const options = [option('small', 1, 3, 3500, 8 * GI), option('large', 2, 5, 6000, 28 * GI)];

describe('cluster autoscaler expanders', () => {
  it('least-waste picks the least idle CPU + memory share', () => {
    expect(choose(new Cluster(), options, ['least-waste']).group).toBe('large');
  });

  it('least-nodes and most-pods', () => {
    expect(choose(new Cluster(), options, ['least-nodes']).group).toBe('small');
    expect(choose(new Cluster(), options, ['most-pods']).group).toBe('large');
  });

  it('priority reads the ConfigMap, highest matching priority wins, then the next expander', () => {
    const cluster = new Cluster();
    cluster.api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-autoscaler-priority-expander', namespace: 'kube-system' },
      data: { priorities: '10:\n  - .*\n50:\n  - sma.*\n' }
    });
    expect(choose(cluster, options, ['priority', 'least-waste']).group).toBe('small');
    const none = new Cluster();
    expect(choose(none, options, ['priority', 'least-waste']).group).toBe('large');
  });
});
