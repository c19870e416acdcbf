/**
 * Determinism across the worker boundary: the lab session in the browser's Web Worker and the
 * same session in-process in Node give byte-identical event logs for the same scenario, seed and
 * command list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SessionHost } from '../../src/lib/sim/session/host';
import type { SessionCommand, SessionMessage } from '../../src/lib/sim/session/protocol';

const SCENARIO = readFileSync('scenarios/heartbeat-loss.yaml', 'utf8');

const COMMANDS: SessionCommand[] = [
  { type: 'init', init: { scenario: SCENARIO, fileName: 'heartbeat-loss.yaml' } },
  { type: 'advance', ms: 30_000 },
  { type: 'exec', line: 'kubectl scale deployment web --replicas=5' },
  { type: 'fault', action: 'StopKubelet', target: 'worker-3' },
  { type: 'advance', ms: 90_000 },
  { type: 'jump', t: 60_000 },
  { type: 'exec', line: 'kubectl cordon worker-1' },
  { type: 'advance', ms: 200_000 },
  { type: 'eventLog' }
];

function inProcess(): string {
  let result: unknown;
  const host = new SessionHost({
    post: (m: SessionMessage) => {
      if (m.type === 'reply' && m.ok) result = m.result;
      if (m.type === 'reply' && !m.ok) throw new Error(m.error);
    },
    wallClock: () => 0
  });
  COMMANDS.forEach((command, i) => host.receive({ id: i + 1, command }));
  return JSON.stringify(result);
}

test('the Web Worker and Node give the same event log for the same commands', async ({ page }) => {
  const worker = readdirSync('build/_app/immutable/workers').find((f) => f.startsWith('session.worker'));
  expect(worker).toBeDefined();
  await page.goto('/');
  const inBrowser = await page.evaluate(
    async ({ url, commands }) => {
      const w = new Worker(url, { type: 'module' });
      const log = await new Promise<unknown>((resolve, reject) => {
        w.onmessage = (e: MessageEvent) => {
          const m = e.data;
          if (m.type !== 'reply') return;
          if (!m.ok) reject(new Error(m.error));
          else if (m.id === commands.length) resolve(m.result);
        };
        commands.forEach((command, i) => w.postMessage({ id: i + 1, command }));
      });
      w.terminate();
      return JSON.stringify(log);
    },
    { url: `/_app/immutable/workers/${worker}`, commands: COMMANDS }
  );
  const expected = inProcess();
  expect(JSON.parse(expected).length).toBeGreaterThan(40);
  expect(inBrowser).toBe(expected);
});

test('the worker answers a malformed message with an error and keeps serving', async ({ page }) => {
  const worker = readdirSync('build/_app/immutable/workers').find((f) => f.startsWith('session.worker'));
  await page.goto('/');
  const replies = await page.evaluate(async (url) => {
    const w = new Worker(url, { type: 'module' });
    const out: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      w.onmessage = (e: MessageEvent) => {
        if (e.data.type === 'frame' || e.data.type === 'console') return;
        out.push(e.data);
        if (out.length === 3) resolve();
      };
    });
    w.postMessage('hello');
    w.postMessage({ id: 1, command: { type: 'rm -rf' } });
    w.postMessage({ id: 2, command: { type: 'eventLog' } });
    await done;
    w.terminate();
    return out;
  }, `/_app/immutable/workers/${worker}`);
  expect(replies).toEqual([
    { type: 'protocol-error', error: 'message: expected an object { id, command }' },
    { type: 'reply', id: 1, ok: false, error: 'message.command.type: unknown command "rm -rf"' },
    { type: 'reply', id: 2, ok: false, error: 'session not started: send "init" before "eventLog"' }
  ]);
});
