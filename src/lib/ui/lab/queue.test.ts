import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '$lib/i18n/index.svelte';
import type { QueuedPodModel } from '$lib/sim/observe';
import { attemptText, moveText, podLine, waitingText } from './queue';

/** What sim/observe/schedqueue.ts reports for a pod that asked for more CPU than any node has. */
const WAITING: QueuedPodModel = {
  pod: 'default/web-1',
  queue: 'unschedulable',
  priority: 0,
  attempts: 2,
  plugins: ['NodeResourcesFit'],
  backoffUntil: 12_101,
  since: 10_101,
  leftoverAt: 330_000,
  movesOn: [
    { event: 'NodeAdd', plugin: 'NodeResourcesFit' },
    { event: 'NodeUpdateNodeAllocatable', plugin: 'NodeResourcesFit' },
    { event: 'AssignedPodDelete', plugin: 'NodeResourcesFit' }
  ],
  moves: [{ t: 10_100, event: 'NodeAdd', from: 'unschedulable', to: 'active' }]
};

describe('the scheduling queue in words', () => {
  afterEach(() => setLocale('en'));

  it('says where a pod waits and which events move it back', () => {
    expect(waitingText(WAITING)).toBe(
      "Waiting in: unschedulable pods — moves back when: a Node is added with room for its requests (NodeResourcesFit); or a Node's allocatable grows in a resource it requests, enough to fit it (NodeResourcesFit); or a pod on a node is deleted or finishes, which may free room (NodeResourcesFit); or at 5m30s at the latest (5 minutes in unschedulable pods)."
    );
    expect(waitingText({ ...WAITING, queue: 'backoff' })).toBe(
      'Waiting in: backoffQ — moves to activeQ when its back-off ends at 12s.'
    );
    expect(waitingText({ ...WAITING, queue: 'active' })).toBe(
      'Waiting in: activeQ — next in line for a scheduling cycle.'
    );
    expect(moveText(WAITING.moves[0])).toBe('Last moved at 10s by NodeAdd: unschedulable pods → activeQ');
    expect(podLine(WAITING)).toBe(
      '2 attempts · rejected by NodeResourcesFit · flushed at 5m30s at the latest'
    );
  });

  it('numbers the attempts with their time and result', () => {
    expect(attemptText({ n: 1, t: 102, result: 'unschedulable', plugins: ['NodeResourcesFit'] })).toBe(
      '#1 at 0s: unschedulable (NodeResourcesFit)'
    );
    expect(attemptText({ n: 3, t: 55_101, result: 'scheduled', node: 'worker-2', plugins: [] })).toBe(
      '#3 at 55s: scheduled to worker-2'
    );
  });

  it('speaks Russian', async () => {
    await setLocale('ru');
    expect(waitingText({ ...WAITING, movesOn: [{ event: 'NodeAdd', plugin: 'NodeResourcesFit' }] })).toBe(
      'Ждёт в: unschedulable pods — вернётся, когда: добавлен узел, на котором хватает места под его запросы (NodeResourcesFit); или не позже 5m30s (5 минут в unschedulable pods).'
    );
    // No plugin rejected it (no nodes at all): any event a plugin registered.
    expect(waitingText({ ...WAITING, plugins: [], movesOn: [{ event: 'NodeAdd', plugin: null }] })).toBe(
      'Ждёт в: unschedulable pods — вернётся, когда: в кластер добавлен узел; или не позже 5m30s (5 минут в unschedulable pods).'
    );
    expect(podLine({ ...WAITING, attempts: 5 })).toBe(
      '5 попыток · отклонил NodeResourcesFit · вернётся в очередь не позже 5m30s'
    );
  });
});
