import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { clone } from '../../api/types';
import { Random } from '../../engine/random';
import { postReady, testCluster } from '../testing/harness';
import type { KubeControllerManager } from '../kube-controller-manager';
import { targetNodeName } from '../util/pods';
import { DaemonSetsController } from './daemon_controller';

function daemonSet(extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:1' }], ...extra }
      }
    }
  };
}

describe('daemonset controller', () => {
  it('runs one pod per eligible node, pinned by node affinity and carrying the DaemonSet tolerations', () => {
    const { cluster } = testCluster({
      nodes: [
        { name: 'w1', labels: { disk: 'ssd' } },
        { name: 'w2', labels: { disk: 'ssd' } },
        { name: 'w3', labels: { disk: 'hdd' } },
        {
          name: 'gpu',
          labels: { disk: 'ssd' },
          taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }]
        }
      ],
      schedule: false
    });
    const api = cluster.api;
    api.create(daemonSet({ nodeSelector: { disk: 'ssd' } }));
    cluster.advance(1);
    const pods = api.list<KubeObject>('Pod', { namespace: 'kube-system' });
    const target = (p: KubeObject) =>
      p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values[0];
    expect(pods.map(target).sort()).toEqual(['w1', 'w2']);
    const pod = pods[0];
    expect(pod.metadata.generateName).toBe('agent-');
    expect(pod.metadata.labels?.['pod-template-generation']).toBe('1');
    expect(pod.metadata.labels?.['controller-revision-hash']).toMatch(/^[a-z0-9]+$/);
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
    ).toEqual({
      matchFields: [{ key: 'metadata.name', operator: 'In', values: [target(pod)] }]
    });
    expect(pod.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }
    ]);
    expect(api.get<KubeObject>('DaemonSet', 'kube-system', 'agent').status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberMisscheduled: 0,
      numberReady: 0,
      numberAvailable: 0,
      numberUnavailable: 2,
      updatedNumberScheduled: 2
    });
    expect(cluster.eventLog.filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.object)).toEqual([
      'DaemonSet/kube-system/agent',
      'DaemonSet/kube-system/agent'
    ]);

    // A node relabelled into the selector gets its pod; one relabelled out loses it.
    api.patch('Node', undefined, 'w3', { metadata: { labels: { disk: 'ssd' } } }, { component: 'kubectl' });
    api.patch('Node', undefined, 'w1', { metadata: { labels: { disk: 'hdd' } } }, { component: 'kubectl' });
    cluster.advance(1);
    const live = api
      .list<KubeObject>('Pod', { namespace: 'kube-system' })
      .filter((p) => !p.metadata.deletionTimestamp);
    expect(live.map(target).sort()).toEqual(['w2', 'w3']);
  });

  // upstream: pkg/controller/daemon/daemon_controller.go (NodeShouldRunDaemonPod on every sync); the
  // verdicts are kept per stored Node and pod template, so a changed one of either is checked again.
  it('checks a node again when its Node or the pod template changes', () => {
    const { cluster } = testCluster({ nodes: [{ name: 'w1' }, { name: 'w2' }], schedule: false });
    const api = cluster.api;
    const kubectl = { component: 'kubectl' };
    const nodesWithPods = () =>
      api
        .list<KubeObject>('Pod', { namespace: 'kube-system' })
        .filter((p) => !p.metadata.deletionTimestamp)
        .map(
          (p) =>
            p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
              .matchFields[0].values[0]
        )
        .sort();
    api.create(daemonSet());
    cluster.advance(1);
    expect(nodesWithPods()).toEqual(['w1', 'w2']);
    // An untolerated NoExecute taint: the pod may not continue running there.
    api.patch(
      'Node',
      undefined,
      'w2',
      { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } },
      kubectl
    );
    cluster.advance(1);
    expect(nodesWithPods()).toEqual(['w1']);
    // The template learns to tolerate it: the same Node now gets a pod again.
    api.patch(
      'DaemonSet',
      'kube-system',
      'agent',
      { spec: { template: { spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } } } },
      kubectl
    );
    cluster.advance(1);
    expect(nodesWithPods()).toContain('w2');
  });

  it('adds the network-unavailable toleration for hostNetwork pods and counts ready pods', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2'] });
    const api = cluster.api;
    api.create(daemonSet({ hostNetwork: true }));
    cluster.advance(5_000);
    const pod = api.list<KubeObject>('Pod', { namespace: 'kube-system' })[0];
    expect(pod.spec.tolerations).toContainEqual({
      key: 'node.kubernetes.io/network-unavailable',
      operator: 'Exists',
      effect: 'NoSchedule'
    });
    expect(api.get<KubeObject>('DaemonSet', 'kube-system', 'agent').status).toEqual({
      currentNumberScheduled: 2,
      numberMisscheduled: 0,
      desiredNumberScheduled: 2,
      numberReady: 2,
      observedGeneration: 1,
      updatedNumberScheduled: 2,
      numberAvailable: 2
    });
  });

  it('replaces pods of an old template one node at a time', () => {
    const { cluster } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    const api = cluster.api;
    api.create(daemonSet());
    cluster.advance(5_000);
    const ds = structuredClone(api.get<KubeObject>('DaemonSet', 'kube-system', 'agent'));
    ds.spec.template.spec.containers[0].image = 'agent:2';
    api.update(ds, { component: 'kubectl' });
    let maxMissing = 0;
    const start = cluster.now;
    while (cluster.now < start + 30_000 && cluster.step()) {
      const ready = api
        .list<KubeObject>('Pod', { namespace: 'kube-system' })
        .filter((p) => !p.metadata.deletionTimestamp && p.status?.phase === 'Running').length;
      maxMissing = Math.max(maxMissing, 3 - ready);
    }
    expect(maxMissing).toBe(1);
    const images = api
      .list<KubeObject>('Pod', { namespace: 'kube-system' })
      .map((p) => p.spec.containers[0].image);
    expect(images).toEqual(['agent:2', 'agent:2', 'agent:2']);
    expect(api.get<KubeObject>('DaemonSet', 'kube-system', 'agent').status.updatedNumberScheduled).toBe(3);
  });
});

// upstream: pkg/controller/daemon/daemon_controller.go addNode, updateNode (shouldIgnoreNodeUpdate,
// then only the DaemonSets whose NodeShouldRunDaemonPod verdict for the node changed) and no
// node delete handler.
describe('daemonset controller node events', () => {
  function setup() {
    const { cluster, harness } = testCluster({
      nodes: [
        { name: 'w1', labels: { disk: 'ssd' } },
        { name: 'w2', labels: { disk: 'ssd' } }
      ],
      schedule: false
    });
    const api = cluster.api;
    api.create(daemonSet({ nodeSelector: { disk: 'ssd' } }));
    const other = daemonSet();
    other.metadata.name = 'everywhere';
    other.spec.selector = { matchLabels: { app: 'everywhere' } };
    other.spec.template.metadata.labels = { app: 'everywhere' };
    api.create(other);
    cluster.advance(1);
    const dsc = cluster
      .component<KubeControllerManager>('kube-controller-manager')!
      .controller('daemonset-controller') as unknown as { sync(key: string): void };
    const synced: string[] = [];
    const own = dsc.sync.bind(dsc);
    dsc.sync = (key) => {
      synced.push(key);
      own(key);
    };
    return { cluster, harness, api, synced };
  }
  const kubectl = { component: 'kubectl' };

  it('wakes no DaemonSet for a Node update that keeps its labels and taints (a heartbeat)', () => {
    const { cluster, api, synced } = setup();
    const node = api.get<KubeObject>('Node', undefined, 'w1');
    const beat = structuredClone(node);
    beat.status.conditions = (beat.status.conditions ?? []).map((c: { type: string }) => ({
      ...c,
      lastHeartbeatTime: '2030-01-01T00:00:00Z'
    }));
    api.update(beat, kubectl, { subresource: 'status' });
    api.patch('Node', undefined, 'w1', { metadata: { annotations: { note: 'x' } } }, kubectl);
    cluster.advance(1);
    expect(synced).toEqual([]);
  });

  it('wakes only the DaemonSets whose verdict for the node changed', () => {
    const { cluster, api, synced } = setup();
    // A label neither DaemonSet selects on: no verdict changes.
    api.patch('Node', undefined, 'w1', { metadata: { labels: { zone: 'a' } } }, kubectl);
    cluster.advance(1);
    expect(synced).toEqual([]);
    // Out of the nodeSelector: only 'agent' should no longer run there.
    api.patch('Node', undefined, 'w1', { metadata: { labels: { disk: 'hdd' } } }, kubectl);
    cluster.advance(1);
    expect(synced[0]).toBe('kube-system/agent');
    expect(synced).not.toContain('kube-system/everywhere');
  });

  it('wakes the DaemonSets that should run on a new node, and none for a deleted one', () => {
    const { cluster, api, synced } = setup();
    api.create(
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'w3', labels: { disk: 'hdd' } },
        spec: {},
        status: {}
      },
      kubectl
    );
    cluster.advance(1);
    expect(synced[0]).toBe('kube-system/everywhere');
    expect(synced).not.toContain('kube-system/agent');
    synced.length = 0;
    api.delete('Node', undefined, 'w3', {}, kubectl);
    cluster.advance(1);
    expect(synced).toEqual([]);
  });
});

describe('daemonset controller syncs that would write nothing', () => {
  function run(shortcut: boolean) {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3', 'w4'] });
    const api = cluster.api;
    const dsc = cluster
      .component<KubeControllerManager>('kube-controller-manager')!
      .controller('daemonset-controller') as unknown as {
      idle: Map<string, unknown>;
      sync(key: string): void;
    };
    if (!shortcut)
      dsc.idle.set = function () {
        return this;
      };
    let syncs = 0;
    let idle = 0;
    const own = dsc.sync.bind(dsc);
    const idleGet = dsc.idle.get.bind(dsc.idle);
    dsc.idle.get = (key: string) => {
      const got = idleGet(key);
      if (got) idle++;
      return got;
    };
    dsc.sync = (key) => {
      syncs++;
      own(key);
    };
    api.create(daemonSet());
    cluster.advance(5_000);
    // Updates of the pods that change nothing the sync reads (an annotation), then ones that do.
    for (const p of api.list<KubeObject>('Pod', { namespace: 'kube-system' }))
      api.patch(
        'Pod',
        'kube-system',
        p.metadata.name,
        { metadata: { annotations: { seen: 'yes' } } },
        {
          component: 'kubectl'
        }
      );
    cluster.advance(1_000);
    harness.kill('w2');
    const victim = api
      .list<KubeObject>('Pod', { namespace: 'kube-system' })
      .find((p) => p.spec.nodeName === 'w1')!;
    api.delete('Pod', 'kube-system', victim.metadata.name, {}, { component: 'kubectl' });
    cluster.advance(120_000);
    return {
      syncs,
      idle,
      status: api.get<KubeObject>('DaemonSet', 'kube-system', 'agent').status,
      log: cluster.eventLog.map((e) => `${e.t} ${e.reason} ${e.object} ${e.message}`)
    };
  }

  it('returns at once from a sync whose DaemonSet, nodes and pods are as the last one that wrote nothing read them', () => {
    const fast = run(true);
    const slow = run(false);
    expect(fast.log).toEqual(slow.log);
    expect(fast.status).toEqual(slow.status);
    expect(fast.syncs).toBe(slow.syncs);
    expect(slow.idle).toBe(0);
    expect(fast.idle).toBeGreaterThanOrEqual(4);
    // w2 is unreachable: its NoSchedule taint is not tolerated (no new pod there), its NoExecute
    // one is (the pod there keeps running, counted as misscheduled); w1's deleted pod is replaced.
    expect(fast.status).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberMisscheduled: 1
    });
  });
});

// upstream walks every node on each sync (pkg/controller/daemon/daemon_controller.go syncDaemonSet:
// manage, rollingUpdate in update.go, updateDaemonSetStatus); the controller keeps each node's
// part of those walks between syncs. Both ways must write the same pods, statuses and events.
describe('daemonset controller views', () => {
  function run(walkAlways: boolean, seed: number) {
    DaemonSetsController.walkAlways = walkAlways;
    try {
      const names = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
      const { cluster, harness } = testCluster({
        nodes: names.map((name, i) => ({ name, labels: { disk: i % 2 ? 'hdd' : 'ssd' } }))
      });
      const api = cluster.api;
      const kubectl = { component: 'kubectl' };
      api.create(daemonSet({ nodeSelector: { disk: 'ssd' } }));
      const other = daemonSet();
      other.metadata.name = 'everywhere';
      other.spec.selector = { matchLabels: { app: 'everywhere' } };
      other.spec.template.metadata.labels = { app: 'everywhere' };
      other.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } };
      api.create(other);
      // Every status the DaemonSets went through, with its time.
      const written: string[] = [];
      api.watch('DaemonSet', (_type, ds) =>
        written.push(
          `${cluster.now} ${ds.metadata.name} ${ds.metadata.resourceVersion} ${JSON.stringify(ds.status)}`
        )
      );
      const random = new Random(seed);
      const pick = <T>(xs: T[]): T => xs[random.int(xs.length)];
      const dsNames = ['agent', 'everywhere'];
      const pods = () => api.list<KubeObject>('Pod', { namespace: 'kube-system' });
      let extra = 0;
      for (let step = 0; step < 150; step++) {
        cluster.advance(random.int(3_000));
        const nodes = api.list<KubeObject>('Node').map((n) => n.metadata.name);
        const op = random.int(11);
        try {
          if (op === 0 && pods().length) {
            const p = clone(pick(pods()));
            p.status = { ...(p.status ?? {}), phase: 'Failed' };
            api.update(p, { component: 'kubelet' }, { subresource: 'status' });
          } else if (op === 1 && pods().length) {
            api.delete('Pod', 'kube-system', pick(pods()).metadata.name, {}, kubectl);
          } else if (op === 2) {
            api.patch(
              'Node',
              undefined,
              pick(nodes),
              { metadata: { labels: { disk: pick(['ssd', 'hdd']) } } },
              kubectl
            );
          } else if (op === 3) {
            const taints = pick([[], [{ key: 'x', value: 'y', effect: pick(['NoSchedule', 'NoExecute']) }]]);
            api.patch('Node', undefined, pick(nodes), { spec: { taints } }, kubectl);
          } else if (op === 4) {
            const n = pick(nodes);
            if (random.int(2)) harness.kill(n);
            else harness.revive(n);
          } else if (op === 5) {
            const ds = clone(api.get<KubeObject>('DaemonSet', 'kube-system', pick(dsNames)));
            ds.spec.template.spec.containers[0].image = `agent:${random.int(4)}`;
            api.update(ds, kubectl);
          } else if (op === 6 && pods().length) {
            const p = clone(pick(pods()));
            p.status = { ...(p.status ?? {}), conditions: [{ type: 'Ready', status: 'False' }] };
            api.update(p, { component: 'kubelet' }, { subresource: 'status' });
          } else if (op === 7) {
            const name = `x${++extra}`;
            api.create(
              {
                apiVersion: 'v1',
                kind: 'Node',
                metadata: { name, labels: { disk: 'ssd' } },
                spec: {},
                status: {}
              },
              kubectl
            );
            postReady(cluster, name);
          } else if (op === 8 && nodes.length > 3) {
            api.delete('Node', undefined, pick(nodes), {}, kubectl);
          } else if (op === 9) {
            const ds = clone(api.get<KubeObject>('DaemonSet', 'kube-system', pick(dsNames)));
            ds.spec.minReadySeconds = pick([0, 0, 5]);
            api.update(ds, kubectl);
          } else if (op === 10 && pods().length) {
            api.patch(
              'Pod',
              'kube-system',
              pick(pods()).metadata.name,
              { metadata: { annotations: { a: `${step}` } } },
              kubectl
            );
          }
        } catch {
          // A conflict or a gone object: the step does nothing.
        }
      }
      cluster.advance(60_000);
      return {
        statuses: dsNames.map((n) => api.get<KubeObject>('DaemonSet', 'kube-system', n).status),
        written,
        pods: pods().map(
          (p) =>
            `${p.metadata.name} ${targetNodeName(p)} ${p.status?.phase} ${!!p.metadata.deletionTimestamp}`
        ),
        log: cluster.eventLog.map((e) => `${e.t} ${e.type} ${e.reason} ${e.object} ${e.message}`)
      };
    } finally {
      DaemonSetsController.walkAlways = false;
    }
  }

  it('writes the same pods, statuses and events as a walk of every node on each sync', () => {
    for (const seed of [1, 2, 3, 4]) {
      const walked = run(true, seed);
      const kept = run(false, seed);
      expect(kept.log).toEqual(walked.log);
      expect(kept.pods).toEqual(walked.pods);
      expect(kept.statuses).toEqual(walked.statuses);
      expect(kept.written).toEqual(walked.written);
    }
  });
});
