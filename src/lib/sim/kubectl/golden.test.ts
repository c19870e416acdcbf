/**
 * Golden outputs of the console on the fixed cluster of testing/goldenCluster.ts at 5m50s.
 * Regenerate after an intended change with: UPDATE_GOLDEN=1 npx vitest run --project server src/lib/sim/kubectl/golden.test.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from './console';
import { goldenCluster } from './testing/goldenCluster';

const DIR = join(process.cwd(), 'tests/golden/console');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const CASES: [file: string, command: string][] = [
  ['get-nodes.txt', 'kubectl get nodes'],
  ['get-nodes-wide.txt', 'kubectl get nodes -o wide'],
  ['get-pods-all-wide.txt', 'kubectl get pods -A -o wide'],
  ['describe-node-ready.txt', 'kubectl describe node worker-1'],
  ['describe-node-notready.txt', 'kubectl describe node worker-2'],
  ['describe-pod-pending.txt', 'kubectl describe pod big-batch'],
  ['describe-pod-evicted.txt', 'kubectl describe pod cache-0'],
  ['describe-pod-rejected.txt', 'kubectl describe pod report-5n8vq'],
  ['describe-pod-running.txt', 'kubectl describe pod web-7c5ddbdf54-2xkqp'],
  ['get-events.txt', 'kubectl get events'],
  ['get-events-sorted.txt', 'kubectl get events -A --sort-by=.lastTimestamp']
];

describe('console golden outputs at 5m50s', () => {
  const session = new ConsoleSession(goldenCluster());
  for (const [file, command] of CASES) {
    it(`${command} matches ${file}`, () => {
      const r = session.exec(command);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const path = join(DIR, file);
      if (UPDATE || !existsSync(path)) {
        mkdirSync(DIR, { recursive: true });
        writeFileSync(path, r.stdout);
      }
      expect(r.stdout).toBe(readFileSync(path, 'utf8'));
    });
  }
});
