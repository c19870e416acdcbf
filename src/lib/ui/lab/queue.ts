/**
 * The scheduling queue in the learner's language: where a pending pod waits, what moves it back
 * (each cluster event its rejecting plugins register, said as that plugin's queueing hint checks
 * it: `lab.queue.hint.<plugin>.<label>`; `lab.queue.events.<label>` when no plugin rejected it) and
 * its attempts over time. Read from sim/observe's queue model, never from event text.
 */
import { t } from '$lib/i18n/index.svelte';
import type { AttemptResult, QueuedPodModel, QueueMove, QueueName, RegisteredEvent } from '$lib/sim/observe';
import { formatClock } from './format';

export const QUEUES: readonly QueueName[] = ['active', 'backoff', 'unschedulable'];

export const queueName = (q: QueueName): string => t(`lab.queue.names.${q}`);

/** "a Node is added with room for its requests (NodeResourcesFit)": the event as the plugin's hint judges it. */
export function hintText(e: RegisteredEvent): string {
  if (!e.plugin) return t(`lab.queue.events.${e.event}`);
  return t('lab.queue.hints_by', { hint: t(`lab.queue.hint.${e.plugin}.${e.event}`), plugin: e.plugin });
}

/**
 * Where a pod waits, in parts a view lists: the head ("Waiting in: backoffQ — moves to activeQ
 * when its back-off ends at 12s."), and for unschedulable pods the events that move it back and
 * the leftover flush's deadline.
 */
export function waiting(q: QueuedPodModel): { head: string; events: string[]; latest?: string } {
  const where = t('lab.queue.waitingIn', { queue: queueName(q.queue) });
  if (q.queue === 'active') return { head: `${where} — ${t('lab.queue.activeNext')}`, events: [] };
  if (q.queue === 'backoff')
    return {
      head: `${where} — ${t('lab.queue.backoffEnds', { time: formatClock(q.backoffUntil) })}`,
      events: []
    };
  return {
    head: `${where} — ${t('lab.queue.movesBackWhen')}`,
    // Keyed by their text in the view: each once.
    events: [...new Set(q.movesOn.map(hintText))],
    latest: t('lab.queue.atTheLatest', { time: formatClock(q.leftoverAt ?? 0) })
  };
}

/** The same as one sentence: "Waiting in: unschedulable pods — moves back when: a Node is added; or …". */
export function waitingText(q: QueuedPodModel): string {
  const w = waiting(q);
  if (!w.latest) return w.head;
  return `${w.head} ${[...w.events, w.latest].join(t('lab.queue.or'))}.`;
}

/** "Last moved at 55s by NodeAdd: unschedulable pods → activeQ" (the event keeps its upstream label). */
export function moveText(m: QueueMove): string {
  if (!m.from) return t('lab.queue.entered', { time: formatClock(m.t), event: m.event });
  return t('lab.queue.lastMoved', {
    time: formatClock(m.t),
    event: m.event,
    from: queueName(m.from),
    to: queueName(m.to)
  });
}

export function attemptText(a: AttemptResult): string {
  const base = { n: a.n, time: formatClock(a.t) };
  if (a.result === 'scheduled') return t('lab.queue.result.scheduled', { ...base, node: a.node ?? '' });
  if (a.result === 'error') return t('lab.queue.result.error', base);
  if (!a.plugins.length) return t('lab.queue.result.unschedulableNoPlugin', base);
  return t('lab.queue.result.unschedulable', { ...base, plugins: a.plugins.join(', ') });
}

/** The short line under a pod in the queue panel: attempts, back-off end or flush time, plugins. */
export function podLine(q: QueuedPodModel): string {
  const parts = [t('lab.queue.attempts', { count: q.attempts })];
  if (q.queue === 'backoff') parts.push(t('lab.queue.backoffUntil', { time: formatClock(q.backoffUntil) }));
  if (q.plugins.length) parts.push(t('lab.queue.rejectedBy', { plugins: q.plugins.join(', ') }));
  if (q.queue === 'unschedulable')
    parts.push(t('lab.queue.leftoverAt', { time: formatClock(q.leftoverAt ?? 0) }));
  return parts.join(' · ');
}
