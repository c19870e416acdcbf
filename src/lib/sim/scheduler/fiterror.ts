/**
 * FitError.Error() (pkg/scheduler/framework/types.go): "0/N nodes are available:" then the
 * PreFilter message, or every node's reasons counted and sorted as strings, then the
 * PostFilter (preemption) message.
 */
import type { Status } from './types';

export const NoNodeAvailableMsg = (n: number): string => `0/${n} nodes are available`;

export function reasonHistogram(statuses: Iterable<Status>): string[] {
  const counts = new Map<string, number>();
  for (const s of statuses) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  // sort.Strings on "<count> <reason>": byte order, like Go.
  return [...counts.entries()].map(([r, c]) => `${c} ${r}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function fitErrorMessage(
  numAllNodes: number,
  statuses: Map<string, Status>,
  preFilterMsg: string,
  postFilterMsg: string,
  minor: number
): string {
  let msg = NoNodeAvailableMsg(numAllNodes) + ':';
  if (preFilterMsg) msg += ` ${preFilterMsg}.`;
  else {
    const h = reasonHistogram(statuses.values());
    if (h.length) msg += ` ${h.join(', ')}.`;
  }
  if (postFilterMsg) {
    // Before v1.27 the preemption text kept its own period and got a second one (issue #116133).
    msg += minor < 27 || !postFilterMsg.endsWith('.') ? ` ${postFilterMsg}.` : ` ${postFilterMsg}`;
  }
  return msg;
}
