/**
 * When the simulator throws (a bug), the lab stops cleanly at the last good snapshot, says so,
 * and keeps a bug report — scenario, seed, actions, the error — that `nodeplane run --replay`
 * reproduces. The bug here is planted: a component that throws 20 s after a fault arms it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { readReplay } from '../../cli/replay';
import { addTestComponent, addTestFault, type Component } from '../../src/lib/sim/cluster';
import { SessionHost } from '../../src/lib/sim/session/host';
import type { BugReport, FrameMessage, SessionMessage } from '../../src/lib/sim/session/protocol';

addTestComponent('test-crasher', (cluster, args: { afterMs: number }) => {
  const c: Component = {
    id: 'test-crasher',
    kind: 'test-crasher',
    args,
    start: () => void cluster.engine.schedule(args.afterMs, 'test-crasher', 'crash'),
    handle: () => {
      throw new Error('planted bug: test-crasher failed');
    },
    getState: () => ({}),
    setState: () => undefined
  };
  return c;
});
addTestFault('ArmTestCrash', 'test only: a component that throws 20 s later', (cluster) => {
  cluster.addComponent('test-crasher', { afterMs: 20_000 });
});

const THREE_NODES = readFileSync('scenarios/three-nodes.yaml', 'utf8');

function harness() {
  const out: SessionMessage[] = [];
  const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: () => 0 });
  let id = 0;
  const send = (command: Record<string, unknown>) => host.receive({ id: ++id, command });
  const frames = () => out.filter((m): m is FrameMessage => m.type === 'frame');
  return { host, send, frames };
}

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

describe('crash recovery', () => {
  it('stops at the last good snapshot, says so, and keeps a bug report that --replay reproduces', async () => {
    const { host, send, frames } = harness();
    send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml' } });
    send({ type: 'advance', ms: 5_000 });
    send({ type: 'exec', line: 'kubectl get nodes' });
    send({ type: 'fault', action: 'ArmTestCrash' });
    send({ type: 'advance', ms: 60_000 });

    const withError = frames().filter((f) => f.simError);
    expect(withError).toHaveLength(1);
    const f = withError[0];
    const report = f.bugReport as BugReport;
    expect(report).toMatchObject({
      format: 'nodeplane.dev/bug-report/v1',
      error: { message: 'planted bug: test-crasher failed' },
      at: 25_000,
      seed: 42,
      recording: {
        fileName: 'three-nodes.yaml',
        scenario: THREE_NODES,
        t: 25_000,
        actions: [
          { t: 5_000, kind: 'console', line: 'kubectl get nodes' },
          { t: 5_000, kind: 'fault', action: 'ArmTestCrash' }
        ]
      }
    });
    expect(report.stoppedAt).toBeLessThan(25_000);
    expect(report.error.stack).toContain('planted bug');
    // The lab is back on the last good snapshot, paused, and the message says where.
    expect(host.cluster!.now).toBe(report.stoppedAt);
    expect(host.playing).toBe(false);
    expect(f.simError).toBe(
      `planted bug: test-crasher failed (at 25s; the lab went back to ${report.stoppedAt / 1000}s, the last good snapshot)`
    );

    // The report reproduces headless.
    const dir = mkdtempSync(join(tmpdir(), 'np-bug-'));
    const file = join(dir, 'bug.json');
    writeFileSync(file, JSON.stringify({ ...report, appVersion: '0.1.0-test' }));
    const r = await cli(['run', '--replay', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: the simulation threw replaying three-nodes.yaml with 2 action(s) to 25s: planted bug: test-crasher failed (the same error as the bug report)\n'
    );

    // A reset clears the error and the report.
    send({ type: 'reset' });
    const last = frames().at(-1)!;
    expect(last.simError).toBe('');
    expect(last.bugReport).toBeNull();
  });

  it('--replay of a lab file that does not fail says so; a bad file is named with the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'np-bug-'));
    const ok = join(dir, 'lab.json');
    writeFileSync(
      ok,
      JSON.stringify({
        format: 'nodeplane.dev/lab/v1',
        scenario: THREE_NODES,
        fileName: 'three-nodes.yaml',
        t: 30_000,
        actions: [{ t: 10_000, kind: 'fault', action: 'StopKubelet', target: 'worker-1' }]
      })
    );
    expect(await cli(['run', '--replay', ok])).toEqual({
      code: 0,
      stdout: 'replayed three-nodes.yaml with 1 action(s) to 30s: no error\n',
      stderr: ''
    });
    expect(() => readReplay('{"format":"nodeplane.dev/bug-report/v1","error":{}}', 'bug.json')).toThrow(
      'bug.json: error.message: expected a string (expected a bug report, format nodeplane.dev/bug-report/v1, or a lab file)'
    );
    expect(() => readReplay('{', 'bug.json')).toThrow(/^bug\.json: not valid JSON/);
    expect((await cli(['run', '--replay'])).stderr).toBe(
      'error: use: nodeplane run --replay <bug-report.json>\n'
    );
  });
});
