import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { nodeStatusHasChanged } from './nodestatus';
import { clusterWithNode, createPod, events, nodeCondition, runWatching } from './testing';

type Condition = Record<string, string | null>;

/** What the node lifecycle controller writes when it stops hearing from a node. */
function markUnknown(c: ReturnType<typeof clusterWithNode>['c']): void {
  const n = c.api.get<KubeObject>('Node', undefined, 'worker-1');
  const conditions = (n.status.conditions as Condition[]).map((x) =>
    x.type === 'Ready'
      ? {
          ...x,
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastTransitionTime: c.api.timestamp()
        }
      : x
  );
  c.api.patch(
    'Node',
    undefined,
    'worker-1',
    { status: { conditions } },
    { component: 'kube-controller-manager' },
    { subresource: 'status' }
  );
}

describe('kubelet NodeStatus against the live Node', () => {
  it('corrects a Ready condition set to Unknown at the next 10s sync, not 5 minutes later', () => {
    const { c } = clusterWithNode();
    c.advance(60_000);
    const readyBefore = nodeCondition(c, 'Ready') as unknown as Condition;
    expect(readyBefore).toMatchObject({ status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' });
    markUnknown(c);
    // Status syncs run every 10 s from registration (0.1 s): the next one is at 1m10.1s.
    c.runUntil(70_099);
    expect(nodeCondition(c, 'Ready').status).toBe('Unknown');
    c.runUntil(70_100);
    expect(nodeCondition(c, 'Ready') as unknown as Condition).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      lastHeartbeatTime: '2026-01-01T00:01:10Z',
      lastTransitionTime: '2026-01-01T00:01:10Z'
    });
    // The setter compares with the Node's condition, so the transition is an event again.
    expect(events(c, 'NodeReady', 'Node/worker-1')).toEqual([
      [100, 'Node worker-1 status is now: NodeReady'],
      [70_100, 'Node worker-1 status is now: NodeReady']
    ]);
  });

  it('GETs the Node every 10s and PATCHes only when something but heartbeats changed', () => {
    const { c } = clusterWithNode();
    const gets = () => c.api.requestCounts()['get nodes'] ?? 0;
    const patches = () => c.api.requestCounts()['patch nodes/status'] ?? 0;
    const [g0, p0] = [gets(), patches()];
    c.advance(120_000);
    expect(gets() - g0).toBe(12);
    expect(patches() - p0).toBe(0);
  });
});

describe('nodeStatusHasChanged', () => {
  const ready = (heartbeat: string, status = 'True'): Condition => ({
    type: 'Ready',
    status,
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: '2026-01-01T00:00:00Z'
  });
  const memory: Condition = { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: 'x' };

  it('ignores heartbeat times, condition order, key order and omitted empty fields', () => {
    expect(
      nodeStatusHasChanged(
        { capacity: { cpu: '4', pods: '110' }, conditions: [ready('a'), memory], images: [] },
        {
          conditions: [{ ...memory, lastHeartbeatTime: 'y' }, ready('b')],
          capacity: { pods: '110', cpu: '4' }
        }
      )
    ).toBe(false);
  });

  it('sees a condition status, a capacity or a condition count change', () => {
    expect(nodeStatusHasChanged({ conditions: [ready('a')] }, { conditions: [ready('a', 'Unknown')] })).toBe(
      true
    );
    expect(nodeStatusHasChanged({ capacity: { cpu: '4' } }, { capacity: { cpu: '8' } })).toBe(true);
    expect(nodeStatusHasChanged({ conditions: [ready('a')] }, { conditions: [ready('a'), memory] })).toBe(
      true
    );
  });

  it('answers as the sort-and-copy comparison it replaced, for every pair of sample statuses', () => {
    // The comparison before (kubelet_node_status.go nodeStatusHasChanged: both condition lists
    // sorted by type, compared pairwise with heartbeats nulled; the rest compared whole).
    const zero = (v: unknown): boolean =>
      v === undefined || v === null || v === '' || v === 0 || v === false
        ? true
        : Array.isArray(v)
          ? v.length === 0
          : typeof v === 'object'
            ? Object.values(v as object).every(zero)
            : false;
    const same = (a: unknown, b: unknown): boolean => {
      if (a === b) return true;
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
        return zero(a) && zero(b);
      if (Array.isArray(a) !== Array.isArray(b)) return zero(a) && zero(b);
      if (Array.isArray(a)) {
        const bs = b as unknown[];
        return a.length === bs.length && a.every((x, i) => same(x, bs[i]));
      }
      const ra = a as Record<string, unknown>;
      const rb = b as Record<string, unknown>;
      for (const k in ra) if (!same(ra[k], rb[k])) return false;
      for (const k in rb) if (!Object.hasOwn(ra, k) && !same(undefined, rb[k])) return false;
      return true;
    };
    const byType = (x: Condition, y: Condition) =>
      String(x.type) < String(y.type) ? -1 : String(x.type) > String(y.type) ? 1 : 0;
    const reference = (o: Record<string, unknown>, n: Record<string, unknown>): boolean => {
      if (zero(o) && zero(n)) return false;
      if (zero(o) || zero(n)) return true;
      const { conditions: a = [], ...restA } = o as { conditions?: Condition[] };
      const { conditions: b = [], ...restB } = n as { conditions?: Condition[] };
      if (a.length !== b.length) return true;
      const sa = [...a].sort(byType);
      const sb = [...b].sort(byType);
      for (let i = 0; i < sa.length; i++)
        if (!same({ ...sa[i], lastHeartbeatTime: null }, { ...sb[i], lastHeartbeatTime: null })) return true;
      return !same(restA, restB);
    };
    const disk: Condition = { type: 'DiskPressure', status: 'False', lastHeartbeatTime: 'z' };
    const conditionLists: (Condition[] | undefined)[] = [
      undefined,
      [],
      [ready('a')],
      [ready('b')],
      [ready('a', 'False')],
      [ready('a'), memory],
      [memory, ready('c')],
      [memory, disk],
      [ready('a'), disk],
      [ready('a'), ready('b')],
      [ready('a'), { ...memory, reason: '' }],
      [ready('a'), { ...memory, message: 'm' }],
      [{ type: '', status: 'True' }, memory],
      [{ status: 'True' } as Condition, memory]
    ];
    const rests: Record<string, unknown>[] = [
      {},
      { capacity: { cpu: '4' } },
      { capacity: { cpu: '4' }, images: [] },
      { capacity: { cpu: '8' } },
      { images: [{ names: ['a'], sizeBytes: 1 }] },
      { nodeInfo: { bootID: '' } }
    ];
    const statuses = conditionLists.flatMap((conditions) =>
      rests.map((rest) => (conditions ? { ...rest, conditions } : { ...rest }))
    );
    let changed = 0;
    for (const a of statuses)
      for (const b of statuses) {
        const want = reference(a, b);
        expect([a, b, nodeStatusHasChanged(a, b)]).toEqual([a, b, want]);
        if (want) changed++;
      }
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(statuses.length * statuses.length);
  });
});

describe('kubelet NodeSchedulable events', () => {
  // upstream: pkg/kubelet/kubelet_node_status.go (recordNodeSchedulableEvent) and
  // pkg/kubelet/events/event.go (NodeSchedulable, NodeNotSchedulable)
  it('records NodeNotSchedulable at the first status sync after a cordon and NodeSchedulable after uncordon', () => {
    const { c } = clusterWithNode();
    c.advance(20_000);
    expect(events(c, 'NodeNotSchedulable', 'Node/worker-1')).toEqual([]);
    const cordon = (v: boolean) =>
      c.api.patch('Node', undefined, 'worker-1', { spec: { unschedulable: v } }, { component: 'kubectl' });
    cordon(true);
    c.runUntil(30_100);
    expect(events(c, 'NodeNotSchedulable', 'Node/worker-1')).toEqual([
      [30_100, 'Node worker-1 status is now: NodeNotSchedulable']
    ]);
    c.runUntil(60_000);
    expect(events(c, 'NodeNotSchedulable', 'Node/worker-1')).toHaveLength(1);
    cordon(false);
    c.runUntil(60_100);
    expect(events(c, 'NodeSchedulable', 'Node/worker-1')).toEqual([
      [60_100, 'Node worker-1 status is now: NodeSchedulable']
    ]);
  });
});

describe('NodeStatus syncs that find nothing new', () => {
  // upstream: pkg/kubelet/kubelet_node_status.go (tryUpdateNodeStatus: the setters run every
  // nodeStatusUpdateFrequency; PATCH when nodeStatusHasChanged, or nodeStatusReportFrequency after
  // the last report)
  const patchTimes = (c: ReturnType<typeof clusterWithNode>['c']) =>
    c.api.requestCounts()['patch nodes/status'] ?? 0;
  const imageNames = (c: ReturnType<typeof clusterWithNode>['c']) =>
    (c.api.get<KubeObject>('Node', undefined, 'worker-1').status.images as { names: string[] }[]).flatMap(
      (i) => i.names.filter((n) => !n.includes('@'))
    );

  it('reports a newly pulled image at the next sync, not at the next 5-minute report', () => {
    const { c, k } = clusterWithNode();
    c.advance(60_000);
    const before = patchTimes(c);
    createPod(c, { name: 'cache', image: 'redis:7.4' });
    let pulledAt: number | undefined;
    runWatching(c, 120_000, () => {
      if (pulledAt === undefined && k.runtime.findImage('redis:7.4')) pulledAt = c.now;
    });
    expect(pulledAt).toBeDefined();
    expect(pulledAt!).toBeLessThan(110_000);
    expect(imageNames(c)).toContain('docker.io/library/redis:7.4');
    // One PATCH for the image (syncs run at x0.1 s): far before the report at 5m0.1s.
    expect(patchTimes(c) - before).toBe(1);
  });

  it('puts back a capacity another client changed at the next sync', () => {
    const { c } = clusterWithNode();
    c.advance(60_000);
    c.api.patch(
      'Node',
      undefined,
      'worker-1',
      { status: { capacity: { cpu: '64' } } },
      { component: 'kubectl' },
      { subresource: 'status' }
    );
    c.runUntil(70_099);
    expect(c.api.get<KubeObject>('Node', undefined, 'worker-1').status.capacity.cpu).toBe('64');
    c.runUntil(70_100);
    expect(c.api.get<KubeObject>('Node', undefined, 'worker-1').status.capacity.cpu).toBe('4');
  });

  it('reports every 5 minutes with a new heartbeat when nothing changed', () => {
    const { c } = clusterWithNode();
    const before = patchTimes(c);
    c.runUntil(600_100);
    // Registered at 0.1 s: reports at 5m0.1s and 10m0.1s.
    expect(patchTimes(c) - before).toBe(2);
    expect(nodeCondition(c, 'Ready') as unknown as Condition).toMatchObject({
      status: 'True',
      lastHeartbeatTime: '2026-01-01T00:10:00Z',
      lastTransitionTime: '2026-01-01T00:00:00Z'
    });
  });
});
