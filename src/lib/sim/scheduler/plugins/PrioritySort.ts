/** PrioritySort (QueueSort): higher priority first, then the pod that entered the queue first. */
export const Name = 'PrioritySort';

export interface QueuedPodOrder {
  priority: number;
  timestamp: number;
}

export function less(a: QueuedPodOrder, b: QueuedPodOrder): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.timestamp < b.timestamp);
}
