// upstream: staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go (the header, "Edit
// cancelled, no changes made.", `%s %q is invalid`, `%s %q could not be patched: %v`, the
// apiVersion/kind/name precondition) and pkg/cmd/edit/edit.go (`<resource>/<name> edited`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionHost } from './host';
import type { ConsoleMessage, ExecResult, SessionCommand, SessionMessage } from './protocol';
import { EDIT_HEADER } from '../kubectl/commands/edit';

const THREE_NODES = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

function harness() {
  const out: SessionMessage[] = [];
  const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: () => 0 });
  let id = 0;
  const send = (command: SessionCommand | Record<string, unknown>) => {
    const n = ++id;
    host.receive({ id: n, command });
    const reply = out.find((m) => m.type === 'reply' && m.id === n);
    if (!reply || reply.type !== 'reply') throw new Error(`no reply to ${n}`);
    if (!reply.ok) throw new Error(reply.error);
    return reply.result;
  };
  /** Console lines printed since the mark. */
  let mark = 0;
  const printed = () => {
    const lines = out
      .slice(mark)
      .filter((m): m is ConsoleMessage => m.type === 'console')
      .flatMap((m) => m.lines.map((l) => `${l.kind}: ${l.text}`));
    mark = out.length;
    return lines;
  };
  send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml', warmupMs: 60_000 } });
  return { host, send, printed };
}

describe('kubectl edit through the session', () => {
  it('opens the live object as kubectl get -o yaml prints it, under kubectl edit’s header', () => {
    const { send } = harness();
    for (const line of ['kubectl edit deployment web', 'kubectl edit deploy/web']) {
      const r = send({ type: 'exec', line }) as ExecResult;
      expect(r.exitCode).toBe(0);
      expect(r.edit).toMatchObject({ kind: 'Deployment', namespace: 'default', name: 'web' });
      expect(r.edit!.yaml.startsWith(EDIT_HEADER)).toBe(true);
      expect(r.edit!.yaml).toContain('\nkind: Deployment\n');
      expect(r.edit!.yaml).toMatch(/\n {2}resourceVersion: "\d+"\n/);
      expect(r.edit!.yaml).toContain('\nstatus:\n');
    }
    const node = send({ type: 'exec', line: 'kubectl edit node worker-1' }) as ExecResult;
    expect(node.edit).toMatchObject({ kind: 'Node', name: 'worker-1' });
    expect(node.edit).not.toHaveProperty('namespace');
  });

  it('saves a change as a patch: deployment.apps/web edited, and the Deployment changed', () => {
    const { host, send, printed } = harness();
    const r = send({ type: 'exec', line: 'kubectl edit deployment web' }) as ExecResult;
    printed();
    const edited = r.edit!.yaml.replace(/\n {2}replicas: 3\n/, '\n  replicas: 5\n');
    expect(edited).not.toBe(r.edit!.yaml);
    const saved = send({
      type: 'edit',
      yaml: edited,
      ref: { kind: 'Deployment', namespace: 'default', name: 'web' }
    });
    expect(saved).toEqual({ ok: true, cancelled: false, message: 'deployment.apps/web edited' });
    expect(printed()).toEqual(['stdout: deployment.apps/web edited']);
    expect(host.cluster!.api.get('Deployment', 'default', 'web').spec.replicas).toBe(5);
    // The save is a learner action: it is in the recording, and replaying the recording redoes it.
    const rec = send({ type: 'recording' }) as { actions: { kind: string }[] };
    expect(rec.actions.map((a) => a.kind)).toEqual(['console', 'edit']);
    send({ type: 'reset' });
    expect(host.cluster!.api.get('Deployment', 'default', 'web').spec.replicas).toBe(3);
    send({ type: 'load', recording: rec });
    expect(host.cluster!.api.get('Deployment', 'default', 'web').spec.replicas).toBe(5);
  });

  it('an unchanged save prints Edit cancelled, no changes made. and records nothing', () => {
    const { host, send, printed } = harness();
    const r = send({ type: 'exec', line: 'kubectl edit deploy/web' }) as ExecResult;
    printed();
    const rv = host.cluster!.api.get('Deployment', 'default', 'web').metadata.resourceVersion;
    const saved = send({
      type: 'edit',
      yaml: r.edit!.yaml.replace('# Please edit', '#Please edit'),
      ref: { kind: 'Deployment', namespace: 'default', name: 'web' }
    });
    expect(saved).toEqual({ ok: false, cancelled: true, message: 'Edit cancelled, no changes made.' });
    expect(printed()).toEqual(['stderr: Edit cancelled, no changes made.']);
    expect(host.cluster!.api.get('Deployment', 'default', 'web').metadata.resourceVersion).toBe(rv);
    const rec = send({ type: 'recording' }) as { actions: { kind: string }[] };
    expect(rec.actions.map((a) => a.kind)).toEqual(['console']);
  });

  it('an invalid value comes back as kubectl prints it, with the field error, and changes nothing', () => {
    const { host, send, printed } = harness();
    const r = send({ type: 'exec', line: 'kubectl edit deployment web' }) as ExecResult;
    printed();
    const edited = r.edit!.yaml.replace(/\n {2}replicas: 3\n/, '\n  replicas: -1\n');
    const saved = send({
      type: 'edit',
      yaml: edited,
      ref: { kind: 'Deployment', namespace: 'default', name: 'web' }
    });
    expect(saved).toMatchObject({ ok: false, cancelled: false });
    const lines = printed();
    expect(lines).toEqual([
      'stderr: error: deployments.apps "web" is invalid\n* spec.replicas: Invalid value: -1: must be greater than or equal to 0'
    ]);
    expect(host.cluster!.api.get('Deployment', 'default', 'web').spec.replicas).toBe(3);
  });

  it('a YAML syntax error names the parser’s message and line; a renamed object is refused', () => {
    const { send } = harness();
    const r = send({ type: 'exec', line: 'kubectl edit deployment web' }) as ExecResult;
    const ref = { kind: 'Deployment', namespace: 'default', name: 'web' };
    const bad = send({
      type: 'edit',
      yaml: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: a: b\n',
      ref
    }) as {
      syntax?: { line: number; message: string };
    };
    expect(bad.syntax?.line).toBe(5);
    expect(bad.syntax?.message).toMatch(/^Nested mappings are not allowed in compact mappings/);
    const renamed = send({
      type: 'edit',
      yaml: r.edit!.yaml.replace(/\n {2}name: web\n/, '\n  name: web2\n'),
      ref
    });
    expect(renamed).toMatchObject({
      ok: false,
      message: 'error: At least one of apiVersion, kind and name was changed'
    });
  });

  it('a changed resourceVersion is sent and the API server answers Conflict', () => {
    const { send, printed } = harness();
    const r = send({ type: 'exec', line: 'kubectl edit deployment web' }) as ExecResult;
    printed();
    const edited = r
      .edit!.yaml.replace(/resourceVersion: "\d+"/, 'resourceVersion: "1"')
      .replace(/\n {2}replicas: 3\n/, '\n  replicas: 4\n');
    send({ type: 'edit', yaml: edited, ref: { kind: 'Deployment', namespace: 'default', name: 'web' } });
    expect(printed()[0]).toMatch(
      /^stderr: error: deployments\.apps "web" could not be patched: Operation cannot be fulfilled on deployments(\.apps)? "web": the object has been modified; please apply your changes to the latest version and try again$/
    );
  });

  it('saving without an open edit is refused with a clear message', () => {
    const { host } = harness();
    const out: SessionMessage[] = [];
    const h = new SessionHost({ post: (m) => out.push(m), wallClock: () => 0 });
    h.receive({
      id: 1,
      command: { type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } }
    });
    h.receive({
      id: 2,
      command: { type: 'edit', yaml: 'kind: Node', ref: { kind: 'Node', name: 'worker-1' } }
    });
    expect(out.find((m) => m.type === 'reply' && m.id === 2)).toMatchObject({
      ok: false,
      error: 'no kubectl edit is open for Node worker-1: run kubectl edit first'
    });
    expect(host.cluster).toBeDefined();
  });

  it('a Node capacity edit reconfigures the machine: the kubelet reports it on its next status update', () => {
    const { host, send } = harness();
    const r = send({ type: 'exec', line: 'kubectl edit node worker-1' }) as ExecResult;
    const yaml = r.edit!.yaml;
    const capacity = yaml.slice(yaml.indexOf('  capacity:'));
    const cpuLine = capacity.match(/\n {4}cpu: "?(\d+)"?\n/)!;
    const edited = yaml.replace(capacity, capacity.replace(cpuLine[0], '\n    cpu: "8"\n'));
    const saved = send({ type: 'edit', yaml: edited, ref: { kind: 'Node', name: 'worker-1' } });
    expect(saved).toMatchObject({ ok: true, message: 'node/worker-1 edited' });
    send({ type: 'advance', ms: 10_000 });
    expect(host.cluster!.api.get('Node', undefined, 'worker-1').status.capacity.cpu).toBe('8');
  });
});
