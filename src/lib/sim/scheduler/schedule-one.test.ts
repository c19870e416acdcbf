import { describe, expect, it } from 'vitest';
import { fitErrorMessage } from './fiterror';
import { SchedulerCache } from './cache';
import { defaultSchedulerConfig } from './config';
import { Framework } from './framework';
import { newPodInfo } from './nodeinfo';
import { numFeasibleNodesToFind, scheduleOne } from './schedule-one';
import { simulateScheduling } from './simulate';
import { makeNode, makePod } from './testing';
import type { Status } from './types';

describe('numFeasibleNodesToFind', () => {
  it.each([
    [undefined, 50, 50],
    [undefined, 100, 100],
    [undefined, 1000, 420],
    [undefined, 5000, 500],
    [undefined, 6000, 300],
    [10, 5000, 500],
    [1, 1000, 100],
    [100, 5000, 5000]
  ])('percentage %s of %i nodes → %i', (pct, nodes, want) => {
    expect(numFeasibleNodesToFind(pct, nodes)).toBe(want);
  });
});

// upstream: pkg/scheduler/schedule_one.go numFeasibleNodesToFind (minFeasibleNodesToFind = 100,
// adaptive percentage 50 - numAllNodes/125, floor minFeasibleNodesPercentageToFind = 5) and
// findNodesThatFitPod (nextStartNodeIndex = (nextStartNodeIndex + processedNodes) % len(allNodes),
// where processed nodes are the feasible ones plus the ones a filter rejected).
describe('percentageOfNodesToScore, adaptive by default', () => {
  it.each([
    [99, 99],
    [100, 100],
    [125, 100], // 49% of 125 is 61: raised to 100
    [500, 230], // 46%
    [1000, 420], // 42%
    [3000, 780], // 26%
    [5000, 500], // 10%
    [5625, 281], // 5% floor (50 - 45)
    [15000, 750] // 5% floor
  ])('%i nodes: stop after %i feasible nodes', (nodes, want) => {
    expect(numFeasibleNodesToFind(undefined, nodes)).toBe(want);
    expect(numFeasibleNodesToFind(0, nodes)).toBe(want);
  });

  const cycle = (cache: SchedulerCache, fw: Framework, name: string, next: number, explain: boolean) =>
    scheduleOne(fw, cache.handle, newPodInfo(makePod(name, { cpu: '100m' })), {
      nextStartNodeIndex: next,
      minor: 35,
      randomInt: () => 0,
      explain,
      now: 0,
      bind: (p, node) => {
        cache.assume(p, node);
        return null;
      }
    });

  it('starts each search where the last one stopped, counting rejected nodes as processed', () => {
    for (const explain of [true, false]) {
      const cache = new SchedulerCache({ minor: 35 });
      // 1,000 nodes (420 to find); every tenth is cordoned, so finding 420 takes 466 or 467 nodes.
      for (let i = 0; i < 1000; i++)
        cache.upsertNode(makeNode(`n${String(i).padStart(4, '0')}`, { unschedulable: i % 10 === 9 }));
      const fw = new Framework(defaultSchedulerConfig().profiles[0], 35);
      const a = cycle(cache, fw, 'a', 0, explain);
      // n0000..n0465: 420 feasible and 46 cordoned.
      expect(a.nextStartNodeIndex).toBe(466);
      const b = cycle(cache, fw, 'b', a.nextStartNodeIndex, explain);
      // n0466..n0932: 420 feasible and 47 cordoned (n0469, n0479 … n0929).
      expect(b.nextStartNodeIndex).toBe(933);
      const c = cycle(cache, fw, 'c', b.nextStartNodeIndex, explain);
      // n0933..n0999 then round to n0000..n0398.
      expect(c.nextStartNodeIndex).toBe(399);
      if (explain) {
        expect(a.attempt!.evaluatedNodes).toBe(466);
        expect(b.attempt!.evaluatedNodes).toBe(467);
        expect(Object.keys(a.attempt!.nodes)[0]).toBe('n0000');
        expect(Object.keys(b.attempt!.nodes)[0]).toBe('n0466');
        expect(Object.keys(c.attempt!.nodes)[0]).toBe('n0933');
        expect(Object.keys(c.attempt!.nodes).at(-1)).toBe('n0398');
        expect(Object.values(a.attempt!.nodes).filter((n) => n.finalScore !== null)).toHaveLength(420);
      }
    }
  });

  it('walks 10% of 5,000 nodes per pod from a round-robin start', () => {
    const cache = new SchedulerCache({ minor: 35 });
    for (let i = 0; i < 5000; i++) cache.upsertNode(makeNode(`n${String(i).padStart(4, '0')}`));
    const fw = new Framework(defaultSchedulerConfig().profiles[0], 35);
    let next = 0;
    const starts: string[] = [];
    for (let i = 0; i < 11; i++) {
      const r = cycle(cache, fw, `p${i}`, next, true);
      expect(r.attempt!.evaluatedNodes).toBe(500);
      starts.push(Object.keys(r.attempt!.nodes)[0]);
      next = r.nextStartNodeIndex;
    }
    expect(starts).toEqual([
      'n0000',
      'n0500',
      'n1000',
      'n1500',
      'n2000',
      'n2500',
      'n3000',
      'n3500',
      'n4000',
      'n4500',
      'n0000'
    ]);
  }, 30_000);
});

describe('FitError message', () => {
  const st = (code: Status['code'], ...reasons: string[]): Status => ({ code, reasons });
  it('counts reasons and sorts them as strings', () => {
    const m = new Map<string, Status>();
    for (let i = 0; i < 10; i++)
      m.set(`w${i}`, st('Unschedulable', 'Insufficient cpu', 'Insufficient memory'));
    m.set('cp', st('UnschedulableAndUnresolvable', 'node(s) had untolerated taint(s)'));
    m.set('x', st('UnschedulableAndUnresolvable', 'node(s) had untolerated taint(s)'));
    expect(fitErrorMessage(12, m, '', '', 35)).toBe(
      '0/12 nodes are available: 10 Insufficient cpu, 10 Insufficient memory, 2 node(s) had untolerated taint(s).'
    );
  });
  it('ends the preemption part with one period since v1.27, two before', () => {
    const m = new Map([
      ['a', st('UnschedulableAndUnresolvable', "node(s) didn't match Pod's node affinity/selector")]
    ]);
    const post = 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.';
    expect(fitErrorMessage(1, m, '', post, 35)).toBe(
      "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    );
    expect(fitErrorMessage(1, m, '', post, 26)).toMatch(/scheduling\.\.$/);
  });
});

describe('a scheduling cycle', () => {
  const nodes = ['a', 'b', 'c'].map((n) => makeNode(n));

  it('gives the brief example message for taints and cpu', () => {
    const r = simulateScheduling({
      nodes: [
        makeNode('cp', {
          cpu: '8',
          taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]
        }),
        makeNode('w1', { cpu: '2' }),
        makeNode('w2', { cpu: '2' })
      ],
      pods: [makePod('big', { cpu: '3' })]
    });
    expect(r.pods[0].message).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.'
    );
  });

  it('counts each binding before the next pod', () => {
    const r = simulateScheduling({
      nodes: [makeNode('a', { cpu: '2' }), makeNode('b', { cpu: '1' })],
      pods: [makePod('p1', { cpu: '1500m' }), makePod('p2', { cpu: '1' }), makePod('p3', { cpu: '1' })]
    });
    expect(r.pods.map((p) => p.selectedNode)).toEqual(['a', 'b', null]);
    expect(r.pods[2].message).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.'
    );
  });

  it('records raw, normalized and weighted scores per plugin', () => {
    const r = simulateScheduling({ nodes, pods: [makePod('p', { cpu: '1', memory: '1Gi' })] });
    const a = r.pods[0].attempts[0].nodes.a;
    expect(a.rawScore.NodeResourcesFit).toBe(81);
    expect(a.score.TaintToleration).toBe(100);
    expect(a.weightedScore.TaintToleration).toBe(300);
    // 300 (taints ×3) + 81 (cpu 75, memory 87) + 93 (balance: |0.25 − 0.125| / 2) + 0 (images)
    expect(a.finalScore).toBe(474);
  });

  it('breaks ties with the seeded random, the same way every run', () => {
    const run = (seed: number) =>
      simulateScheduling({ nodes, pods: [1, 2, 3, 4, 5, 6].map((i) => makePod(`p${i}`)), seed }).pods.map(
        (p) => p.selectedNode
      );
    expect(run(7)).toEqual(run(7));
    expect(new Set(run(7)).size).toBeGreaterThan(1);
  });

  it('skips scoring when one node fits', () => {
    const r = simulateScheduling({
      nodes: [makeNode('a', { cpu: '1' }), makeNode('b', { cpu: '4' })],
      pods: [makePod('p', { cpu: '2' })]
    });
    expect(r.pods[0].selectedNode).toBe('b');
    expect(r.pods[0].nodes.b.finalScore).toBeNull();
  });

  it('walks nodes round-robin from where the last cycle stopped', () => {
    const many = Array.from({ length: 200 }, (_, i) => makeNode(`n${String(i).padStart(3, '0')}`));
    const r = simulateScheduling({ nodes: many, pods: [makePod('p1'), makePod('p2')] });
    // 200 nodes: 50 − 200/125 = 49% → 98 → raised to 100 feasible nodes to find
    expect(r.pods[0].attempts[0].evaluatedNodes).toBe(100);
    expect(Object.keys(r.pods[0].nodes)[0]).toBe('n000');
    expect(Object.keys(r.pods[1].nodes)[0]).toBe('n100');
  });

  it('preempts lower-priority pods and nominates the node', () => {
    const r = simulateScheduling({
      nodes: [makeNode('a', { cpu: '2' }), makeNode('b', { cpu: '2' })],
      pods: [
        makePod('low-a', { cpu: '1500m', nodeName: 'a', spec: { priority: 10 } }),
        makePod('low-b', { cpu: '1', nodeName: 'b', spec: { priority: 0 } }),
        makePod('mid-b', { cpu: '500m', nodeName: 'b', spec: { priority: 5 } }),
        makePod('high', { cpu: '1500m', spec: { priority: 1000 } })
      ]
    });
    const p = r.pods[0];
    // a would lose low-a (priority 10); on b mid-b (5) is reprieved as 0.5 + 1.5 cpu fit in 2, so only low-b (0) goes.
    expect(p.preemption).toEqual({
      nominatedNodeName: 'b',
      victims: ['default/low-b'],
      message: '0/2 nodes are available: 2 Insufficient cpu.'
    });
    expect(p.selectedNode).toBe('b');
  });

  it('does not preempt for preemptionPolicy Never', () => {
    const r = simulateScheduling({
      nodes: [makeNode('a', { cpu: '1' })],
      pods: [
        makePod('low', { cpu: '1', nodeName: 'a' }),
        makePod('high', { cpu: '1', spec: { priority: 1000, preemptionPolicy: 'Never' } })
      ]
    });
    expect(r.pods[0].message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.'
    );
  });

  it('decides the same with and without recorded explanations (batched filters)', () => {
    const nodes = Array.from({ length: 120 }, (_, i) =>
      makeNode(`n${i}`, {
        cpu: String(1 + (i % 4)),
        labels: { 'topology.kubernetes.io/zone': `z${i % 3}` },
        unschedulable: i % 17 === 0,
        taints: i % 5 === 0 ? [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] : undefined
      })
    );
    const pods = Array.from({ length: 150 }, (_, i) =>
      makePod(`p${i}`, {
        cpu: `${500 + (i % 7) * 250}m`,
        spec: i % 9 === 0 ? { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } : {}
      })
    );
    const run = (explain: boolean) =>
      simulateScheduling({ nodes, pods, seed: 3, explain }).pods.map((p) => [p.selectedNode, p.message]);
    const a = run(true);
    expect(run(false)).toEqual(a);
    expect(a.filter(([n]) => n === null).length).toBeGreaterThan(0);
  }, 30_000);
});
