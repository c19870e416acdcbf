/**
 * A jump back gives the same cluster whichever kept snapshot it restores: the one at the jump's
 * target, an earlier one replayed forward, or a spare restored ahead while paused. The lab in the
 * browser keeps only the snapshots that pay for themselves (a wall-clock decision), so these are
 * the runs the worker makes where Node, with a clock that never moves, keeps every snapshot.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../kubectl/console';
import { createCluster } from '../scenario/bootstrap';
import { LabSession } from './lab-session';

const HEARTBEAT = readFileSync(new URL('../../../../scenarios/heartbeat-loss.yaml', import.meta.url), 'utf8');

function session(opts: { snapshotEvery?: number; spare?: boolean } = {}): LabSession {
  return new LabSession({
    createCluster: () => createCluster(HEARTBEAT, { fileName: 'heartbeat-loss.yaml' }).cluster,
    wallClock: () => 0,
    performers: {
      console: (cluster, line) => new ConsoleSession(cluster).exec(line).watch?.stop(),
      apply: () => {}
    },
    snapshotEvery: opts.snapshotEvery,
    // A spare is restored ahead only for costly snapshots; 0 makes every one count as costly.
    ...(opts.spare ? { spareAboveMs: 0 } : {})
  });
}

/** Scale up, stop worker-3's kubelet; run on, jump back to 60 s and cordon worker-1 there. */
function jumpedBack(lab: LabSession, restoredAt: number, prepare = false): string {
  lab.advanceBy(30_000);
  lab.perform({ kind: 'console', line: 'kubectl scale deployment web --replicas=5' });
  lab.perform({ kind: 'fault', action: 'StopKubelet', target: 'worker-3' });
  lab.advanceBy(90_000);
  if (prepare) expect(lab.prepareJump()).toBe(true);
  lab.jumpTo(60_000);
  expect(lab.snapshotTimes().at(-1)).toBe(restoredAt);
  lab.perform({ kind: 'console', line: 'kubectl cordon worker-1' });
  lab.advanceBy(200_000);
  return JSON.stringify(lab.cluster.eventLog);
}

/** The same actions at the same virtual times, with no jump at all. */
function straight(): string {
  const lab = session();
  lab.advanceBy(30_000);
  lab.perform({ kind: 'console', line: 'kubectl scale deployment web --replicas=5' });
  lab.perform({ kind: 'fault', action: 'StopKubelet', target: 'worker-3' });
  lab.advanceBy(30_000);
  lab.perform({ kind: 'console', line: 'kubectl cordon worker-1' });
  lab.advanceBy(200_000);
  return JSON.stringify(lab.cluster.eventLog);
}

describe('a jump back', () => {
  it('gives the event log of a run straight through, from any snapshot and from a spare', () => {
    const expected = straight();
    // The two pods the scale-up left Pending are retried one scheduling cycle (1 ms) apart when
    // the cordon moves them back to activeQ; a restored scheduler once added a cycle of its own,
    // which retried both in the same millisecond after a restore at exactly 60 s.
    const retries = (JSON.parse(expected) as { t: number; reason: string; object: string }[])
      .filter((e) => e.reason === 'FailedScheduling' && e.t >= 60_000 && e.t < 60_100)
      .map((e) => `${e.t} ${e.object}`);
    expect(retries).toEqual([
      '60001 Pod/default/web-85c8945bd9-bz85j',
      '60002 Pod/default/web-85c8945bd9-kfrkr'
    ]);
    const fromSnapshotAt60 = jumpedBack(session({ snapshotEvery: 10_000 }), 60_000);
    const fromSnapshotAt50 = jumpedBack(session({ snapshotEvery: 25_000 }), 50_000);
    const fromSpare = jumpedBack(session({ snapshotEvery: 10_000, spare: true }), 60_000, true);
    expect(fromSnapshotAt60).toBe(expected);
    expect(fromSnapshotAt50).toBe(expected);
    expect(fromSpare).toBe(expected);
  }, 60_000);
});
