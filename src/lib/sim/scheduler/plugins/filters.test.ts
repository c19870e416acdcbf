import { describe, expect, it } from 'vitest';
import { env, makeNode, makePod, podInfo } from '../testing';
import type { CycleState, Plugin, Status } from '../types';
import { podRequests } from '../resources';
import * as NodeUnschedulable from './NodeUnschedulable';
import * as NodeName from './NodeName';
import * as TaintToleration from './TaintToleration';
import * as NodeAffinity from './NodeAffinity';
import * as NodePorts from './NodePorts';
import * as NodeResourcesFit from './NodeResourcesFit';
import type { KubeObject } from '../../api/types';

/** PreFilter (unless it skips) then Filter, as the framework runs one plugin. */
function runFilter(
  plugin: Plugin,
  pod: KubeObject,
  node: KubeObject,
  bound: KubeObject[] = []
): Status | null {
  const { h } = env([node], bound);
  const state: CycleState = new Map();
  const pi = podInfo(pod);
  const pre = plugin.preFilter?.(state, pi, h);
  if (pre?.code === 'Skip') return pre;
  return plugin.filter!(state, pi, h.nodeByName.get(node.metadata.name)!, h);
}

describe('NodeUnschedulable', () => {
  const cases: [string, KubeObject, KubeObject, Status | null][] = [
    ['schedulable node', makePod('p'), makeNode('n'), null],
    [
      'cordoned node',
      makePod('p'),
      makeNode('n', { unschedulable: true }),
      { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] }
    ],
    [
      'cordoned node, pod tolerates node.kubernetes.io/unschedulable',
      makePod('p', {
        spec: {
          tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }]
        }
      }),
      makeNode('n', { unschedulable: true }),
      null
    ]
  ];
  it.each(cases)('%s', (_n, pod, node, want) => {
    expect(runFilter(NodeUnschedulable.create(), pod, node)).toEqual(want);
  });
});

describe('NodeName', () => {
  it.each([
    ['no nodeName', undefined, null],
    ['matching nodeName', 'n', null],
    [
      'other nodeName',
      'other',
      { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match the requested node name"] }
    ]
  ])('%s', (_n, nodeName, want) => {
    const pod = makePod('p', { spec: nodeName ? { nodeName } : {} });
    expect(runFilter(NodeName.create(), pod, makeNode('n'))).toEqual(want);
  });
});

describe('TaintToleration filter', () => {
  const cp = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
  const gpu = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };
  it.each([
    ['no taints', [], [], 35, null],
    ['PreferNoSchedule is not filtered', [{ key: 'a', effect: 'PreferNoSchedule' }], [], 35, null],
    ['untolerated NoSchedule, v1.35 wording', [cp], [], 35, 'node(s) had untolerated taint(s)'],
    [
      'untolerated NoSchedule, v1.34 wording',
      [cp],
      [],
      34,
      'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'
    ],
    [
      'untolerated NoExecute with a value, v1.31',
      [gpu],
      [],
      31,
      'node(s) had untolerated taint {dedicated: gpu}'
    ],
    [
      'Equal toleration matches key and value',
      [gpu],
      [{ key: 'dedicated', operator: 'Equal', value: 'gpu' }],
      35,
      null
    ],
    [
      'Equal toleration with another value',
      [gpu],
      [{ key: 'dedicated', value: 'cpu' }],
      35,
      'node(s) had untolerated taint(s)'
    ],
    ['Exists without key tolerates everything', [cp, gpu], [{ operator: 'Exists' }], 35, null],
    [
      'effect must match',
      [gpu],
      [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
      35,
      'node(s) had untolerated taint(s)'
    ]
  ])('%s', (_n, taints, tolerations, minor, reason) => {
    const plugin = TaintToleration.create(undefined, { minor: minor as number });
    const got = runFilter(
      plugin,
      makePod('p', { spec: { tolerations } }),
      makeNode('n', { taints: taints as never })
    );
    expect(got).toEqual(reason ? { code: 'UnschedulableAndUnresolvable', reasons: [reason] } : null);
  });
});

describe('NodeAffinity filter', () => {
  const node = makeNode('n', { labels: { zone: 'a', disk: 'ssd', cores: '16' } });
  const term = (key: string, operator: string, values?: string[]) => ({
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }]
        }
      }
    }
  });
  const miss = {
    code: 'UnschedulableAndUnresolvable',
    reasons: ["node(s) didn't match Pod's node affinity/selector"]
  };
  it.each([
    ['no selector or affinity: PreFilter skips', {}, { code: 'Skip', reasons: [] }],
    ['nodeSelector matches', { nodeSelector: { disk: 'ssd' } }, null],
    ['nodeSelector misses', { nodeSelector: { disk: 'hdd' } }, miss],
    ['In', term('zone', 'In', ['a', 'b']), null],
    ['In misses', term('zone', 'In', ['b']), miss],
    ['NotIn', term('zone', 'NotIn', ['b']), null],
    ['NotIn misses', term('zone', 'NotIn', ['a']), miss],
    ['Exists', term('disk', 'Exists'), null],
    ['DoesNotExist misses', term('disk', 'DoesNotExist'), miss],
    ['Gt', term('cores', 'Gt', ['8']), null],
    ['Gt misses', term('cores', 'Gt', ['16']), miss],
    ['Lt', term('cores', 'Lt', ['32']), null],
    [
      'matchFields metadata.name',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] }]
            }
          }
        }
      },
      null
    ],
    [
      'terms are ORed',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] },
                { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }
              ]
            }
          }
        }
      },
      null
    ]
  ])('%s', (_n, spec, want) => {
    expect(runFilter(NodeAffinity.create(), makePod('p', { spec }), node)).toEqual(want);
  });

  it('addedAffinity is enforced with its own reason', () => {
    const plugin = NodeAffinity.create({
      addedAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }]
        }
      }
    });
    expect(runFilter(plugin, makePod('p'), node)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ["node(s) didn't match scheduler-enforced node affinity"]
    });
  });
});

describe('NodePorts', () => {
  const withPort = (name: string, hostPort: number, hostIP?: string, nodeName?: string) =>
    makePod(name, {
      nodeName,
      spec: {
        containers: [
          { name: 'c', image: 'x', ports: [{ containerPort: 80, hostPort, ...(hostIP ? { hostIP } : {}) }] }
        ]
      }
    });
  const conflict = {
    code: 'Unschedulable',
    reasons: ["node(s) didn't have free ports for the requested pod ports"]
  };
  it.each([
    ['no host ports: PreFilter skips', makePod('p'), [], { code: 'Skip', reasons: [] }],
    ['free port', withPort('p', 8080), [withPort('o', 9090, undefined, 'n')], null],
    ['same port on 0.0.0.0', withPort('p', 8080), [withPort('o', 8080, undefined, 'n')], conflict],
    [
      'same port, different host IPs',
      withPort('p', 8080, '10.0.0.1'),
      [withPort('o', 8080, '10.0.0.2', 'n')],
      null
    ],
    [
      'specific IP against a wildcard',
      withPort('p', 8080, '10.0.0.1'),
      [withPort('o', 8080, undefined, 'n')],
      conflict
    ]
  ])('%s', (_n, pod, bound, want) => {
    expect(runFilter(NodePorts.create(), pod, makeNode('n'), bound)).toEqual(want);
  });
});

describe('NodeResourcesFit filter', () => {
  const node = makeNode('n', { cpu: '2', memory: '4Gi', pods: '3', extra: { 'nvidia.com/gpu': '1' } });
  const existing = [makePod('e', { cpu: '1500m', memory: '1Gi', nodeName: 'n' })];
  const fit = NodeResourcesFit.create();
  it.each([
    ['fits', makePod('p', { cpu: '500m', memory: '1Gi' }), 35, null],
    ['BestEffort always fits cpu and memory', makePod('p'), 35, null],
    [
      'insufficient cpu',
      makePod('p', { cpu: '1' }),
      35,
      { code: 'Unschedulable', reasons: ['Insufficient cpu'] }
    ],
    [
      'cpu and memory, in upstream order',
      makePod('p', { cpu: '1', memory: '3500Mi' }),
      35,
      { code: 'Unschedulable', reasons: ['Insufficient cpu', 'Insufficient memory'] }
    ],
    [
      'more than the node has at all: unresolvable since v1.32',
      makePod('p', { cpu: '3' }),
      35,
      { code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] }
    ],
    [
      'more than the node has at all, v1.31',
      makePod('p', { cpu: '3' }),
      31,
      { code: 'Unschedulable', reasons: ['Insufficient cpu'] }
    ],
    [
      'extended resource',
      makePod('p', { requests: { 'nvidia.com/gpu': '2' } }),
      35,
      { code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient nvidia.com/gpu'] }
    ],
    ['extended resource that fits', makePod('p', { requests: { 'nvidia.com/gpu': '1' } }), 35, null],
    [
      'init container peak counts',
      makePod('p', {
        cpu: '100m',
        spec: { initContainers: [{ name: 'init', image: 'x', resources: { requests: { cpu: '1' } } }] }
      }),
      35,
      { code: 'Unschedulable', reasons: ['Insufficient cpu'] }
    ],
    [
      'pod overhead counts',
      makePod('p', { cpu: '400m', spec: { overhead: { cpu: '250m' } } }),
      35,
      { code: 'Unschedulable', reasons: ['Insufficient cpu'] }
    ]
  ])('%s', (_n, pod, minor, want) => {
    const plugin = minor === 35 ? fit : NodeResourcesFit.create({}, { minor: minor as number });
    expect(runFilter(plugin, pod, node, existing)).toEqual(want);
  });

  it('counts pods against allocatable pods', () => {
    const full = [
      makePod('a', { nodeName: 'n' }),
      makePod('b', { nodeName: 'n' }),
      makePod('c', { nodeName: 'n' })
    ];
    expect(runFilter(fit, makePod('p'), node, full)).toEqual({
      code: 'Unschedulable',
      reasons: ['Too many pods']
    });
  });

  it('ignores ignoredResources and ignoredResourceGroups', () => {
    const pod = makePod('p', { requests: { 'nvidia.com/gpu': '4', 'example.com/foo': '1' } });
    const plugin = NodeResourcesFit.create({
      ignoredResources: ['nvidia.com/gpu'],
      ignoredResourceGroups: ['example.com']
    });
    expect(runFilter(plugin, pod, node, existing)).toBeNull();
  });
});

describe('pod requests (resource.PodRequests)', () => {
  it.each([
    [
      'sum of containers',
      {
        containers: [
          { name: 'a', resources: { requests: { cpu: '200m' } } },
          { name: 'b', resources: { requests: { cpu: '300m' } } }
        ]
      },
      500
    ],
    [
      'max of init containers and containers',
      {
        containers: [{ name: 'a', resources: { requests: { cpu: '500m' } } }],
        initContainers: [{ name: 'i', resources: { requests: { cpu: '2' } } }]
      },
      2000
    ],
    [
      'overhead is added',
      {
        containers: [{ name: 'a', resources: { requests: { cpu: '500m' } } }],
        initContainers: [{ name: 'i', resources: { requests: { cpu: '2' } } }],
        overhead: { cpu: '250m' }
      },
      2250
    ],
    [
      'sidecars run alongside later init containers and the app',
      {
        containers: [{ name: 'a', resources: { requests: { cpu: '500m' } } }],
        initContainers: [
          { name: 'sidecar', restartPolicy: 'Always', resources: { requests: { cpu: '300m' } } },
          { name: 'init', resources: { requests: { cpu: '1' } } }
        ]
      },
      1300
    ]
  ])('%s', (_n, spec, cpu) => {
    expect(podRequests({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }).cpu).toBe(cpu);
  });

  it('applies the non-zero defaults (100m, 200Mi) only when a request is missing', () => {
    const missing = podRequests(makePod('p'), true);
    expect([missing.cpu, missing.memory]).toEqual([100, 200 * 1024 * 1024]);
    const zero = podRequests(makePod('p', { cpu: '0', memory: '0' }), true);
    expect([zero.cpu, zero.memory]).toEqual([0, 0]);
  });
});
