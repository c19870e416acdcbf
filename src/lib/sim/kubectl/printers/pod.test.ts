import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import type { KubeObject } from '../../api/types';
import { nodeRoles, nodeStatus, podStatusCells } from './pod';

/* eslint-disable @typescript-eslint/no-explicit-any */

const NOW = Date.UTC(2026, 0, 1, 1, 0, 0);
const ago = (s: number) => new Date(NOW - s * 1000).toISOString().replace('.000', '');

function makePod(status: any, spec: any = {}, meta: any = {}): KubeObject {
  const c = new Cluster();
  const stored = c.api.create<KubeObject>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'a', image: 'nginx' }], ...spec },
    status
  });
  // The API server sets deletionTimestamp only through a delete; printers just read it.
  return { ...stored, metadata: { ...stored.metadata, ...meta } };
}

const running = { running: { startedAt: ago(60) } };

describe('pod STATUS, READY and RESTARTS (printPod)', () => {
  it.each<[string, any, any, any, { ready: string; status: string; restarts: string }]>([
    [
      'pending, unscheduled',
      { phase: 'Pending' },
      {},
      {},
      { ready: '0/1', status: 'Pending', restarts: '0' }
    ],
    [
      'running and ready',
      { phase: 'Running', containerStatuses: [{ name: 'a', ready: true, restartCount: 0, state: running }] },
      {},
      {},
      { ready: '1/1', status: 'Running', restarts: '0' }
    ],
    [
      'restarts with the last termination time',
      {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'a',
            ready: true,
            restartCount: 4,
            state: running,
            lastState: { terminated: { exitCode: 1, finishedAt: ago(18 * 3600) } }
          }
        ]
      },
      {},
      {},
      { ready: '1/1', status: 'Running', restarts: '4 (18h ago)' }
    ],
    [
      'waiting reason wins (CrashLoopBackOff)',
      {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'a',
            ready: false,
            restartCount: 5,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: ago(120) } }
          }
        ]
      },
      {},
      {},
      { ready: '0/1', status: 'CrashLoopBackOff', restarts: '5 (2m ago)' }
    ],
    [
      'terminated without reason prints the exit code',
      {
        phase: 'Failed',
        containerStatuses: [
          { name: 'a', ready: false, restartCount: 0, state: { terminated: { exitCode: 3 } } }
        ]
      },
      {},
      {},
      { ready: '0/1', status: 'ExitCode:3', restarts: '0' }
    ],
    [
      'status.reason overrides the phase',
      { phase: 'Failed', reason: 'Evicted' },
      {},
      {},
      { ready: '0/1', status: 'Evicted', restarts: '0' }
    ],
    [
      'scheduling gates',
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }]
      },
      {},
      {},
      { ready: '0/1', status: 'SchedulingGated', restarts: '0' }
    ],
    [
      'init container running',
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'init', restartCount: 0, state: { running: {} } }]
      },
      { initContainers: [{ name: 'init', image: 'busybox' }] },
      {},
      { ready: '0/1', status: 'Init:0/1', restarts: '0' }
    ],
    [
      'init container crash looping',
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'init', restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }
        ]
      },
      { initContainers: [{ name: 'init', image: 'busybox' }] },
      {},
      { ready: '0/1', status: 'Init:CrashLoopBackOff', restarts: '2' }
    ],
    [
      'Completed with a sidecar still running and Ready',
      {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            name: 'a',
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 0, reason: 'Completed' } }
          },
          { name: 'b', ready: true, restartCount: 0, state: running }
        ]
      },
      {
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' }
        ]
      },
      {},
      { ready: '1/2', status: 'Running', restarts: '0' }
    ],
    [
      'being deleted',
      { phase: 'Running', containerStatuses: [{ name: 'a', ready: true, restartCount: 0, state: running }] },
      {},
      { deletionTimestamp: ago(0) },
      { ready: '1/1', status: 'Terminating', restarts: '0' }
    ],
    [
      'being deleted on a lost node',
      { phase: 'Running', reason: 'NodeLost' },
      {},
      { deletionTimestamp: ago(0) },
      { ready: '0/1', status: 'Unknown', restarts: '0' }
    ]
  ])('%s', (_name, status, spec, meta, want) => {
    expect(podStatusCells(makePod(status, spec, meta), NOW)).toEqual(want);
  });
});

describe('node STATUS and ROLES (printNode)', () => {
  const node = (conditions: any[], spec: any = {}, labels: Record<string, string> = {}): KubeObject =>
    ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', labels },
      spec,
      status: { conditions }
    }) as KubeObject;
  it.each([
    [[{ type: 'Ready', status: 'True' }], {}, 'Ready'],
    [[{ type: 'Ready', status: 'False' }], {}, 'NotReady'],
    [[{ type: 'Ready', status: 'Unknown' }], {}, 'NotReady'],
    [[], {}, 'Unknown'],
    [[{ type: 'Ready', status: 'True' }], { unschedulable: true }, 'Ready,SchedulingDisabled'],
    [[{ type: 'Ready', status: 'Unknown' }], { unschedulable: true }, 'NotReady,SchedulingDisabled']
  ])('%j %j → %s', (conds, spec, want) => expect(nodeStatus(node(conds, spec))).toBe(want));
  it('roles come from node-role labels and kubernetes.io/role, sorted and de-duplicated', () => {
    expect(
      nodeRoles(
        node(
          [],
          {},
          {
            'node-role.kubernetes.io/master': '',
            'node-role.kubernetes.io/control-plane': '',
            'kubernetes.io/role': 'master'
          }
        )
      )
    ).toEqual(['control-plane', 'master']);
  });
});
