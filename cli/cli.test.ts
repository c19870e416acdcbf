import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) }
  };
}

async function run(argv: string[]) {
  const { out, io } = capture();
  const code = await main(argv, io);
  return { code, ...out };
}

const THREE = 'scenarios/three-nodes.yaml';

function tempScenario(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'nodeplane-'));
  const f = join(dir, 'bad.yaml');
  writeFileSync(f, text);
  return f;
}

const BAD = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: bad }
spec:
  nodePools:
    - name: worker
      count: 2
      capacity: { cpu: "-4" }
`;

describe('nodeplane CLI', () => {
  it('prints help', async () => {
    const r = await run(['help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'nodeplane run <scenario.yaml> [--until <duration>] [--output text|json] [--exec "<command>"]...'
    );
  });

  it('rejects an unknown command with exit code 1', async () => {
    const r = await run(['frobnicate']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: unknown command "frobnicate"');
  });

  it('validates a scenario', async () => {
    const r = await run(['validate', THREE]);
    expect(r).toEqual({
      code: 0,
      stdout:
        'three-nodes.yaml: scenario "three-nodes" is valid: 3 node(s) in 1 pool(s), 2 object(s), 0 fault(s)\n',
      stderr: ''
    });
  });

  it('exits 2 with the problems on stderr for a rejected scenario', async () => {
    const f = tempScenario(BAD);
    for (const cmd of ['validate', 'run']) {
      const r = await run([cmd, f]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'error: the scenario was rejected:\nbad.yaml:8:24: spec.nodePools[0].capacity[cpu]: Invalid value: "-4": must be greater than or equal to 0\n'
      );
    }
  });

  it('exits 1 for a missing file or a bad flag', async () => {
    expect((await run(['run', 'scenarios/nope.yaml'])).stderr).toBe(
      'error: cannot read scenarios/nope.yaml: ENOENT\n'
    );
    const r = await run(['run', THREE, '--until', 'soon']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: invalid duration "soon": use a number with a unit, like 90s, 5m or 1h30m\n'
    );
  });

  it('says so when the lessons folder holds no lessons', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nodeplane-lessons-'));
    expect(await run(['lessons', 'check', dir])).toEqual({
      code: 0,
      stdout: `no lessons found in ${dir}\nlessons: 0 passed, 0 failed\n`,
      stderr: ''
    });
  });

  it('prints the timeline as kubectl-style columns with virtual times', async () => {
    const r = await run(['run', THREE, '--until', '30s']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME {3,}TYPE {3,}REASON {3,}OBJECT {3,}MESSAGE$/);
    expect(lines).toContain(
      lines.find((l) =>
        /^5s {3,}Normal {3,}RegisteredNode {3,}node\/worker-1 {3,}Registered Node worker-1 in Controller$/.test(
          l
        )
      )
    );
    expect(
      lines.some((l) =>
        /^\d+s {3,}Normal {3,}Started {3,}pod\/web-[a-z0-9]+-[a-z0-9]{5} {3,}Started container nginx$/.test(l)
      )
    ).toBe(true);
  });

  it('writes the JSON shape with events, final objects and exec output', async () => {
    const r = await run(['run', THREE, '--until', '1m', '-o', 'json', '--exec', 'kubectl get nodes']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['scenario', 'until', 'events', 'faults', 'objects', 'exec']);
    expect(j.scenario).toBe('three-nodes');
    expect(j.until).toBe(60);
    for (const e of j.events) {
      expect(Object.keys(e)).toEqual(['t', 'type', 'reason', 'object', 'message', 'source']);
      expect(e.t).toBeLessThanOrEqual(60);
    }
    // The scenario's objects are applied right after the nodes register (100ms).
    // (kubeadm's CoreDNS and the CNI's controllers are applied just before them.)
    expect(
      j.events.find(
        (e: { reason: string; object: string }) =>
          e.reason === 'ScalingReplicaSet' && e.object === 'Deployment/default/web'
      )
    ).toMatchObject({
      t: 0.1,
      type: 'Normal',
      object: 'Deployment/default/web',
      source: 'deployment-controller'
    });
    const nodes = j.objects.filter((o: { kind: string }) => o.kind === 'Node');
    // kubeadm's control-plane-1 is a Node too.
    expect(nodes.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual([
      'control-plane-1',
      'worker-1',
      'worker-2',
      'worker-3'
    ]);
    const pods = j.objects.filter(
      (o: { kind: string; metadata: { namespace?: string } }) =>
        o.kind === 'Pod' && o.metadata.namespace === 'default'
    );
    // web's 3 replicas; kube-system holds log-agent's 3 and the cluster's own 9.
    expect(pods).toHaveLength(3);
    expect(pods.every((p: { status: { phase: string } }) => p.status.phase === 'Running')).toBe(true);
    expect(j.objects.some((o: { kind: string }) => o.kind === 'Event')).toBe(false);
    expect(j.exec).toHaveLength(1);
    expect(j.exec[0].command).toBe('kubectl get nodes');
    expect(j.exec[0].output.split('\n')[0]).toMatch(/^NAME {3,}STATUS {3,}ROLES {3,}AGE {3,}VERSION$/);
  });

  it('is deterministic: the same scenario gives byte-identical JSON', { timeout: 60_000 }, async () => {
    const a = await run(['run', 'scenarios/heartbeat-loss.yaml', '--output', 'json']);
    const b = await run(['run', 'scenarios/heartbeat-loss.yaml', '--output', 'json']);
    expect(a.code).toBe(0);
    expect(a.stdout.length).toBeGreaterThan(10_000);
    expect(b.stdout).toBe(a.stdout);
    const j = JSON.parse(a.stdout);
    expect(j.faults).toEqual([{ t: 60, action: 'StopKubelet', target: 'worker-2' }]);
    // Ready goes Unknown after the 50s grace period (v1.35) once the last heartbeat is older than it.
    const notReady = j.events.find(
      (e: { reason: string; object: string }) => e.reason === 'NodeNotReady' && e.object === 'Node/worker-2'
    );
    expect(notReady.t).toBeGreaterThan(100);
    expect(notReady.t).toBeLessThanOrEqual(115);
    // DefaultTolerationSeconds: pods on the node are evicted 300s after the NoExecute taint.
    const evicted = j.events.find((e: { reason: string }) => e.reason === 'TaintManagerEviction');
    expect(evicted.t - notReady.t).toBeGreaterThanOrEqual(300);
    expect(evicted.t - notReady.t).toBeLessThanOrEqual(310);
  });
});
