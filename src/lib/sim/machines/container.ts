/**
 * A container's state as the kubelet reports it in the pod's status (containerStatuses[].state):
 * waiting with a reason, running, or terminated with a reason. The kubelet's status manager
 * (node/podstatus.ts) steps one of these per app container each time it builds the pod's status;
 * the pod's phase (Pending / Running / Succeeded / Failed, getPhase) follows from its containers.
 *
 * Waiting reasons and their order come from the kubelet (pkg/kubelet/images/image_manager.go,
 * pkg/kubelet/kuberuntime/kuberuntime_manager.go, pkg/kubelet/container/sync_result.go):
 * ContainerCreating while the image is ensured, ErrImagePull when a pull fails, ImagePullBackOff
 * while the per-image back-off (1 s doubling to 5 min) holds the next pull, ErrImageNeverPull for
 * a missing image with imagePullPolicy Never, CrashLoopBackOff while the restart back-off (10 s
 * doubling to 5 min) holds a restart, PodInitializing while init containers run. Terminated
 * reasons: Completed (exit 0), Error (non-zero), OOMKilled (the cgroup's memory limit).
 */
import { setup } from 'xstate';

export type TerminatedReason = 'Completed' | 'Error' | 'OOMKilled';

export type ContainerEvent =
  | { type: 'CREATING' }
  | { type: 'INITIALIZING' }
  | { type: 'PULL_FAILED' }
  | { type: 'PULL_BACK_OFF' }
  | { type: 'NEVER_PULL' }
  | { type: 'STARTED' }
  | { type: 'EXITED'; reason: string }
  | { type: 'CRASH_BACK_OFF' };

/** The event a reported container state stands for, and the state it leads to; undefined for others. */
export function containerEventOf(
  state: Record<string, unknown>
): { event: ContainerEvent; value: string } | undefined {
  if ('running' in state) return { event: { type: 'STARTED' }, value: 'running' };
  const terminated = state.terminated as { reason?: string } | undefined;
  if (terminated) {
    const reason = terminated.reason ?? 'Error';
    return { event: { type: 'EXITED', reason }, value: `terminated.${reason}` };
  }
  const reason = (state.waiting as { reason?: string } | undefined)?.reason;
  const type = reason ? WAITING_EVENTS[reason] : undefined;
  return type ? { event: { type } as ContainerEvent, value: `waiting.${reason}` } : undefined;
}

const WAITING_EVENTS: Record<string, ContainerEvent['type']> = {
  ContainerCreating: 'CREATING',
  PodInitializing: 'INITIALIZING',
  ErrImagePull: 'PULL_FAILED',
  ImagePullBackOff: 'PULL_BACK_OFF',
  ErrImageNeverPull: 'NEVER_PULL',
  CrashLoopBackOff: 'CRASH_BACK_OFF'
};

const exited =
  (reason: TerminatedReason) =>
  ({ event }: { event: ContainerEvent }) =>
    event.type === 'EXITED' && event.reason === reason;

const EXITED = [
  { guard: 'exitedCompleted', target: '#container.terminated.Completed' },
  { guard: 'exitedOOMKilled', target: '#container.terminated.OOMKilled' },
  { guard: 'exitedError', target: '#container.terminated.Error' }
] as const;

const STARTED = '#container.running';
const CRASH_BACK_OFF = '#container.waiting.CrashLoopBackOff';

export const containerMachine = setup({
  types: { events: {} as ContainerEvent },
  guards: {
    exitedCompleted: exited('Completed'),
    exitedOOMKilled: exited('OOMKilled'),
    exitedError: exited('Error')
  }
}).createMachine({
  id: 'container',
  initial: 'waiting',
  states: {
    waiting: {
      initial: 'ContainerCreating',
      states: {
        ContainerCreating: {
          description: 'The sandbox is up; the kubelet ensures the image (pulls it if the policy says so).',
          on: {
            INITIALIZING: 'PodInitializing',
            PULL_FAILED: 'ErrImagePull',
            NEVER_PULL: 'ErrImageNeverPull',
            STARTED,
            EXITED: [...EXITED]
          }
        },
        PodInitializing: {
          description: 'Init containers run one after another before the app containers start.',
          on: { CREATING: 'ContainerCreating', PULL_FAILED: 'ErrImagePull', STARTED, EXITED: [...EXITED] }
        },
        ErrImagePull: {
          description: 'The pull failed (not found, unauthorized, no route to the registry).',
          on: { PULL_BACK_OFF: 'ImagePullBackOff', CREATING: 'ContainerCreating', STARTED }
        },
        ImagePullBackOff: {
          description: 'The next pull waits out the image back-off: 1 s doubling to 5 min.',
          on: { PULL_FAILED: 'ErrImagePull', CREATING: 'ContainerCreating', STARTED }
        },
        ErrImageNeverPull: {
          description: 'imagePullPolicy: Never and the image is not on the node.',
          on: { STARTED }
        },
        CrashLoopBackOff: {
          description: 'The container exited; the restart waits out the back-off: 10 s doubling to 5 min.',
          on: { STARTED, PULL_FAILED: 'ErrImagePull', EXITED: [...EXITED] }
        }
      }
    },
    running: {
      description: 'The process runs; readiness follows its probe.',
      on: { EXITED: [...EXITED], CRASH_BACK_OFF }
    },
    terminated: {
      // Only entered through EXITED, which names the reason's state.
      initial: 'Error',
      states: {
        Completed: { description: 'Exit code 0.' },
        Error: { description: 'A non-zero exit code, or killed at the end of the grace period (137).' },
        OOMKilled: { description: 'Killed by the kernel at the memory limit (exit code 137).' }
      },
      on: { STARTED, CRASH_BACK_OFF }
    }
  }
});
