import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionHost } from './host';
import type { FrameMessage, SessionCommand, SessionMessage } from './protocol';

const THREE_NODES = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');
const NO_CNI = readFileSync(new URL('../../../../scenarios/no-cni.yaml', import.meta.url), 'utf8');
const HEARTBEAT = readFileSync(new URL('../../../../scenarios/heartbeat-loss.yaml', import.meta.url), 'utf8');

/** A host driven by hand: every message it posts is kept (structured-cloned, as postMessage does). */
function harness(wall = () => 0) {
  const out: SessionMessage[] = [];
  const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: wall });
  let id = 0;
  const send = (command: SessionCommand | Record<string, unknown>) => {
    const n = ++id;
    host.receive({ id: n, command });
    const reply = out.find((m) => m.type === 'reply' && m.id === n);
    if (!reply || reply.type !== 'reply') throw new Error(`no reply to ${n}`);
    return reply;
  };
  const frames = () => out.filter((m): m is FrameMessage => m.type === 'frame');
  return { host, out, send, frames };
}

describe('the session host', () => {
  it('answers a message before init and a malformed message with an error, and changes nothing', () => {
    const { host, out, send } = harness();
    expect(send({ type: 'play' })).toEqual({
      type: 'reply',
      id: 1,
      ok: false,
      error: 'session not started: send "init" before "play"'
    });
    host.receive('play');
    expect(out.at(-1)).toEqual({
      type: 'protocol-error',
      error: 'message: expected an object { id, command }'
    });
    expect(send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } }).ok).toBe(
      true
    );
    const before = host.cluster!.now;
    const log = host.cluster!.eventLog.length;
    expect(send({ type: 'launch' })).toMatchObject({
      ok: false,
      error: 'message.command.type: unknown command "launch"'
    });
    expect(send({ type: 'jump', t: 'soon' })).toMatchObject({
      ok: false,
      error: 'command.t: expected a number of milliseconds (0 or more)'
    });
    expect(send({ type: 'speed', speed: 7 })).toMatchObject({
      ok: false,
      error: 'command.speed: expected one of 1, 10, 60, 600, max'
    });
    expect(send({ type: 'lesson', action: { op: 'answer', id: 'q' } })).toMatchObject({
      ok: false,
      error: 'command.action: an answer needs a question id and a value'
    });
    host.receive({ id: 'x', command: { type: 'play' } });
    expect(out.at(-1)).toEqual({ type: 'protocol-error', error: 'message.id: expected an integer' });
    expect(host.cluster!.now).toBe(before);
    expect(host.cluster!.eventLog.length).toBe(log);
    expect(host.playing).toBe(false);
  });

  it('does idle work only while paused, and its idle time changes nothing the page sees', () => {
    const { host, out, send } = harness();
    expect(host.idle()).toBe(false); // no session yet
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } });
    send({ type: 'advance', ms: 90_000 });
    const posted = out.length;
    const log = host.cluster!.eventLog.length;
    // Three nodes snapshot in a few ms: nothing is restored ahead for them.
    expect(host.idle()).toBe(false);
    send({ type: 'play' });
    expect(host.idle()).toBe(false);
    expect(out.length).toBe(posted + 2); // the reply to play and its frame, nothing from idle
    expect(host.cluster!.eventLog.length).toBe(log);
  });

  it('refuses a scenario that does not load, with the scenario’s own message', () => {
    const { host, send } = harness();
    const r = send({ type: 'init', init: { scenario: 'kind: Scenario\nspec: [', fileName: 'bad.yaml' } });
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.error).toMatch(/bad\.yaml/);
    expect(host.cluster).toBeUndefined();
  });

  it('publishes a full frame, then only what changed', () => {
    const { send, frames } = harness();
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } });
    send({ type: 'advance', ms: 30_000 });
    const first = frames()[0];
    expect(first.full).toBe(true);
    expect(first.nodeOrder).toEqual(['control-plane-1', 'worker-1', 'worker-2', 'worker-3']);
    const last = frames().at(-1)!;
    expect(last.full).toBe(false);
    expect(last.now).toBe(30_000);
    // Three nodes registered and their pods were created: each node's view changed.
    expect(last.nodes?.map((n) => n.name).sort()).toEqual([
      'control-plane-1',
      'worker-1',
      'worker-2',
      'worker-3'
    ]);
    expect(last.nodes?.every((n) => n.ready === 'True')).toBe(true);
    // Events are appended after those the first frame carried.
    expect(last.eventsFrom).toBe(first.events?.length ?? 0);
    expect(last.events!.length).toBeGreaterThan(10);
    const events = last.eventsFrom! + last.events!.length;
    // Nothing happens in a paused session's command that moves no clock: only the envelope.
    send({ type: 'select', selection: { kind: 'node', name: 'worker-1' } });
    const sel = frames().at(-1)!;
    expect(sel.nodes).toBeUndefined();
    expect(sel.events).toBeUndefined();
    expect(sel.selection?.object).toMatchObject({ kind: 'Node', metadata: { name: 'worker-1' } });
    send({ type: 'advance', ms: 1000 });
    const next = frames().at(-1)!;
    if (next.events) expect(next.eventsFrom).toBe(events);
  });

  it('runs the console and the faults through the same doors, and records them', () => {
    const { out, send } = harness();
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } });
    send({ type: 'advance', ms: 20_000 });
    expect(send({ type: 'exec', line: 'kubectl get nodes' })).toMatchObject({
      ok: true,
      result: { exitCode: 0 }
    });
    const lines = out
      .filter((m) => m.type === 'console')
      .flatMap((m) => (m.type === 'console' ? m.lines : []));
    expect(lines[0]).toMatchObject({ kind: 'input', text: '$ kubectl get nodes' });
    expect(lines[1].text.split('\n')[0]).toMatch(/^NAME +STATUS +ROLES +AGE +VERSION$/);
    expect(send({ type: 'fault', action: 'StopKubelet', target: 'worker-2' })).toMatchObject({
      ok: true,
      result: {}
    });
    expect(send({ type: 'fault', action: 'Explode', target: 'worker-2' })).toMatchObject({
      ok: true,
      result: { error: expect.stringContaining('Explode') }
    });
    const rec = send({ type: 'recording' });
    expect(rec.ok && rec.result).toMatchObject({
      fileName: 'three-nodes.yaml',
      t: 20_000,
      actions: [
        { kind: 'console', line: 'kubectl get nodes', t: 20_000 },
        { kind: 'fault', action: 'StopKubelet', target: 'worker-2', t: 20_000 }
      ]
    });
  });

  it('gives the same event log for the same scenario, seed and commands, and after a jump back', () => {
    const commands: SessionCommand[] = [
      { type: 'init', init: { scenario: HEARTBEAT, fileName: 'heartbeat-loss.yaml' } },
      { type: 'advance', ms: 40_000 },
      { type: 'exec', line: 'kubectl cordon worker-1' },
      { type: 'fault', action: 'StopKubelet', target: 'worker-3' },
      { type: 'advance', ms: 120_000 },
      { type: 'eventLog' }
    ];
    const run = () => {
      const { send } = harness();
      let last: unknown;
      for (const c of commands) {
        const r = send(c);
        expect(r.ok).toBe(true);
        if (r.ok) last = r.result;
      }
      return JSON.stringify(last);
    };
    const a = run();
    expect(a).toBe(run());
    expect(JSON.parse(a).length).toBeGreaterThan(30);
    // Time travel: back to 50 s and forward again replays the same history.
    const { send } = harness();
    for (const c of commands.slice(0, 5)) send(c);
    send({ type: 'jump', t: 50_000 });
    send({ type: 'jump', t: 160_000 });
    const again = send({ type: 'eventLog' });
    expect(again.ok && JSON.stringify(again.result)).toBe(a);
  });

  it('after a jump back sends only the events past the restored snapshot; the page keeps the rest', () => {
    const { send, frames } = harness();
    send({ type: 'init', init: { scenario: HEARTBEAT, fileName: 'heartbeat-loss.yaml' } });
    send({ type: 'advance', ms: 40_000 });
    send({ type: 'fault', action: 'StopKubelet', target: 'worker-3' });
    send({ type: 'advance', ms: 120_000 });
    const heldBefore = frames().length;
    const before = send({ type: 'eventLog' });
    const longer = before.ok ? (before.result as unknown[]).length : 0;
    send({ type: 'jump', t: 100_000 });
    const jump = frames()
      .slice(heldBefore)
      .find((f) => f.full)!;
    expect(jump.now).toBe(100_000);
    // The events before the snapshot it restored are the page's already.
    expect(jump.eventsFrom).toBeGreaterThan(30);
    // The page's log, rebuilt frame by frame as the Lab client does, is the session's whole log.
    let log: unknown[] = [];
    for (const f of frames())
      if (f.events) log = [...(f.full && !f.eventsFrom ? [] : log.slice(0, f.eventsFrom ?? 0)), ...f.events];
    const whole = send({ type: 'eventLog' });
    expect(whole.ok && whole.result).toEqual(log);
    expect(log.length).toBeGreaterThanOrEqual(jump.eventsFrom!);
    expect(log.length).toBeLessThan(longer);
    // A reset is a new history: its full frame sends the log whole.
    const heldReset = frames().length;
    send({ type: 'reset' });
    expect(
      frames()
        .slice(heldReset)
        .find((f) => f.full)!.eventsFrom
    ).toBe(0);
  });

  it('sends a renewed Lease as the node’s heartbeat time, not as its whole view with its pods', () => {
    const { host, send, frames } = harness();
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } });
    send({ type: 'advance', ms: 120_000 });
    const from = frames().length;
    // 10 s: every kubelet renews its Lease once (renewInterval 10 s); nothing else changes.
    send({ type: 'advance', ms: 10_000 });
    const after = frames().slice(from);
    const beats = Object.assign({}, ...after.map((f) => f.heartbeats ?? {})) as Record<string, number>;
    const nodes = host.cluster!.api.list('Node').map((n) => n.metadata.name);
    expect(nodes.length).toBe(4);
    expect(Object.keys(beats).sort()).toEqual(nodes.sort());
    expect(after.flatMap((f) => f.nodes ?? []).map((n) => n.name)).toEqual([]);
    // The page's view of a node is its last full view with the new time.
    for (const t of Object.values(beats)) expect(t).toBeGreaterThan(120_000);
  });

  it('plays at the chosen speed from the wall clock, within its frame budget', () => {
    let wall = 0;
    const { host, send } = harness(() => wall);
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } });
    send({ type: 'speed', speed: 60 });
    send({ type: 'play' });
    host.tick();
    for (let i = 0; i < 10; i++) {
      wall += 16;
      host.tick();
    }
    // 160 wall ms at 60× is 9.6 virtual seconds (the clock stops at the last event before it).
    expect(host.cluster!.now).toBeGreaterThan(9_000);
    expect(host.cluster!.now).toBeLessThanOrEqual(9_600);
  });

  it('opens on a cluster that is already up: nodes Ready, workloads Running', () => {
    const { host, send, frames } = harness();
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml', warmupMs: 60_000 } });
    const first = frames()[0];
    expect(first.full).toBe(true);
    expect(first.now).toBeGreaterThan(0);
    expect(first.now).toBeLessThan(60_000);
    expect(first.nodes!.map((n) => n.ready)).toEqual(['True', 'True', 'True', 'True']);
    const pods = first.nodes!.flatMap((n) => n.pods);
    // 3 web replicas and a log agent per worker, beside the cluster's own: kube-proxy and
    // calico-node on each of the four nodes, 2 CoreDNS replicas, calico-kube-controllers and the
    // four mirror pods of control-plane-1's static pods.
    expect(pods.filter((p) => !p.system)).toHaveLength(6);
    expect(pods.filter((p) => p.system)).toHaveLength(15);
    expect(pods.every((p) => p.status === 'Running')).toBe(true);
    expect(first.pendingPods).toEqual([]);
    // A reset opens on the same running cluster, at the same moment.
    send({ type: 'advance', ms: 30_000 });
    send({ type: 'reset' });
    expect(host.cluster!.now).toBe(first.now);
  });

  it('tells the page how far the cluster has come while it plays the quiet start, four times a wall second', () => {
    // A wall clock that runs at 8× the virtual one: a second of quiet start takes 125 ms.
    const ref: { host?: SessionHost } = {};
    const { host, send, out } = harness(() => (ref.host?.cluster?.now ?? 0) / 8);
    ref.host = host;
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml', warmupMs: 60_000 } });
    const boots = out.flatMap((m) => (m.type === 'boot' ? [m.progress] : []));
    const firstFrame = out.findIndex((m) => m.type === 'frame');
    expect(out.findIndex((m) => m.type === 'boot')).toBeLessThan(firstFrame);
    expect(out.slice(firstFrame).some((m) => m.type === 'boot')).toBe(false);
    // The first second is told, then at most one second in each 250 ms of wall time.
    expect(boots[0]).toMatchObject({ now: 1000, nodes: 4, workloads: 6 });
    expect(boots.map((b) => b.now)).toEqual(boots.map((_, i) => 1000 + i * 2000));
    expect(boots.length).toBeGreaterThan(1);
    expect(boots.at(-1)!.podsStarted).toBeLessThanOrEqual(21);
  });

  it('stops the quiet start at its cap when the scenario never comes up', () => {
    const { host, send } = harness();
    send({ type: 'init', init: { scenario: NO_CNI, fileName: 'no-cni.yaml', warmupMs: 60_000 } });
    expect(host.cluster!.now).toBe(60_000);
  });

  describe("the learner's language", () => {
    const helpFirstLine = (out: SessionMessage[]) =>
      out
        .filter((m) => m.type === 'console')
        .flatMap((m) => (m.type === 'console' ? m.lines : []))
        .filter((l) => l.kind === 'stdout')
        .map((l) => l.text.split('\n')[0]);

    it('starts from init.lang and follows the lang command; a bad language is refused', () => {
      const { send, out } = harness();
      expect(
        send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml', lang: 'ru' } }).ok
      ).toBe(true);
      send({ type: 'exec', line: 'help' });
      expect(send({ type: 'lang', lang: 'en' }).ok).toBe(true);
      send({ type: 'exec', line: 'help' });
      expect(helpFirstLine(out)).toEqual(['Консоль Nodeplane. Команды:', 'Nodeplane console. Commands:']);
      expect(send({ type: 'lang', lang: 'de' })).toMatchObject({
        ok: false,
        error: 'command.lang: expected "en" or "ru"'
      });
    });

    it("refuses an init whose language is not one of the app's", () => {
      const { send } = harness();
      expect(
        send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml', lang: 'fr' } })
      ).toMatchObject({ ok: false, error: 'command.init.lang: expected "en" or "ru"' });
    });
  });
});
