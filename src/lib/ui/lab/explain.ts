/**
 * A scheduling attempt in plain language, read from the scheduler's recorded verdicts (the
 * summary sim/observe builds: rejections counted per reason, each with its kind). Each counted
 * rejection becomes one sentence in the learner's language (`lab.explain.*` in the lab catalogs,
 * with plural forms); a reason the lab has no sentence for is shown as `<count> <reason>`.
 */
import { t } from '$lib/i18n/index.svelte';
import type { Rejection, SchedulingSummary } from '$lib/sim/observe';

function sentence(r: Rejection): string {
  if (!r.kind) return `${r.count} ${r.reason}`;
  return t(`lab.explain.${r.kind}`, { count: r.count, resource: r.resource ?? '' });
}

export function explainScheduling(s: SchedulingSummary): string[] {
  if (s.noNodes) return [t('lab.explain.noNodes')];
  if (s.selectedNode) return [];
  const out: string[] = [];
  if (s.rejections.length)
    out.push(
      t('lab.explain.summary', { count: s.totalNodes, passed: s.passed }),
      ...s.rejections.map(sentence)
    );
  out.push(...s.preemption.map(sentence), ...s.notes);
  return out;
}
