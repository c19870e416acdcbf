/**
 * The STATUS column is one rule (api/corev1/podstatus.ts): `kubectl get pods`, the lab's map
 * (sim/observe) and a lesson check show the same STATUS for each tricky pod.
 */
// upstream: pkg/printers/internalversion/printers.go (printPod)
// upstream: pkg/printers/internalversion/printers_test.go (TestPrintPod, TestPrintPodWithRestartableInitContainer)
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../src/lib/sim/cluster';
import type { KubeObject } from '../../src/lib/sim/api/types';
import { ConsoleSession } from '../../src/lib/sim/kubectl/console';
import { buildView } from '../../src/lib/sim/observe/cluster-map';
import { evaluate } from '../../src/lib/lessons/checks';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const t0 = '2026-01-01T00:00:00Z';
const running = { running: { startedAt: t0 } };

interface Tricky {
  name: string;
  want: string;
  status: Any;
  spec?: Any;
  /** Delete it (kept by a finalizer) so it carries a deletionTimestamp. */
  deleting?: boolean;
  bound?: boolean;
}

const tricky: Tricky[] = [
  {
    name: 'gated',
    want: 'SchedulingGated',
    bound: false,
    spec: { schedulingGates: [{ name: 'example.com/wait' }] },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }]
    }
  },
  {
    name: 'init-waiting',
    want: 'Init:1/2',
    spec: {
      initContainers: [
        { name: 'i0', image: 'busybox' },
        { name: 'i1', image: 'busybox' }
      ]
    },
    status: {
      phase: 'Pending',
      initContainerStatuses: [
        {
          name: 'i0',
          ready: true,
          restartCount: 0,
          state: { terminated: { exitCode: 0, reason: 'Completed' } }
        },
        { name: 'i1', ready: false, restartCount: 0, state: running }
      ],
      containerStatuses: [
        { name: 'c', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }
      ]
    }
  },
  {
    name: 'init-crashloop',
    want: 'Init:CrashLoopBackOff',
    spec: { initContainers: [{ name: 'i0', image: 'busybox' }] },
    status: {
      phase: 'Pending',
      initContainerStatuses: [
        { name: 'i0', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }
      ],
      containerStatuses: [
        { name: 'c', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }
      ]
    }
  },
  {
    name: 'init-error',
    want: 'Init:Error',
    spec: { initContainers: [{ name: 'i0', image: 'busybox' }] },
    status: {
      phase: 'Pending',
      initContainerStatuses: [
        { name: 'i0', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } }
      ]
    }
  },
  {
    name: 'sidecar-running',
    want: 'Running',
    spec: { initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'True' }
      ],
      initContainerStatuses: [{ name: 'proxy', ready: true, started: true, restartCount: 0, state: running }],
      containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: running }]
    }
  },
  {
    name: 'image-pull',
    want: 'ImagePullBackOff',
    status: {
      phase: 'Pending',
      containerStatuses: [
        { name: 'c', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }
      ]
    }
  },
  {
    name: 'completed',
    want: 'Completed',
    status: {
      phase: 'Succeeded',
      containerStatuses: [
        {
          name: 'c',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode: 0, reason: 'Completed' } }
        }
      ]
    }
  },
  {
    name: 'error',
    want: 'Error',
    status: {
      phase: 'Failed',
      containerStatuses: [
        { name: 'c', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } }
      ]
    }
  },
  {
    name: 'evicted',
    want: 'Evicted',
    status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' }
  },
  {
    name: 'terminating',
    want: 'Terminating',
    deleting: true,
    status: {
      phase: 'Running',
      containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: running }]
    }
  },
  {
    name: 'failed-deleting',
    want: 'Error',
    deleting: true,
    status: {
      phase: 'Failed',
      containerStatuses: [
        { name: 'c', ready: false, restartCount: 0, state: { terminated: { exitCode: 2, reason: 'Error' } } }
      ]
    }
  },
  {
    name: 'node-lost',
    want: 'Unknown',
    deleting: true,
    status: {
      phase: 'Running',
      reason: 'NodeLost',
      containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: running }]
    }
  }
];

function cluster(): Cluster {
  const c = new Cluster();
  c.api.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] }
  });
  for (const p of tricky) {
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: p.name,
        namespace: 'default',
        finalizers: p.deleting ? ['example.com/hold'] : undefined
      },
      spec: {
        ...(p.bound === false ? {} : { nodeName: 'worker-1' }),
        containers: [{ name: 'c', image: 'nginx' }],
        ...p.spec
      },
      status: p.status
    } as KubeObject);
    if (p.deleting) c.api.delete('Pod', 'default', p.name);
  }
  return c;
}

describe('one STATUS for each tricky pod', () => {
  const c = cluster();
  const table = new ConsoleSession(c).exec('kubectl get pods').stdout.trim().split('\n');
  const kubectlStatus = new Map(
    table.slice(1).map((line) => {
      const cols = line.split(/\s+/);
      return [cols[0], cols[2]];
    })
  );
  const view = buildView(c);
  const mapStatus = new Map(
    [...view.pendingPods, ...view.nodes.flatMap((n) => n.pods)].map((p) => [p.name, p.status])
  );

  for (const p of tricky) {
    it(`${p.name}: ${p.want}`, () => {
      expect(c.api.get('Pod', 'default', p.name).metadata.deletionTimestamp !== undefined).toBe(!!p.deleting);
      expect(kubectlStatus.get(p.name)).toBe(p.want);
      expect(mapStatus.get(p.name)).toBe(p.want);
      expect(evaluate({ pod: { name: p.name, status: p.want } }, { cluster: c, answers: {} }).ok).toBe(true);
      expect(evaluate({ pod: { name: p.name, status: 'Bogus' } }, { cluster: c, answers: {} }).ok).toBe(
        false
      );
    });
  }
});
