/**
 * FailedScheduling messages in plain language. The message format is the scheduler's FitError:
 * `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: ...`
 * Each counted reason becomes one sentence in the learner's language (`lab.explain.*` in the lab
 * catalogs, with plural forms); unknown reasons are passed through unchanged.
 */
import { t } from '$lib/i18n/index.svelte';

/** Reason patterns of the scheduler's filter plugins and preemption, and their catalog keys. */
const REASONS: [RegExp, string][] = [
  [/^Insufficient (.+)$/, 'insufficient'],
  [/^Too many pods$/, 'tooManyPods'],
  [/^node\(s\) had untolerated taint/, 'taint'],
  [/^node\(s\) didn't match Pod's node affinity\/selector$/, 'nodeAffinity'],
  [/^node\(s\) were unschedulable$/, 'unschedulable'],
  [/^node\(s\) didn't have free ports for the requested pod ports$/, 'ports'],
  [/^node\(s\) didn't match pod topology spread constraints/, 'spread'],
  [/^node\(s\) didn't match pod affinity rules$/, 'podAffinity'],
  [/^node\(s\) didn't match pod anti-affinity rules$/, 'podAntiAffinity'],
  [/^node\(s\) didn't satisfy existing pods anti-affinity rules$/, 'existingAntiAffinity'],
  [/^node\(s\) didn't match the requested node name$/, 'nodeName'],
  [/^Preemption is not helpful for scheduling$/, 'preemptionNotHelpful'],
  [/^No preemption victims found for incoming pod$/, 'noVictims']
];

function explainReason(part: string): string {
  const m = /^(\d+) (.+)$/.exec(part.trim());
  if (!m) return part.trim();
  for (const [re, key] of REASONS) {
    const r = re.exec(m[2]);
    if (r) return t(`lab.explain.${key}`, { count: Number(m[1]), resource: r[1] });
  }
  return part.trim();
}

function splitReasons(list: string): string[] {
  return list
    .replace(/\.$/, '')
    .split(/, (?=\d+ )/)
    .filter(Boolean);
}

export function explainFailedScheduling(message: string): string[] {
  const [main, preemption] = message.split(/ preemption: /);
  const head = main.trim().replace(/\.$/, '');
  if (head === 'no nodes available to schedule pods') return [t('lab.explain.noNodes')];
  const m = /^(\d+)\/(\d+) nodes are available(?::\s*(.*))?$/.exec(head);
  if (!m) return [message];
  const out = [t('lab.explain.summary', { count: Number(m[2]), passed: Number(m[1]) })];
  if (m[3]) out.push(...splitReasons(m[3]).map(explainReason));
  if (preemption) {
    const p = /^\d+\/\d+ nodes are available: (.*)$/.exec(preemption.trim());
    if (p) out.push(...splitReasons(p[1]).map(explainReason));
    else out.push(preemption.trim());
  }
  return out;
}
