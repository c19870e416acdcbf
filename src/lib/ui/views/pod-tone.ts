import type { PodView } from '$lib/sim/observe';

export type PodTone = 'running' | 'pending' | 'terminating' | 'done' | 'warn' | 'failed';

/** The colour group of a pod on the map, from its kubectl STATUS and phase. */
export function podTone(pod: PodView): PodTone {
  if (pod.terminating) return 'terminating';
  if (pod.status === 'Running') return 'running';
  if (pod.status === 'Pending' || pod.status === 'ContainerCreating') return 'pending';
  if (pod.status === 'Completed' || pod.phase === 'Succeeded') return 'done';
  if (pod.phase === 'Running') return 'warn';
  return 'failed';
}

export const TONES: readonly PodTone[] = ['running', 'pending', 'warn', 'failed', 'terminating', 'done'];
