/**
 * A recorded learner action, checked on its own: the roadmap and the class results read saved
 * progress with it, and they need none of the share-link compression that share.ts brings along.
 */
import type { LabAction } from '$lib/sim/session/protocol';

/** A recorded learner action, checked field by field (untrusted input). */
export function isLabAction(a: unknown): a is LabAction {
  if (!a || typeof a !== 'object') return false;
  const x = a as Record<string, unknown>;
  if (typeof x.t !== 'number' || x.t < 0) return false;
  if (x.kind === 'fault')
    return typeof x.action === 'string' && (x.mode === undefined || typeof x.mode === 'string');
  if (x.kind === 'console') return typeof x.line === 'string';
  if (x.kind === 'apply') return typeof x.yaml === 'string' && typeof x.fileName === 'string';
  if (x.kind === 'edit') {
    const r = x.ref as Record<string, unknown> | null;
    return (
      typeof x.yaml === 'string' &&
      typeof x.original === 'string' &&
      !!r &&
      typeof r === 'object' &&
      typeof r.kind === 'string' &&
      typeof r.name === 'string'
    );
  }
  return false;
}
