import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import type { ClusterEventWithHint, QueueingHint } from '../events';
import { env, makeNode, makePod } from '../testing';
import { registry } from '../registry';
import * as Fit from './NodeResourcesFit';
import * as Taints from './TaintToleration';
import * as Unschedulable from './NodeUnschedulable';
import * as Ports from './NodePorts';
import * as NodeName from './NodeName';
import * as IPA from './InterPodAffinity';

const { h } = env([]);
type Row = [string, KubeObject | undefined, KubeObject | undefined, QueueingHint];
/** Each row: what happened, the object before and after (undefined: added / deleted), the hint. */
const table = (
  pod: KubeObject,
  hint: (p: KubeObject, o?: KubeObject, n?: KubeObject) => QueueingHint,
  rows: Row[]
) => rows.map(([what, before, after, want]) => [what, hint(pod, before, after), want]);
const expectRows = (got: unknown[][]) => {
  for (const [what, hint, want] of got) expect({ what, hint }).toEqual({ what, hint: want });
};
const hintsOf = (name: string, args: unknown = {}): ClusterEventWithHint[] =>
  registry[name].create(args as never, { minor: 35 }).eventsToRegister!();
const hintFor = (name: string, event: string, args: unknown = {}) => {
  const reg = hintsOf(name, args).find((r) => r.events.includes(event as never))!;
  return (p: KubeObject, o?: KubeObject, n?: KubeObject) => (reg.hint ? reg.hint(p, o, n, h) : 'Queue');
};
const events = (name: string) => hintsOf(name).map((r) => [...r.events]);
const bound = (name: string, node: string, o: Parameters<typeof makePod>[1] = {}) =>
  makePod(name, { ...o, nodeName: node });

// upstream: pkg/scheduler/framework/plugins/*/ EventsToRegister with SchedulerQueueingHints on
// (GA in v1.35: no preCheck, so the UpdateNodeTaint/UpdateNodeLabel "missed NodeAdd" workaround
// registrations are gone)
describe('the events each plugin registers', () => {
  it('names the events and the plugins that judge them', () => {
    expect(events('NodeResourcesFit')).toEqual([
      ['AssignedPodDelete'],
      ['NodeAdd', 'NodeUpdateNodeAllocatable']
    ]);
    expect(events('NodeAffinity')).toEqual([['NodeAdd', 'NodeUpdateNodeLabel']]);
    expect(events('TaintToleration')).toEqual([
      ['NodeAdd', 'NodeUpdateNodeTaint'],
      ['UnschedulablePodUpdate']
    ]);
    expect(events('NodeUnschedulable')).toEqual([
      ['NodeAdd', 'NodeUpdateNodeTaint'],
      ['UnschedulablePodUpdate']
    ]);
    expect(events('NodePorts')).toEqual([['AssignedPodDelete'], ['NodeAdd']]);
    expect(events('NodeName')).toEqual([['NodeAdd']]);
    expect(events('InterPodAffinity')).toEqual([
      ['AssignedPodAdd', 'AssignedPodUpdatePodLabel', 'AssignedPodDelete'],
      ['NodeAdd', 'NodeUpdateNodeLabel']
    ]);
    expect(events('PodTopologySpread')).toEqual([
      ['AssignedPodAdd', 'AssignedPodUpdatePodLabel', 'AssignedPodDelete', 'UnschedulablePodUpdate'],
      ['NodeAdd', 'NodeDelete', 'NodeUpdateNodeLabel', 'NodeUpdateNodeTaint']
    ]);
    // NodePorts' Node Add has no hint: it always queues.
    expect(hintsOf('NodePorts')[1].hint).toBeUndefined();
  });
});

// upstream: pkg/scheduler/framework/plugins/noderesources/fit.go (isSchedulableAfterNodeChange,
// haveAnyRequestedResourcesIncreased, isFit, isSchedulableAfterPodEvent)
describe('NodeResourcesFit hints', () => {
  const pod = makePod('big', { cpu: '3', memory: '1Gi' });
  it('queues for a node the pod fits when empty, and for an update that grew what it requests', () => {
    expectRows(
      table(pod, Fit.isSchedulableAfterNodeChange, [
        ['a 4-cpu node is added', undefined, makeNode('n', { cpu: '4' }), 'Queue'],
        ['a 2-cpu node is added', undefined, makeNode('n', { cpu: '2' }), 'QueueSkip'],
        ['allocatable cpu grows 2 → 4', makeNode('n', { cpu: '2' }), makeNode('n', { cpu: '4' }), 'Queue'],
        [
          'allocatable cpu grows 2 → 2.5: still too small',
          makeNode('n', { cpu: '2' }),
          makeNode('n', { cpu: '2500m' }),
          'QueueSkip'
        ],
        // It fits, but nothing it asks for grew: the change cannot be what it waited for.
        [
          'memory shrinks on a node it fits',
          makeNode('n', { cpu: '4', memory: '8Gi' }),
          makeNode('n', { cpu: '4', memory: '4Gi' }),
          'QueueSkip'
        ],
        [
          'the pod count limit grows on a node it fits',
          makeNode('n', { cpu: '4', pods: '10' }),
          makeNode('n', { cpu: '4', pods: '20' }),
          'Queue'
        ]
      ])
    );
    // A resource the pod does not request growing is no help.
    const cpuOnly = makePod('cpu-only', { cpu: '3' });
    expect(
      Fit.isSchedulableAfterNodeChange(
        cpuOnly,
        makeNode('n', { cpu: '4', memory: '4Gi' }),
        makeNode('n', { cpu: '4', memory: '8Gi' })
      )
    ).toBe('QueueSkip');
  });
  it('queues for the deletion of any pod that was on a node', () => {
    expectRows(
      table(pod, Fit.isSchedulableAfterPodEvent, [
        ['a bound pod is deleted', bound('web', 'n'), undefined, 'Queue'],
        ['a bound pod without requests is deleted', bound('tiny', 'n'), undefined, 'Queue'],
        ['a pending pod is deleted', makePod('pending'), undefined, 'QueueSkip']
      ])
    );
  });
});

// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
// (isSchedulableAfterNodeChange: wasUntolerated && !isUntolerated; isSchedulableAfterPodTolerationChange)
describe('TaintToleration hints', () => {
  const tolerates = makePod('gpu', {
    spec: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }
  });
  const gpu = [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }];
  const infra = [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }];
  const soft = [{ key: 'dedicated', value: 'infra', effect: 'PreferNoSchedule' }];
  it('queues when the node ends up with only taints the pod tolerates', () => {
    expectRows(
      table(tolerates, Taints.isSchedulableAfterNodeChange, [
        ['a node with a tolerated taint is added', undefined, makeNode('n', { taints: gpu }), 'Queue'],
        [
          'a node with an untolerated taint is added',
          undefined,
          makeNode('n', { taints: infra }),
          'QueueSkip'
        ],
        [
          'the taint changes to a tolerated one',
          makeNode('n', { taints: infra }),
          makeNode('n', { taints: gpu }),
          'Queue'
        ],
        [
          'the taint changes to another untolerated one',
          makeNode('n', { taints: gpu.concat(infra) }),
          makeNode('n', { taints: infra }),
          'QueueSkip'
        ],
        [
          'the taint becomes PreferNoSchedule',
          makeNode('n', { taints: infra }),
          makeNode('n', { taints: soft }),
          'Queue'
        ],
        [
          'a tolerated taint is added to a node it could use',
          makeNode('n'),
          makeNode('n', { taints: gpu }),
          'QueueSkip'
        ]
      ])
    );
    expect(Taints.isSchedulableAfterPodTolerationChange()).toBe('Queue');
  });
});

// upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (isSchedulableAfterNodeChange)
describe('NodeAffinity hints', () => {
  const ssd = makePod('db', { spec: { nodeSelector: { disktype: 'ssd' } } });
  const hint = hintFor('NodeAffinity', 'NodeUpdateNodeLabel');
  it('queues when a node starts matching the pod’s selector and affinity', () => {
    expectRows(
      table(ssd, hint, [
        ['a matching node is added', undefined, makeNode('n', { labels: { disktype: 'ssd' } }), 'Queue'],
        ['a node without the label is added', undefined, makeNode('n'), 'QueueSkip'],
        ['the label is added', makeNode('n'), makeNode('n', { labels: { disktype: 'ssd' } }), 'Queue'],
        ['an unrelated label is added', makeNode('n'), makeNode('n', { labels: { team: 'a' } }), 'QueueSkip'],
        [
          'a matching node gets another label',
          makeNode('n', { labels: { disktype: 'ssd' } }),
          makeNode('n', { labels: { disktype: 'ssd', team: 'a' } }),
          'QueueSkip'
        ]
      ])
    );
    // addedAffinity of the profile must hold as well.
    const enforced = hintFor('NodeAffinity', 'NodeAdd', {
      addedAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['batch'] }] }]
        }
      }
    });
    expect(enforced(ssd, undefined, makeNode('n', { labels: { disktype: 'ssd' } }))).toBe('QueueSkip');
    expect(enforced(ssd, undefined, makeNode('n', { labels: { disktype: 'ssd', pool: 'batch' } }))).toBe(
      'Queue'
    );
  });
});

// upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
describe('NodeUnschedulable hints', () => {
  const pod = makePod('web');
  it('queues for an uncordon or a schedulable new node', () => {
    expectRows(
      table(pod, Unschedulable.isSchedulableAfterNodeChange, [
        ['a schedulable node is added', undefined, makeNode('n'), 'Queue'],
        ['a cordoned node is added', undefined, makeNode('n', { unschedulable: true }), 'QueueSkip'],
        ['a node is uncordoned', makeNode('n', { unschedulable: true }), makeNode('n'), 'Queue'],
        ['a node is cordoned', makeNode('n'), makeNode('n', { unschedulable: true }), 'QueueSkip'],
        [
          'a cordoned node gets a taint',
          makeNode('n', { unschedulable: true }),
          makeNode('n', { unschedulable: true, taints: [{ key: 'x', effect: 'NoSchedule' }] }),
          'QueueSkip'
        ]
      ])
    );
    const tolerating = makePod('web', {
      spec: {
        tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }]
      }
    });
    expect(Unschedulable.isSchedulableAfterPodTolerationChange(pod, pod, tolerating)).toBe('Queue');
    expect(Unschedulable.isSchedulableAfterPodTolerationChange(pod, pod, pod)).toBe('QueueSkip');
  });
});

// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go (isSchedulableAfterPodDeleted)
describe('NodePorts hints', () => {
  const port = (hostPort: number, hostIP?: string) => ({
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          ports: [{ containerPort: 80, hostPort, ...(hostIP ? { hostIP } : {}) }]
        }
      ]
    }
  });
  const pod = makePod('web', port(8080));
  it('queues only when the deleted pod held a port the pod wants', () => {
    expectRows(
      table(pod, (p, o) => Ports.isSchedulableAfterPodDeleted(p, o), [
        ['the pod holding 8080 is deleted', bound('old', 'n', port(8080)), undefined, 'Queue'],
        [
          'a pod holding 8080 on one address is deleted',
          bound('old', 'n', port(8080, '10.0.0.5')),
          undefined,
          'Queue'
        ],
        ['a pod holding 9090 is deleted', bound('old', 'n', port(9090)), undefined, 'QueueSkip'],
        ['a pod without host ports is deleted', bound('old', 'n'), undefined, 'QueueSkip'],
        ['a pending pod holding 8080 is deleted', makePod('old', port(8080)), undefined, 'QueueSkip']
      ])
    );
  });
});

// upstream: pkg/scheduler/framework/plugins/nodename/node_name.go (isSchedulableAfterNodeAdd)
describe('NodeName hints', () => {
  it('queues when the node the pod names is added', () => {
    const pod = makePod('pinned', { nodeName: 'worker-9' });
    expect(NodeName.isSchedulableAfterNodeAdd(pod, undefined, makeNode('worker-9'))).toBe('Queue');
    expect(NodeName.isSchedulableAfterNodeAdd(pod, undefined, makeNode('worker-1'))).toBe('QueueSkip');
  });
});

// upstream: pkg/scheduler/framework/plugins/interpodaffinity/plugin.go (isSchedulableAfterPodChange,
// isSchedulableAfterNodeChange)
describe('InterPodAffinity hints', () => {
  const term = (app: string) => ({
    labelSelector: { matchLabels: { app } },
    topologyKey: 'topology.kubernetes.io/zone'
  });
  const pod = makePod('web', {
    spec: {
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('cache')] },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('web')] }
      }
    }
  });
  const hint = (p: KubeObject, o?: KubeObject, n?: KubeObject) => IPA.isSchedulableAfterPodChange(p, o, n);
  it('queues for pods that satisfy its affinity or stop blocking it', () => {
    expectRows(
      table(pod, hint, [
        ['a cache pod is bound', undefined, bound('cache-1', 'n', { labels: { app: 'cache' } }), 'Queue'],
        ['an unrelated pod is bound', undefined, bound('db-1', 'n', { labels: { app: 'db' } }), 'QueueSkip'],
        [
          'a cache pod in another namespace is bound',
          undefined,
          bound('cache-2', 'n', { labels: { app: 'cache' }, namespace: 'other' }),
          'QueueSkip'
        ],
        ['a web pod is deleted', bound('web-0', 'n', { labels: { app: 'web' } }), undefined, 'Queue'],
        [
          'a cache pod is deleted',
          bound('cache-1', 'n', { labels: { app: 'cache' } }),
          undefined,
          'QueueSkip'
        ],
        [
          'a pod is relabelled web → other',
          bound('x', 'n', { labels: { app: 'web' } }),
          bound('x', 'n', { labels: { app: 'other' } }),
          'Queue'
        ],
        [
          'a pod is relabelled db → cache',
          bound('x', 'n', { labels: { app: 'db' } }),
          bound('x', 'n', { labels: { app: 'cache' } }),
          'Queue'
        ],
        [
          'a pending cache pod is added',
          undefined,
          makePod('cache-3', { labels: { app: 'cache' } }),
          'QueueSkip'
        ]
      ])
    );
  });
  it('affinity: queues for a new node with its topology key, or a node that gains it or moves to another value', () => {
    const affine = makePod('web', {
      spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('cache')] } } }
    });
    const zone = (z?: string) => makeNode('n', z ? { labels: { 'topology.kubernetes.io/zone': z } } : {});
    expectRows(
      table(affine, IPA.isSchedulableAfterNodeChange, [
        ['a node in zone a is added', undefined, zone('a'), 'Queue'],
        ['a node without a zone is added', undefined, zone(), 'QueueSkip'],
        ['a node gets a zone', zone(), zone('a'), 'Queue'],
        ['a node moves from zone a to b', zone('a'), zone('b'), 'Queue'],
        ['a node loses its zone', zone('a'), zone(), 'QueueSkip'],
        ['a node keeps its zone', zone('a'), zone('a'), 'QueueSkip']
      ])
    );
  });
  it('anti-affinity: queues for any new node, or a node that loses the topology key or moves to another value', () => {
    const anti = makePod('web', {
      spec: {
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('web')] } }
      }
    });
    const zone = (z?: string) => makeNode('n', z ? { labels: { 'topology.kubernetes.io/zone': z } } : {});
    expectRows(
      table(anti, IPA.isSchedulableAfterNodeChange, [
        ['a node without a zone is added', undefined, zone(), 'Queue'],
        ['a node in zone a is added', undefined, zone('a'), 'Queue'],
        ['a node loses its zone', zone('a'), zone(), 'Queue'],
        ['a node moves from zone a to b', zone('a'), zone('b'), 'Queue'],
        ['a node gets a zone', zone(), zone('a'), 'QueueSkip'],
        ['a node keeps its zone', zone('a'), zone('a'), 'QueueSkip']
      ])
    );
    // A pod without terms of its own (held back by another pod's anti-affinity) is not queued.
    expect(IPA.isSchedulableAfterNodeChange(makePod('plain'), undefined, zone('a'))).toBe('QueueSkip');
  });
  it('matches namespaces as the hint does: listed ones, or every one for an empty selector, never by namespace labels', () => {
    const inNs = (namespaces: string[] | undefined, namespaceSelector?: unknown) =>
      makePod('web', {
        spec: {
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                {
                  ...term('cache'),
                  ...(namespaces ? { namespaces } : {}),
                  ...(namespaceSelector ? { namespaceSelector } : {})
                }
              ]
            }
          }
        }
      });
    const cacheIn = (namespace: string) => bound('cache-1', 'n', { labels: { app: 'cache' }, namespace });
    const added = (p: KubeObject, ns: string) => IPA.isSchedulableAfterPodChange(p, undefined, cacheIn(ns));
    expect(added(inNs(['other']), 'other')).toBe('Queue');
    expect(added(inNs(['other']), 'default')).toBe('QueueSkip');
    expect(added(inNs(undefined, {}), 'anywhere')).toBe('Queue');
    expect(added(inNs(undefined, { matchLabels: { team: 'a' } }), 'team-a')).toBe('QueueSkip');
  });
});

// upstream: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (isSchedulableAfterPodChange,
// isSchedulableAfterNodeChange, nodeLabelsMatchSpreadConstraints, podLabelsMatchSpreadConstraints)
describe('PodTopologySpread hints', () => {
  const zone = 'topology.kubernetes.io/zone';
  const pod = makePod('web-3', {
    labels: { app: 'web' },
    spec: {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: zone,
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } }
        }
      ]
    }
  });
  pod.metadata.uid = 'uid-web-3';
  const podHint = hintFor('PodTopologySpread', 'AssignedPodDelete');
  const nodeHint = hintFor('PodTopologySpread', 'NodeAdd');
  const inZone = (z?: string, o: Parameters<typeof makeNode>[1] = {}) =>
    makeNode('n', { ...o, labels: z ? { [zone]: z } : {} });
  it('queues for pods its constraints count', () => {
    expectRows(
      table(pod, podHint, [
        ['a web pod is bound', undefined, bound('web-1', 'n', { labels: { app: 'web' } }), 'Queue'],
        ['a db pod is bound', undefined, bound('db-1', 'n', { labels: { app: 'db' } }), 'QueueSkip'],
        [
          'a web pod in another namespace is deleted',
          bound('web-1', 'n', { labels: { app: 'web' }, namespace: 'x' }),
          undefined,
          'QueueSkip'
        ],
        ['a web pod is deleted', bound('web-1', 'n', { labels: { app: 'web' } }), undefined, 'Queue'],
        [
          'a pod is relabelled web → db',
          bound('w', 'n', { labels: { app: 'web' } }),
          bound('w', 'n', { labels: { app: 'db' } }),
          'Queue'
        ],
        [
          'a pod gets another label',
          bound('w', 'n', { labels: { app: 'web' } }),
          bound('w', 'n', { labels: { app: 'web', v: '2' } }),
          'QueueSkip'
        ]
      ])
    );
  });
  it('queues for nodes with its topology keys', () => {
    const tainted = [{ key: 'x', effect: 'NoSchedule' }];
    expectRows(
      table(pod, nodeHint, [
        ['a zoned node is added', undefined, inZone('a'), 'Queue'],
        ['a node without a zone is added', undefined, inZone(), 'QueueSkip'],
        ['a zoned node is deleted', inZone('a'), undefined, 'Queue'],
        ['a node gets a zone', inZone(), inZone('a'), 'Queue'],
        ['a node moves zone a → b', inZone('a'), inZone('b'), 'Queue'],
        ['a zoned node is tainted', inZone('a'), inZone('a', { taints: tainted }), 'Queue'],
        ['a node without a zone is tainted', inZone(), inZone(undefined, { taints: tainted }), 'QueueSkip']
      ])
    );
  });
});
