// upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth,
// processTaintBaseEviction, doNoExecuteTaintingPass, markNodeAsReachable)
// upstream: pkg/controller/nodelifecycle/config/v1alpha1/defaults.go (NodeMonitorGracePeriod 50s
// since v1.32, kubernetes/kubernetes#126287)
import { describe, expect, it } from 'vitest';
import { nodeHealthMachine, observedStep, type NodeHealthEvent } from './node-health';
import { initialRecord, stepRecord, type MachineRecord } from './record';
import type { NodeLifecycleController } from '../controllers/nodelifecycle/node_lifecycle_controller';
import { KCM_KIND, type KubeControllerManager } from '../controllers/kube-controller-manager';
import { readyOf, testCluster, timeWhen } from '../controllers/testing/harness';

function run(events: NodeHealthEvent[]) {
  let rec: MachineRecord = initialRecord(nodeHealthMachine, 0);
  const actions: string[] = [];
  events.forEach((e, i) => {
    const r = stepRecord(nodeHealthMachine, rec, e, (i + 1) * 1000);
    rec = r.record;
    actions.push(r.actions.map((a) => `${a.type}${a.params ? JSON.stringify(a.params) : ''}`).join(','));
  });
  return { rec, actions };
}

const obs = (
  status: string,
  taints: { unreachable?: boolean; notReady?: boolean } = {}
): NodeHealthEvent => ({
  type: 'OBSERVED',
  status,
  unreachableTaint: !!taints.unreachable,
  notReadyTaint: !!taints.notReady
});

describe('node health machine (the node lifecycle controller decides with it)', () => {
  it('heartbeat loss: Ready → Unknown → unreachable:NoExecute, then back to Ready', () => {
    const { rec, actions } = run([
      obs('True'),
      { type: 'GRACE_EXPIRED' },
      obs('Unknown'),
      { type: 'TAINTED', taint: 'unreachable' },
      obs('Unknown', { unreachable: true }),
      obs('True', { unreachable: true })
    ]);
    expect(rec.path.map((s) => [s.value, s.event ?? null])).toEqual([
      ['registered', null],
      ['ready', 'OBSERVED'],
      ['unknown', 'GRACE_EXPIRED'],
      ['unreachableEvicting', 'TAINTED'],
      ['ready', 'OBSERVED']
    ]);
    expect(actions).toEqual([
      'markNodeAsReachable',
      '',
      'markNodeForTainting{"status":"Unknown"}',
      '',
      'markNodeForTainting{"status":"Unknown"}',
      'markNodeAsReachable'
    ]);
    expect(rec).toMatchObject({ value: 'ready', at: 6000, event: 'OBSERVED' });
  });

  it('swaps the taint when the observed status changes between False and Unknown', () => {
    const { rec, actions } = run([
      obs('False'),
      { type: 'TAINTED', taint: 'not-ready' },
      obs('Unknown', { notReady: true })
    ]);
    expect(rec.path.map((s) => s.value)).toEqual([
      'registered',
      'notReady',
      'notReadyEvicting',
      'unreachableEvicting'
    ]);
    expect(actions[2]).toBe('swapNodeControllerTaint{"add":"unreachable","remove":"not-ready"}');
    const back = stepRecord(nodeHealthMachine, rec, obs('False', { unreachable: true }), 9000);
    expect(back.record.value).toBe('notReadyEvicting');
    expect(back.actions).toEqual([
      { type: 'swapNodeControllerTaint', params: { add: 'not-ready', remove: 'unreachable' } }
    ]);
  });

  it('master disruption mode removes the taints but leaves the node Unknown', () => {
    const { rec } = run([
      obs('Unknown'),
      { type: 'TAINTED', taint: 'unreachable' },
      { type: 'ALL_ZONES_DISRUPTED' }
    ]);
    expect(rec.value).toBe('unknown');
    expect(rec.event).toBe('ALL_ZONES_DISRUPTED');
  });

  it('keeps a bounded path: older steps fold into a count', () => {
    const flaps: NodeHealthEvent[] = [];
    for (let i = 0; i < 10; i++) flaps.push(obs('True'), obs('False'));
    const { rec } = run(flaps);
    expect(rec.path).toHaveLength(12);
    expect(rec.folded).toBe(9);
    expect(rec.path[11]).toEqual({ value: 'notReady', event: 'OBSERVED', at: 20_000 });
  });

  it('is what the controller steps: a silent node goes Ready → Unknown at 55 s → tainted at 60.1 s', () => {
    const { cluster, harness } = testCluster({ nodes: ['w1', 'w2', 'w3'] });
    // The harness renewed w3's Lease at 0 s; it never answers again.
    harness.kill('w3');
    const nlc = () =>
      cluster
        .componentsOfKind<KubeControllerManager>(KCM_KIND)[0]
        .controller<NodeLifecycleController>('node-lifecycle-controller');
    const tUnknown = timeWhen(cluster, 120_000, () => readyOf(cluster, 'w3')?.status === 'Unknown');
    // First pass after 50 s of silence: monitor passes run every 5 s.
    expect(tUnknown).toBe(55_000);
    expect(nlc().machines.w3).toMatchObject({ value: 'unknown', event: 'GRACE_EXPIRED', at: 55_000 });
    cluster.runUntil(70_000);
    const rec = nlc().machines.w3;
    expect(rec.path.map((s) => [s.value, s.event ?? null, s.at])).toEqual([
      ['registered', null, 0],
      ['ready', 'OBSERVED', 0],
      ['unknown', 'GRACE_EXPIRED', 55_000],
      // Queued by the 60 s pass (observed Unknown), tainted by the next 100 ms tainting pass.
      ['unreachableEvicting', 'TAINTED', 60_100]
    ]);
    expect(nlc().machines.w1.value).toBe('ready');
  });

  it('the monitor pass looks up the same OBSERVED step the machine takes, for every state and observation', () => {
    const states = Object.keys(nodeHealthMachine.config.states ?? {});
    expect(states).toEqual([
      'registered',
      'ready',
      'unknown',
      'unreachableEvicting',
      'notReady',
      'notReadyEvicting'
    ]);
    let moved = 0;
    for (const value of states) {
      for (const status of ['True', 'False', 'Unknown']) {
        for (const unreachable of [false, true]) {
          for (const notReady of [false, true]) {
            const rec: MachineRecord = { value, at: 0, path: [{ value, at: 0 }] };
            const byMachine = stepRecord(
              nodeHealthMachine,
              rec,
              obs(status, { unreachable, notReady }),
              1000
            );
            const looked = observedStep(value, status, unreachable, notReady);
            expect(looked.value).toBe(byMachine.record.value);
            expect(looked.actions).toEqual(byMachine.actions);
            // Asked again, the step is the remembered one.
            expect(observedStep(value, status, unreachable, notReady)).toBe(looked);
            if (looked.value !== value) moved++;
          }
        }
      }
    }
    // Ready=True always leads to ready; False and Unknown to their (evicting) states.
    expect(observedStep('unknown', 'True', true, false)).toEqual({
      value: 'ready',
      actions: [{ type: 'markNodeAsReachable' }]
    });
    expect(observedStep('ready', 'Unknown', false, true)).toEqual({
      value: 'unreachableEvicting',
      actions: [{ type: 'swapNodeControllerTaint', params: { add: 'unreachable', remove: 'not-ready' } }]
    });
    expect(moved).toBeGreaterThan(0);
  });
});
