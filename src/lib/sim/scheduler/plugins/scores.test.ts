import { describe, expect, it } from 'vitest';
import { Random } from '../../engine/random';
import type { KubeObject } from '../../api/types';
import { env, makeNode, makePod, podInfo } from '../testing';
import type { CycleState, Handle, Plugin, Status } from '../types';
import * as NodeResourcesFit from './NodeResourcesFit';
import * as BalancedAllocation from './NodeResourcesBalancedAllocation';
import * as ImageLocality from './ImageLocality';
import * as TaintToleration from './TaintToleration';
import * as NodeAffinity from './NodeAffinity';
import * as PodTopologySpread from './PodTopologySpread';
import * as InterPodAffinity from './InterPodAffinity';

/** PreScore, Score on every node, NormalizeScore: the normalized scores by node name (or the PreScore Skip). */
function scores(
  plugin: Plugin,
  pod: KubeObject,
  nodes: KubeObject[],
  bound: KubeObject[] = []
): Record<string, number> | Status {
  const { h } = env(nodes, bound);
  const state: CycleState = new Map();
  const pi = podInfo(pod);
  const pre = plugin.preScore?.(state, pi, h.nodes, h);
  if (pre) return pre;
  const s = h.nodes.map((n) => plugin.score!(state, pi, n, h));
  plugin.normalizeScore?.(state, pi, s, h.nodes);
  return Object.fromEntries(h.nodes.map((n, i) => [n.name, s[i]]));
}

const node = makeNode('n', { cpu: '4', memory: '8Gi' });
const existing = [makePod('e', { cpu: '1', memory: '2Gi', nodeName: 'n' })];
const incoming = makePod('p', { cpu: '1', memory: '1Gi' });

describe('NodeResourcesFit scoring strategies', () => {
  it.each([
    // cpu (4000-2000)*100/4000 = 50; memory (8-3)*100/8 = 62; (50+62)/2 = 56
    ['LeastAllocated', { type: 'LeastAllocated' }, 56],
    // cpu 50, memory 3*100/8 = 37; (50+37)/2 = 43 (integer division)
    ['MostAllocated', { type: 'MostAllocated' }, 43],
    // shape 0→0, 100→10 scaled ×10: cpu 50, memory 37; round(87/2) = 44
    [
      'RequestedToCapacityRatio',
      {
        type: 'RequestedToCapacityRatio',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 }
        ],
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 0 },
            { utilization: 100, score: 10 }
          ]
        }
      },
      44
    ],
    // weights cpu 3, memory 1: round((150 + 37) / 4) = 47
    [
      'RequestedToCapacityRatio with weights',
      {
        type: 'RequestedToCapacityRatio',
        resources: [
          { name: 'cpu', weight: 3 },
          { name: 'memory', weight: 1 }
        ],
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 0 },
            { utilization: 100, score: 10 }
          ]
        }
      },
      47
    ],
    // spreading shape 0→10, 100→0, scaled to 100→0 before interpolating: cpu 50, memory 100 − 37 = 63; round(56.5) = 57
    [
      'RequestedToCapacityRatio, spreading shape',
      {
        type: 'RequestedToCapacityRatio',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 }
        ],
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 10 },
            { utilization: 100, score: 0 }
          ]
        }
      },
      57
    ]
  ])('%s', (_n, scoringStrategy, want) => {
    const plugin = NodeResourcesFit.create({
      scoringStrategy: scoringStrategy as NodeResourcesFit.NodeResourcesFitArgs['scoringStrategy']
    });
    expect(scores(plugin, incoming, [node], existing)).toEqual({ n: want });
  });

  it('scores a pod without requests with the non-zero defaults (100m, 200Mi)', () => {
    // cpu (4000-100)*100/4000 = 97; memory (8192-200)*100/8192 = 97
    expect(scores(NodeResourcesFit.create(), makePod('p'), [node])).toEqual({ n: 97 });
  });

  it('leaves out extended resources the pod does not request', () => {
    const plugin = NodeResourcesFit.create({
      scoringStrategy: {
        type: 'LeastAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'nvidia.com/gpu', weight: 5 }
        ]
      }
    });
    const gpuNode = makeNode('n', { cpu: '4', extra: { 'nvidia.com/gpu': '4' } });
    expect(scores(plugin, incoming, [gpuNode], existing)).toEqual({ n: 50 });
    // With a GPU request: cpu 50 ×1, gpu (4-2)*100/4 = 50 ×5 → 300/6 = 50; with 3 GPUs: 25 ×5 + 50 = 175/6 = 29
    const gpuPod = makePod('g', { cpu: '1', requests: { 'nvidia.com/gpu': '3' } });
    expect(scores(plugin, gpuPod, [gpuNode], existing)).toEqual({ n: 29 });
  });

  it('integer helpers match upstream', () => {
    expect(NodeResourcesFit.leastRequestedScore(3, 2)).toBe(0);
    expect(NodeResourcesFit.leastRequestedScore(1, 3)).toBe(66);
    expect(NodeResourcesFit.mostRequestedScore(5, 4)).toBe(100);
    expect(NodeResourcesFit.mostRequestedScore(1, 3)).toBe(33);
    const f = NodeResourcesFit.brokenLinear([
      { utilization: 10, score: 20 },
      { utilization: 50, score: 80 }
    ]);
    expect([f(0), f(10), f(30), f(33), f(50), f(90)]).toEqual([20, 20, 50, 54, 80, 80]);
  });
});

describe('NodeResourcesBalancedAllocation', () => {
  it('scores (1 - |f_cpu - f_mem| / 2) × 100 on actual requests', () => {
    // cpu 2/4 = 0.5, memory 3/8 = 0.375 → std 0.0625 → 93
    expect(scores(BalancedAllocation.create(), incoming, [node], existing)).toEqual({ n: 93 });
  });

  it('uses the population standard deviation for three resources', () => {
    const plugin = BalancedAllocation.create({
      resources: [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
        { name: 'nvidia.com/gpu', weight: 1 }
      ]
    });
    const gpuNode = makeNode('n', { cpu: '4', memory: '8Gi', extra: { 'nvidia.com/gpu': '4' } });
    const pod = makePod('p', { cpu: '1', memory: '1Gi', requests: { 'nvidia.com/gpu': '2' } });
    // fractions 0.5, 0.375, 0.5 → std 0.0589 → 94
    expect(scores(plugin, pod, [gpuNode], existing)).toEqual({ n: 94 });
  });

  it('skips BestEffort pods at PreScore (issue #129138)', () => {
    expect(scores(BalancedAllocation.create(), makePod('p'), [node], existing)).toEqual({
      code: 'Skip',
      reasons: []
    });
  });
});

describe('ImageLocality', () => {
  const mb = 1024 * 1024;
  const nodes = [
    makeNode('a', { images: [{ names: ['nginx:1.25'], sizeBytes: 500 * mb }] }),
    makeNode('b', { images: [{ names: ['nginx:1.25'], sizeBytes: 500 * mb }] }),
    makeNode('c')
  ];
  it('scales image size by the share of nodes that have it', () => {
    // 500MB × 2/3 = 349525333; 100 × (349525333 − 23MB) / (1000MB − 23MB) = 31
    expect(scores(ImageLocality.create(), makePod('p', { image: 'nginx:1.25' }), nodes)).toEqual({
      a: 31,
      b: 31,
      c: 0
    });
  });
  it('raises the threshold with the number of containers', () => {
    const pod = makePod('p', {
      image: 'nginx:1.25',
      spec: { initContainers: [{ name: 'i', image: 'busybox' }] }
    });
    // max threshold 2000MB: 100 × (349525333 − 24117248) / (2097152000 − 24117248) = 15
    expect(scores(ImageLocality.create(), pod, nodes)).toEqual({ a: 15, b: 15, c: 0 });
  });
  it.each([
    ['nginx', 'nginx:latest'],
    ['registry:5000/app', 'registry:5000/app:latest'],
    ['nginx:1.25', 'nginx:1.25'],
    ['nginx@sha256:abcd', 'nginx@sha256:abcd']
  ])('normalizes %s to %s', (name, want) => {
    expect(ImageLocality.normalizedImageName(name)).toBe(want);
  });
});

describe('TaintToleration score', () => {
  const soft = (key: string) => ({ key, effect: 'PreferNoSchedule' });
  const nodes = [
    makeNode('n1'),
    makeNode('n2', { taints: [soft('a')] }),
    makeNode('n3', { taints: [soft('a'), soft('b')] })
  ];
  it.each([
    ['untolerated PreferNoSchedule taints, reversed', [], { n1: 100, n2: 50, n3: 0 }],
    [
      'a toleration with an empty effect counts',
      [{ key: 'a', operator: 'Exists' }],
      { n1: 100, n2: 100, n3: 0 }
    ],
    [
      'NoSchedule tolerations do not count',
      [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }],
      { n1: 100, n2: 50, n3: 0 }
    ],
    ['everything tolerated', [{ operator: 'Exists' }], { n1: 100, n2: 100, n3: 100 }]
  ])('%s', (_n, tolerations, want) => {
    expect(
      scores(TaintToleration.create(undefined, { minor: 35 }), makePod('p', { spec: { tolerations } }), nodes)
    ).toEqual(want);
  });
});

describe('NodeAffinity score', () => {
  const nodes = [
    makeNode('n1', { labels: { zone: 'a' } }),
    makeNode('n2', { labels: { disk: 'ssd' } }),
    makeNode('n3', { labels: { zone: 'a', disk: 'ssd' } }),
    makeNode('n4')
  ];
  const pref = (weight: number, key: string, value: string) => ({
    weight,
    preference: { matchExpressions: [{ key, operator: 'In', values: [value] }] }
  });
  it('sums matching weights and scales by the maximum', () => {
    const pod = makePod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [pref(10, 'zone', 'a'), pref(30, 'disk', 'ssd')]
          }
        }
      }
    });
    expect(scores(NodeAffinity.create(), pod, nodes)).toEqual({ n1: 25, n2: 75, n3: 100, n4: 0 });
  });
  it('skips pods without preferred terms', () => {
    expect(scores(NodeAffinity.create(), makePod('p'), nodes)).toEqual({ code: 'Skip', reasons: [] });
  });
});

describe('PodTopologySpread', () => {
  const web = (name: string, nodeName: string) => makePod(name, { labels: { app: 'web' }, nodeName });
  const zoned = [
    makeNode('n1', { labels: { 'topology.kubernetes.io/zone': 'a' } }),
    makeNode('n2', { labels: { 'topology.kubernetes.io/zone': 'b' } }),
    makeNode('n3', { labels: { 'topology.kubernetes.io/zone': 'c' } })
  ];
  const constraint = (topologyKey: string, whenUnsatisfiable: string, maxSkew = 1) => ({
    topologySpreadConstraints: [
      { maxSkew, topologyKey, whenUnsatisfiable, labelSelector: { matchLabels: { app: 'web' } } }
    ]
  });

  it('filters by skew against the least loaded domain', () => {
    const pl = PodTopologySpread.create();
    const pod = makePod('p', {
      labels: { app: 'web' },
      spec: constraint('topology.kubernetes.io/zone', 'DoNotSchedule')
    });
    const nodes = [...zoned, makeNode('n4')];
    const { h } = env(nodes, [web('w1', 'n1')]);
    const state: CycleState = new Map();
    const pi = podInfo(pod);
    expect(pl.preFilter!(state, pi, h)).toBeNull();
    const got = Object.fromEntries(h.nodes.map((n) => [n.name, pl.filter!(state, pi, n, h)]));
    expect(got).toEqual({
      n1: { code: 'Unschedulable', reasons: ["node(s) didn't match pod topology spread constraints"] },
      n2: null,
      n3: null,
      n4: {
        code: 'UnschedulableAndUnresolvable',
        reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"]
      }
    });
  });

  it('scores cnt × log(domains + 2) + maxSkew − 1, fewer matching pods first', () => {
    const pod = makePod('p', {
      labels: { app: 'web' },
      spec: constraint('kubernetes.io/hostname', 'ScheduleAnyway')
    });
    // raw: n1 round(2 × ln 5) = 3, n2 round(ln 5) = 2, n3 0 → 100 × (3 + 0 − s) / 3
    const got = scores(PodTopologySpread.create(), pod, zoned, [
      web('a', 'n1'),
      web('b', 'n1'),
      web('c', 'n2')
    ]);
    expect(got).toEqual({ n1: 0, n2: 33, n3: 100 });
  });

  it('applies the system default constraints to pods selected by a Service', () => {
    const { cache } = env(zoned, [web('a', 'n1'), web('b', 'n1')]);
    cache.setSources({
      services: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web', namespace: 'default' },
          spec: { selector: { app: 'web' } }
        }
      ]
    });
    const h = cache.handle;
    const pl = PodTopologySpread.create();
    const state: CycleState = new Map();
    const pi = podInfo(makePod('p', { labels: { app: 'web' } }));
    expect(pl.preFilter!(state, pi, h)).toEqual({ code: 'Skip', reasons: [] });
    expect(pl.preScore!(state, pi, h.nodes, h)).toBeNull();
    // hostname (maxSkew 3): 2 × ln 5 + 2 = 5.22 on n1, 2 elsewhere; zone (maxSkew 5): 2 × ln 5 + 4 = 7.22 on n1, 4 elsewhere
    const s = h.nodes.map((n) => pl.score!(state, pi, n, h));
    expect(s).toEqual([12, 6, 6]);
    pl.normalizeScore!(state, pi, s, h.nodes);
    expect(s).toEqual([50, 100, 100]);
  });

  // upstream: pkg/scheduler/framework/plugins/podtopologyspread/scoring.go (countPodsMatchSelector per
  // node); one plugin instance keeps a node's counts across cycles while its pods' labels stay the same.
  it('counts a node again when a pod on it changes labels or starts terminating, not when its status changes', () => {
    const pl = PodTopologySpread.create();
    const pod = makePod('p', {
      labels: { app: 'web' },
      spec: constraint('kubernetes.io/hostname', 'ScheduleAnyway')
    });
    const { cache, h } = env(zoned, [web('a', 'n1'), web('b', 'n1'), web('c', 'n2')]);
    const run = () => {
      const state: CycleState = new Map();
      const pi = podInfo(pod);
      pl.preScore!(state, pi, h.nodes, h);
      const s = h.nodes.map((n) => pl.score!(state, pi, n, h));
      pl.normalizeScore!(state, pi, s, h.nodes);
      return s;
    };
    expect(run()).toEqual([0, 33, 100]);
    // A status change (same labels object): the same counts.
    const b = web('b', 'n1');
    const labels = Object.freeze({ app: 'web' });
    cache.addPod({ ...b, metadata: { ...b.metadata, labels }, status: { phase: 'Running' } }, 'n1');
    expect(run()).toEqual([0, 33, 100]);
    // b relabelled out of the selector: n1 and n2 now hold one matching pod each.
    cache.addPod({ ...b, metadata: { ...b.metadata, labels: { app: 'db' } } }, 'n1');
    expect(run()).toEqual([0, 0, 100]);
    // c terminating: it no longer counts.
    const c = web('c', 'n2');
    cache.addPod({ ...c, metadata: { ...c.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, 'n2');
    expect(run()).toEqual([0, 100, 100]);
  });

  // upstream: pkg/scheduler/framework/plugins/podtopologyspread/filtering.go and scoring.go sum every
  // node's matching pods per domain (processAllNode); the plugin keeps those sums per node and catches
  // up on the nodes the cache rewrote. After every change they must equal a walk of every node.
  it('keeps per-domain sums across cycles equal to a walk of every node', () => {
    const zone = 'topology.kubernetes.io/zone';
    const nodes = Array.from({ length: 12 }, (_, i) =>
      makeNode(`n${i}`, {
        labels: {
          ...(i === 11 ? {} : { [zone]: 'abc'[i % 3] }),
          ...(i % 4 === 0 ? { disk: 'ssd' } : {})
        },
        taints: i % 5 === 0 ? [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] : undefined
      })
    );
    const { cache } = env(nodes);
    cache.setSources({
      services: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web', namespace: 'default' },
          spec: { selector: { app: 'web' } }
        }
      ]
    });
    const sel = { matchLabels: { app: 'web' } };
    const kinds = [
      // the system defaults (Service selector), hostname and zone, soft
      makePod('d', { labels: { app: 'web' } }),
      // own hard zone constraint, honoring the pod's nodeSelector
      makePod('h', {
        labels: { app: 'web' },
        spec: {
          nodeSelector: { disk: 'ssd' },
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: zone, whenUnsatisfiable: 'DoNotSchedule', labelSelector: sel }
          ]
        }
      }),
      // own soft zone constraint honoring taints, with a toleration; nodes without the key ignored
      makePod('t', {
        labels: { app: 'web' },
        spec: {
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }],
          topologySpreadConstraints: [
            {
              maxSkew: 2,
              topologyKey: zone,
              whenUnsatisfiable: 'ScheduleAnyway',
              nodeTaintsPolicy: 'Honor',
              labelSelector: sel
            }
          ]
        }
      })
    ];
    const pl = PodTopologySpread.create();
    const cycle = (pod: KubeObject, h: Handle) => {
      const pi = podInfo(pod);
      const state: CycleState = new Map();
      const pre = pl.preFilter!(state, pi, h);
      const pf = state.get('PreFilterPodTopologySpread') as { counts: Map<string, number>[]; min: number[] };
      pl.preScore!(state, pi, h.nodes, h);
      const ps = state.get('PreScorePodTopologySpread') as { counts: Map<string, number>[] } | undefined;
      const sorted = (ms: Map<string, number>[] | undefined) =>
        ms?.map((m) => [...m].sort((a, b) => a[0].localeCompare(b[0])));
      // Score node by node, and in one batch reading the kept per-node counts by position.
      let one: number[] | undefined;
      let all: number[] | undefined;
      if (ps) {
        one = h.nodes.map((n) => pl.score!(state, pi, n, h));
        all = new Array<number>(h.nodes.length).fill(-1);
        pl.scoreAll!(
          state,
          pi,
          h.nodes,
          all,
          h,
          h.columns ? Int32Array.from(h.nodes, (_, i) => i) : undefined
        );
      }
      return { pre, pf: sorted(pf?.counts), min: pf?.min, ps: sorted(ps?.counts), one, all };
    };
    const random = new Random(7);
    const rand = (n: number) => random.int(n);
    const placed: { name: string; node: string }[] = [];
    let checked = 0;
    let statusWrites = 0;
    for (let step = 0; step < 300; step++) {
      const op = rand(12);
      if (op >= 10 && placed.length) {
        // status writes: a pod's, with its stored labels object, and a Node's, with its labels
        const p = placed[rand(placed.length)];
        const ni = cache.nodeInfo(p.node)!;
        const cur = ni.pods.find((x) => x.key === `default/${p.name}`)!.pod;
        cache.addPod({ ...cur, status: { phase: 'Running', step } }, p.node);
        cache.upsertNode({ ...ni.node, status: { ...ni.node.status, step } });
        statusWrites++;
      } else if (op < 6 || !placed.length) {
        const name = `w${step}`;
        const node = `n${rand(12)}`;
        const labels = Object.freeze({ app: rand(3) ? 'web' : 'db' });
        const pod = makePod(name, { nodeName: node });
        cache.addPod({ ...pod, metadata: { ...pod.metadata, labels } }, node);
        placed.push({ name, node });
      } else if (op < 8) {
        const [p] = placed.splice(rand(placed.length), 1);
        cache.removePod(`default/${p.name}`);
      } else if (op < 9) {
        const p = placed[rand(placed.length)];
        const pod = makePod(p.name, { labels: { app: rand(2) ? 'web' : 'db' }, nodeName: p.node });
        // now and then the update is the start of its termination
        if (!rand(4)) pod.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
        cache.addPod(pod, p.node);
      } else {
        // a node's status or labels change: the Node is replaced in the cache
        const i = rand(11);
        cache.upsertNode(makeNode(`n${i}`, { labels: { [zone]: 'abc'[rand(3)] } }));
      }
      const h = cache.handle;
      for (const pod of kinds) {
        const kept = cycle(pod, h);
        expect(kept).toEqual(cycle(pod, { ...h, columns: undefined }));
        expect(kept.all).toEqual(kept.one);
        checked++;
      }
    }
    expect(checked).toBe(900);
    expect(statusWrites).toBeGreaterThan(30);
    // Each node's label pairs as its pods give them now.
    for (const ni of cache.handle.nodes) {
      const fresh = new Map<string, Map<string, number>>();
      for (const p of ni.pods) {
        if (p.pod.metadata.deletionTimestamp) continue;
        const m = fresh.get(p.namespace) ?? new Map<string, number>();
        fresh.set(p.namespace, m);
        for (const [k, v] of Object.entries(p.pod.metadata.labels ?? {}))
          m.set(`${k}\u0000${v}`, (m.get(`${k}\u0000${v}`) ?? 0) + 1);
      }
      for (const [ns, m] of ni.labelPairs) if (!m.size && !fresh.has(ns)) fresh.set(ns, new Map());
      expect(ni.labelPairs).toEqual(fresh);
    }
    // the last cycle's sums are not all empty: the comparison saw real counts
    const last = cycle(kinds[0], cache.handle);
    expect(last.ps![1].reduce((a, [, n]) => a + n, 0)).toBeGreaterThan(10);
  });

  // upstream: pkg/scheduler/framework/plugins/helper/spread.go DefaultSelector — Services, then
  // ReplicationControllers, ReplicaSets and StatefulSets of the pod's namespace that select it.
  it('reads the default selector from the workloads in the namespace of the pod that select it', () => {
    const { cache } = env(zoned);
    const obj = (kind: string, name: string, namespace: string, spec: object) => ({
      apiVersion: 'v1',
      kind,
      metadata: { name, namespace },
      spec
    });
    cache.setSources({
      replicaSets: [
        obj('ReplicaSet', 'web-1', 'default', { selector: { matchLabels: { app: 'web', hash: '1' } } }),
        obj('ReplicaSet', 'web-2', 'default', { selector: { matchLabels: { app: 'web', hash: '2' } } }),
        obj('ReplicaSet', 'other', 'shop', { selector: { matchLabels: { app: 'web' } } })
      ],
      services: [
        obj('Service', 'web', 'default', { selector: { app: 'web' } }),
        obj('Service', 'none', 'default', { selector: {} }),
        obj('Service', 'tier', 'default', { selector: { tier: 'front', app: 'web' } })
      ]
    });
    const pod = makePod('p', { labels: { hash: '1', app: 'web', tier: 'front' } });
    expect(cache.handle.selectorsFor(pod)).toEqual([
      { app: 'web' },
      { tier: 'front', app: 'web' },
      { app: 'web', hash: '1' }
    ]);
    expect(cache.handle.selectorsFor(makePod('q', { labels: { app: 'web' }, namespace: 'shop' }))).toEqual([
      { app: 'web' }
    ]);
    expect(cache.handle.selectorsFor(makePod('r', { labels: { app: 'db' } }))).toEqual([]);
  });

  it('names the pods of a node as selectors see them: a status write keeps the version, a label change does not', () => {
    const labels = Object.freeze({ app: 'web' });
    const w = makePod('w', { nodeName: 'n1' });
    const at = (o: object) => ({ ...w, metadata: { ...w.metadata, labels, ...o } });
    const { cache } = env(zoned);
    cache.addPod(at({}), 'n1');
    const v = cache.nodeInfo('n1')!.podLabelsVersion;
    cache.addPod({ ...at({}), status: { phase: 'Running' } }, 'n1');
    expect(cache.nodeInfo('n1')!.podLabelsVersion).toBe(v);
    cache.upsertNode(makeNode('n1', { labels: { 'topology.kubernetes.io/zone': 'a' } }));
    expect(cache.nodeInfo('n1')!.podLabelsVersion).toBe(v);
    cache.addPod(at({ labels: Object.freeze({ app: 'web' }) }), 'n1');
    const relabelled = cache.nodeInfo('n1')!.podLabelsVersion;
    expect(relabelled).not.toBe(v);
    cache.addPod(
      at({ labels: cache.nodeInfo('n1')!.pods[0].pod.metadata.labels, deletionTimestamp: 'x' }),
      'n1'
    );
    expect(cache.nodeInfo('n1')!.podLabelsVersion).not.toBe(relabelled);
    const n2 = cache.nodeInfo('n2')!.podLabelsVersion;
    cache.addPod(at({}), 'n2');
    expect(cache.nodeInfo('n2')!.podLabelsVersion).not.toBe(n2);
    expect(cache.nodeInfo('n1')!.pods).toEqual([]);
  });

  it('has no default constraints for a pod nothing selects', () => {
    expect(scores(PodTopologySpread.create(), makePod('p', { labels: { app: 'web' } }), zoned)).toEqual({
      code: 'Skip',
      reasons: []
    });
  });
});

describe('InterPodAffinity', () => {
  const nodes = [
    makeNode('n1', { labels: { zone: 'a' } }),
    makeNode('n2', { labels: { zone: 'b' } }),
    makeNode('n3', { labels: { zone: 'c' } })
  ];
  const term = (app: string, topologyKey: string) => ({
    labelSelector: { matchLabels: { app } },
    topologyKey
  });
  function filter(pod: KubeObject, bound: KubeObject[]): Record<string, Status | null> {
    const pl = InterPodAffinity.create();
    const { h } = env(nodes, bound);
    const state: CycleState = new Map();
    const pi = podInfo(pod);
    const pre = pl.preFilter!(state, pi, h);
    if (pre) return { pre };
    return Object.fromEntries(h.nodes.map((n) => [n.name, pl.filter!(state, pi, n, h)]));
  }

  it('required anti-affinity keeps the pod away', () => {
    const pod = makePod('p', {
      labels: { app: 'web' },
      spec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'kubernetes.io/hostname')]
          }
        }
      }
    });
    expect(filter(pod, [makePod('w', { labels: { app: 'web' }, nodeName: 'n1' })])).toEqual({
      n1: { code: 'Unschedulable', reasons: ["node(s) didn't match pod anti-affinity rules"] },
      n2: null,
      n3: null
    });
  });

  it('required affinity needs a matching pod in the topology domain', () => {
    const pod = makePod('p', {
      spec: {
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('db', 'zone')] } }
      }
    });
    const r = filter(pod, [makePod('db', { labels: { app: 'db' }, nodeName: 'n2' })]);
    expect(r.n1).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ["node(s) didn't match pod affinity rules"]
    });
    expect(r.n2).toBeNull();
  });

  it('lets the first pod of a self-affine group in', () => {
    const pod = makePod('p', {
      labels: { app: 'web' },
      spec: {
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'zone')] } }
      }
    });
    expect(filter(pod, [])).toEqual({ n1: null, n2: null, n3: null });
  });

  it("honours existing pods' anti-affinity", () => {
    const guard = makePod('g', {
      nodeName: 'n3',
      spec: {
        affinity: {
          podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'zone')] }
        }
      }
    });
    const r = filter(makePod('p', { labels: { app: 'web' } }), [guard]);
    expect(r.n3).toEqual({
      code: 'Unschedulable',
      reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"]
    });
    expect(r.n1).toBeNull();
  });

  it('skips PreFilter when no pod has required terms', () => {
    expect(filter(makePod('p'), [makePod('x', { nodeName: 'n1' })])).toEqual({
      pre: { code: 'Skip', reasons: [] }
    });
  });

  it('scores preferred terms min-max normalized', () => {
    const pod = makePod('p', {
      spec: {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 50, podAffinityTerm: term('cache', 'zone') }
            ]
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 20, podAffinityTerm: term('batch', 'zone') }
            ]
          }
        }
      }
    });
    const bound = [
      makePod('c', { labels: { app: 'cache' }, nodeName: 'n2' }),
      makePod('b', { labels: { app: 'batch' }, nodeName: 'n3' })
    ];
    // raw n1 0, n2 50, n3 −20 → 100 × (s + 20) / 70
    expect(scores(InterPodAffinity.create(), pod, nodes, bound)).toEqual({ n1: 28, n2: 100, n3: 0 });
  });

  it("counts existing pods' required affinity with hardPodAffinityWeight", () => {
    const friend = makePod('f', {
      nodeName: 'n1',
      spec: {
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'zone')] } }
      }
    });
    const pod = makePod('p', { labels: { app: 'web' } });
    expect(scores(InterPodAffinity.create(), pod, nodes, [friend])).toEqual({ n1: 100, n2: 0, n3: 0 });
    expect(scores(InterPodAffinity.create({ hardPodAffinityWeight: 0 }), pod, nodes, [friend])).toEqual({
      code: 'Skip',
      reasons: []
    });
  });
});
