import { describe, expect, it } from 'vitest';
import { SchedulerCache } from './cache';
import { defaultSchedulerConfig } from './config';
import { columnAt, materializeAttempt, packColumn, recordedNodes } from './explanation';
import { Framework } from './framework';
import { newPodInfo } from './nodeinfo';
import { scheduleOne } from './schedule-one';
import { makeNode, makePod } from './testing';

describe('score columns', () => {
  it('keep every value exactly: one number, char codes for small integers, else an array', () => {
    expect(packColumn([7, 7, 7], 3)).toBe(7);
    expect(packColumn([0, 68, 255, 65535, 9], 4)).toBe('\u0000D\u00ff\uffff');
    const cases = [
      [1.5, 2],
      [-1, 2],
      [0, -0],
      [70_000, 1],
      [NaN, 1]
    ];
    for (const v of cases) {
      const c = packColumn(v, v.length);
      expect(Array.isArray(c)).toBe(true);
      expect(Object.isFrozen(c)).toBe(true);
      expect(v.map((_, i) => columnAt(c, i))).toEqual(v);
    }
    expect(Object.is(columnAt(packColumn([-0, -0], 2), 1), -0)).toBe(true);
  });
});

// upstream: pkg/scheduler/schedule_one.go (findNodesThatPassFilters walks the nodes from
// nextStartNodeIndex; evaluateNominatedNode tries status.nominatedNodeName first) and
// pkg/scheduler/framework/runtime/framework.go (RunFilterPlugins stops at a node's first failure;
// RunScorePlugins: score, NormalizeScore, then × weight).
describe('recorded attempts', () => {
  const cache = new SchedulerCache({ minor: 35 });
  cache.upsertNode(makeNode('a', { cpu: '1' }));
  cache.upsertNode(makeNode('b', { cpu: '4' }));
  cache.upsertNode(makeNode('c', { cpu: '4', taints: [{ key: 'x', effect: 'NoSchedule' }] }));
  cache.upsertNode(makeNode('d', { cpu: '8', memory: '16Gi' }));
  const fw = new Framework(defaultSchedulerConfig().profiles[0], 35);
  const cycle = (nominated?: string) => {
    const pod = makePod('p', { cpu: '2', memory: '1Gi' });
    if (nominated) pod.status = { nominatedNodeName: nominated };
    return scheduleOne(fw, cache.handle, newPodInfo(pod), {
      nextStartNodeIndex: 1,
      minor: 35,
      randomInt: () => 0,
      explain: true,
      now: 5,
      bind: () => null
    });
  };
  const skip = { code: 'Skip', reasons: [] };
  const ok = { code: 'Success', reasons: [] };
  const skipped = { NodeAffinity: skip, NodePorts: skip, PodTopologySpread: skip, InterPodAffinity: skip };
  const passed = {
    ...skipped,
    NodeUnschedulable: ok,
    NodeName: ok,
    TaintToleration: ok,
    NodeResourcesFit: ok
  };
  const taint = {
    ...skipped,
    NodeUnschedulable: ok,
    NodeName: ok,
    TaintToleration: { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] }
  };
  const cpu = {
    ...passed,
    NodeResourcesFit: { code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] }
  };
  const none = { score: {}, rawScore: {}, weightedScore: {}, finalScore: null };

  it('read back as the cycle recorded them: verdicts per plugin, raw, normalized, weighted and final scores', () => {
    const r = cycle();
    const a = r.attempt!;
    expect(Object.keys(a.nodes)).toEqual(['b', 'c', 'd', 'a']);
    expect(a.nodes).toEqual({
      b: {
        filter: passed,
        score: {
          TaintToleration: 100,
          NodeResourcesFit: 68,
          NodeResourcesBalancedAllocation: 81,
          ImageLocality: 0
        },
        rawScore: {
          TaintToleration: 0,
          NodeResourcesFit: 68,
          NodeResourcesBalancedAllocation: 81,
          ImageLocality: 0
        },
        weightedScore: {
          TaintToleration: 300,
          NodeResourcesFit: 68,
          NodeResourcesBalancedAllocation: 81,
          ImageLocality: 0
        },
        finalScore: 449
      },
      c: { filter: taint, ...none },
      d: {
        filter: passed,
        score: {
          TaintToleration: 100,
          NodeResourcesFit: 84,
          NodeResourcesBalancedAllocation: 90,
          ImageLocality: 0
        },
        rawScore: {
          TaintToleration: 0,
          NodeResourcesFit: 84,
          NodeResourcesBalancedAllocation: 90,
          ImageLocality: 0
        },
        weightedScore: {
          TaintToleration: 300,
          NodeResourcesFit: 84,
          NodeResourcesBalancedAllocation: 90,
          ImageLocality: 0
        },
        finalScore: 474
      },
      a: { filter: cpu, ...none }
    });
    // The filter record lists Skip for the plugins PreFilter skipped, then each plugin run.
    expect(Object.keys(a.nodes.c.filter)).toEqual(Object.keys(taint));
    expect(a.selectedNode).toBe('d');
    expect(a.evaluatedNodes).toBe(4);
    expect(a.preScore).toEqual({ NodeAffinity: skip, PodTopologySpread: skip, InterPodAffinity: skip });
    // Nodes with the same verdicts share one frozen record; the attempt is frozen throughout.
    expect(a.nodes.b.filter).toBe(a.nodes.d.filter);
    expect(Object.isFrozen(a) && Object.isFrozen(a.nodes) && Object.isFrozen(a.nodes.b.score)).toBe(true);
    // Compact: one char per node, the node list shared with the next attempt.
    expect(recordedNodes(r.record!)).toBe(4);
    expect(r.record!.verdicts).toBe('\u0000\u0001\u0000\u0002');
    expect(cycle().record!.ring).toBe(r.record!.ring);
    expect(materializeAttempt(r.record!)).toEqual(a);
  });

  it('the nominated node comes first, and the walk that meets it again keeps that place', () => {
    const a = cycle('c').attempt!;
    expect(Object.keys(a.nodes)).toEqual(['c', 'b', 'd', 'a']);
    expect(a.nodes.c).toEqual({ filter: taint, ...none });
    expect(a.nodes.d.finalScore).toBe(474);
    expect(a.evaluatedNodes).toBe(4);
    // A nominated node that fits is taken without a walk or scores.
    const fits = cycle('b').attempt!;
    expect(fits.nodes).toEqual({ b: { filter: passed, ...none } });
    expect(fits.evaluatedNodes).toBe(1);
    expect(fits.selectedNode).toBe('b');
  });
});
