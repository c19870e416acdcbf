// upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (Ready → Unknown after
// --node-monitor-grace-period 50 s, then node.kubernetes.io/unreachable:NoExecute)
// upstream: pkg/kubelet/images/image_manager.go (ErrImagePull, then ImagePullBackOff)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionHost } from '../session/host';
import type { FrameMessage, SessionCommand, SessionMessage } from '../session/protocol';
import { describeMachine } from './machines';

const HEARTBEAT = readFileSync('scenarios/heartbeat-loss.yaml', 'utf8');
const LESSON3 = readFileSync('lessons/03-container-runtime/scenario.yaml', 'utf8');

function session(scenario: string, fileName: string) {
  const out: SessionMessage[] = [];
  const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: () => 0 });
  let id = 0;
  const send = (command: SessionCommand) => host.receive({ id: ++id, command });
  send({ type: 'init', init: { scenario, fileName } });
  const selection = () => {
    const f = out.filter((m): m is FrameMessage => m.type === 'frame' && m.selection !== undefined).at(-1);
    return f?.selection ?? null;
  };
  return { host, send, selection };
}

describe('machines read model', () => {
  it('lists states and transitions from the definitions, with "any state" transitions from the root', () => {
    const node = describeMachine('nodeHealth');
    expect(node.initial).toBe('registered');
    expect(node.states.map((s) => s.id)).toEqual([
      'registered',
      'ready',
      'unknown',
      'unreachableEvicting',
      'notReady',
      'notReadyEvicting'
    ]);
    expect(node.transitions).toContainEqual({
      source: 'ready',
      target: 'unknown',
      event: 'GRACE_EXPIRED',
      actions: []
    });
    expect(node.transitions).toContainEqual({
      source: '*',
      target: 'unknown',
      event: 'OBSERVED',
      guard: 'observedUnknown',
      actions: ['markNodeForTainting(status=Unknown)']
    });
    const ctr = describeMachine('container');
    expect(ctr.initial).toBe('waiting.ContainerCreating');
    expect(ctr.states.find((s) => s.id === 'waiting.ErrImagePull')).toMatchObject({
      key: 'ErrImagePull',
      parent: 'waiting',
      compound: false
    });
  });

  it('a stopped kubelet: the selected node moves Ready → Unknown → unreachable, and a jump back restores it', () => {
    const { send, selection } = session(HEARTBEAT, 'heartbeat-loss.yaml');
    send({ type: 'subscribe', subscriptions: { machines: true } });
    send({ type: 'select', selection: { kind: 'node', name: 'worker-2' } });
    send({ type: 'advance', ms: 140_000 });
    const m = selection()!.machines!;
    expect(m.definitions.map((d) => d.id)).toEqual(['nodeHealth', 'kubelet']);
    const [inst, service] = m.instances;
    // The kubelet service beside it: started at 0, registered, stopped by the fault at 60 s.
    expect(service).toMatchObject({ machine: 'kubelet', subject: 'worker-2', owner: 'kubelet' });
    expect(service.path.map((s) => [s.value, s.event ?? null, s.at])).toEqual([
      ['stopped', null, 0],
      ['starting', 'START', 0],
      ['registering', 'REGISTER', 0],
      ['running', 'REGISTERED', 100],
      ['stopped', 'STOP', 60_000]
    ]);
    expect(inst).toMatchObject({
      machine: 'nodeHealth',
      subject: 'Node/worker-2',
      owner: 'node-lifecycle-controller',
      current: 'unreachableEvicting',
      event: 'TAINTED'
    });
    // The kubelet stopped at 60 s; its last Lease renewal was at 50 s: Unknown at the first monitor
    // pass after 100 s, tainted by the tainting pass after the next one.
    const path = inst.path.map((s) => [s.value, s.event ?? null]);
    expect(path).toEqual([
      ['registered', null],
      ['ready', 'OBSERVED'],
      ['unknown', 'GRACE_EXPIRED'],
      ['unreachableEvicting', 'TAINTED']
    ]);
    const tUnknown = inst.path[2].at;
    expect(tUnknown).toBeGreaterThan(100_000);
    expect(tUnknown).toBeLessThanOrEqual(110_000);
    expect(inst.at).toBeGreaterThan(tUnknown);
    // Time travel: the records live in component state, so the snapshot brings the old path back.
    send({ type: 'jump', t: 70_000 });
    const back = selection()!.machines!.instances[0];
    expect(back.current).toBe('ready');
    expect(back.path.map((s) => s.value)).toEqual(['registered', 'ready']);
  });

  it('a pod with a bad image tag: ErrImagePull → ImagePullBackOff on its container', () => {
    const { host, send, selection } = session(LESSON3, 'scenario.yaml');
    send({ type: 'advance', ms: 30_000 });
    const shop = host.cluster!.api.list('Pod').find((p) => p.metadata.name.startsWith('shop-'))!;
    send({ type: 'subscribe', subscriptions: { machines: true } });
    send({ type: 'select', selection: { kind: 'pod', key: `default/${shop.metadata.name}` } });
    const inst = selection()!.machines!.instances[0];
    expect(inst).toMatchObject({ machine: 'container', subject: 'container web', owner: 'kubelet' });
    expect(inst.path.slice(0, 3).map((s) => s.value)).toEqual([
      'waiting.ContainerCreating',
      'waiting.ErrImagePull',
      'waiting.ImagePullBackOff'
    ]);
    // Without the subscription the selection carries no machines.
    send({ type: 'subscribe', subscriptions: {} });
    send({ type: 'advance', ms: 1_000 });
    const sel = selection()!;
    expect(sel.machines).toBeUndefined();
  });
});
