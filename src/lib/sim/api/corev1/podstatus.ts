/**
 * The STATUS, READY and RESTARTS of a pod as kubectl's printPod computes them
 * (kubectl/pkg/printers/internalversion/printers.go, pkg/printers/internalversion printPod):
 * SchedulingGated, `Init:N/M`, `Init:<reason>`, the last container's waiting or terminated
 * reason, `Completed` turned back to Running/NotReady while a container still runs,
 * `Terminating` for a deleting pod that has not finished, and `Unknown` for a deleting pod the
 * node controller marked NodeLost. `kubectl get pods`, the lab's map and the lesson checks all
 * read it here, so they agree on every pod.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

/** pkg/util/node NodeUnreachablePodReason. */
export const NODE_UNREACHABLE_POD_REASON = 'NodeLost';

export interface PodStatusSummary {
  /** The STATUS column. */
  reason: string;
  readyContainers: number;
  totalContainers: number;
  restarts: number;
  /** ms since the epoch of the last restart counted in `restarts`, 0 when none. */
  lastRestart: number;
}

interface PodLike {
  metadata: { deletionTimestamp?: string };
  spec?: Any;
  status?: Any;
}

function isRestartableInit(c: Any): boolean {
  return c?.restartPolicy === 'Always';
}

function conditionTrue(st: Any, type: string): boolean {
  return (st.conditions ?? []).some((c: Any) => c.type === type && c.status === 'True');
}

function finishedAt(c: Any): number {
  const t = c.lastState?.terminated?.finishedAt;
  return t ? Date.parse(t) : 0;
}

export function podStatusSummary(pod: PodLike): PodStatusSummary {
  const spec: Any = pod.spec ?? {};
  const st: Any = pod.status ?? {};
  let restarts = 0;
  let restartableInitRestarts = 0;
  let total = (spec.containers ?? []).length;
  let ready = 0;
  let lastRestart = 0;
  let lastRestartableInitRestart = 0;
  const phase: string = st.phase ?? '';
  let reason: string = st.reason || phase;

  for (const c of st.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initSpecs: Any[] = spec.initContainers ?? [];
  const inits = new Map<string, Any>(initSpecs.map((c: Any) => [c.name, c]));
  for (const c of initSpecs) if (isRestartableInit(c)) total++;

  let initializing = false;
  const initStatuses: Any[] = st.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += c.restartCount ?? 0;
    lastRestart = Math.max(lastRestart, finishedAt(c));
    const restartable = isRestartableInit(inits.get(c.name));
    if (restartable) {
      restartableInitRestarts += c.restartCount ?? 0;
      lastRestartableInitRestart = Math.max(lastRestartableInitRestart, finishedAt(c));
    }
    const term = c.state?.terminated;
    if (term && term.exitCode === 0) continue;
    if (restartable && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (term) {
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(st, 'Initialized')) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const cs: Any[] = st.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      restarts += c.restartCount ?? 0;
      lastRestart = Math.max(lastRestart, finishedAt(c));
      const w = c.state?.waiting;
      const t = c.state?.terminated;
      if (w && w.reason) reason = w.reason;
      else if (t && t.reason) reason = t.reason;
      else if (t) reason = t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(st, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata.deletionTimestamp && st.reason === NODE_UNREACHABLE_POD_REASON) reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed')
    reason = 'Terminating';

  return { reason, readyContainers: ready, totalContainers: total, restarts, lastRestart };
}

/** Just the STATUS column. */
export function podStatusReason(pod: PodLike): string {
  return podStatusSummary(pod).reason;
}
