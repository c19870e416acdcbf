/**
 * kube-scheduler's /metrics (:10259) for what the simulation models: the scheduling queue's
 * pending pods and the scheduling attempts (pkg/scheduler/metrics/metrics.go), and leader election.
 */
import type { Family } from '../metrics/exposition';
import type { KubeScheduler } from './component';
import { leaderElectionFamily } from '../controllers/metrics';

/** The families one kube-scheduler instance serves; a standby reports only its leader-election status. */
export function schedulerFamilies(sched: KubeScheduler, leading: boolean): Family[] {
  const families: Family[] = [leaderElectionFamily('kube-scheduler', leading)];
  if (!leading) return families;
  const pending: Record<string, number> = { active: 0, backoff: 0, gated: 0, unschedulable: 0 };
  for (const p of sched.queued()) pending[p.where] = (pending[p.where] ?? 0) + 1;
  families.push(
    {
      name: 'scheduler_pending_pods',
      help: "[STABLE] Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
      type: 'gauge',
      samples: Object.entries(pending).map(([queue, value]) => ({ labels: { queue }, value }))
    },
    {
      name: 'scheduler_schedule_attempts_total',
      help: "[STABLE] Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      type: 'counter',
      samples: Object.entries(sched.attemptCounts()).map(([key, value]) => {
        const [result, profile] = key.split(' ');
        return { labels: { profile, result }, value };
      })
    }
  );
  return families;
}
