/**
 * Graceful node shutdown (pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go). With
 * shutdownGracePeriod > 0 the kubelet holds a systemd inhibitor lock; when logind announces the
 * shutdown (PrepareForShutdown) it records the `Shutdown` event, reports Ready=False "node is
 * shutting down", rejects new pods, and kills the pods in two groups: regular pods within
 * shutdownGracePeriod − shutdownGracePeriodCriticalPods, then critical pods within
 * shutdownGracePeriodCriticalPods. Killed pods end Failed, reason `Terminated`, with a
 * DisruptionTarget condition (reason TerminationByKubelet). Then the machine powers off.
 * With shutdownGracePeriod 0 (the default) there is no lock: the machine goes down at once and
 * the pods' status stays as it was, for the control plane to find out about later.
 */
import type { KubeObject } from '../api/types';
import { parseDuration } from '../engine/duration';
import type { Kubelet } from './kubelet';
import { syncNodeStatus } from './nodestatus';

export const SHUTDOWN_REASON = 'Terminated';
export const SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.';
export const SHUTDOWN_NOT_ADMITTED_REASON = 'NodeShutdown';
export const SHUTDOWN_NOT_ADMITTED_MESSAGE = 'Pod was rejected as the node is shutting down.';
export const SHUTTING_DOWN = 'node is shutting down';
/** scheduling.SystemCriticalPriority: pods at or above it are critical (kubelettypes.IsCriticalPod). */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

export function shutdownPeriods(k: Kubelet): { total: number; critical: number } {
  const total = k.args.shutdownGracePeriod ? parseDuration(k.args.shutdownGracePeriod) : 0;
  const critical = k.args.shutdownGracePeriodCriticalPods
    ? parseDuration(k.args.shutdownGracePeriodCriticalPods)
    : 0;
  return { total, critical: Math.min(critical, total) };
}

export function isCriticalPod(pod: KubeObject): boolean {
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) return true;
  return (pod.spec?.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY;
}

/** The machine goes down: every process dies, the kubelet with it. */
export function powerOff(k: Kubelet): void {
  for (const rec of Object.values(k.state.pods)) {
    for (const c of rec.containers) {
      const ctr = k.runtime.container(c.containerId);
      if (ctr && ctr.state === 'CONTAINER_RUNNING') k.runtime.exit(ctr.id, 137, 'Error');
    }
  }
  k.stopService();
  k.runtime.stopService();
  k.state.shutdown = undefined;
  k.host.state.poweredOff = true;
}

/** logind's PrepareForShutdown(true): the kubelet's shutdown manager takes over, or the machine just stops. */
export function shutdownNode(k: Kubelet): void {
  if (k.host.state.poweredOff) return;
  const { total, critical } = shutdownPeriods(k);
  if (!k.running || total <= 0) {
    powerOff(k);
    return;
  }
  if (k.state.shutdown) return;
  k.state.shutdown = { since: k.now, criticalAt: k.now + total - critical, offAt: k.now + total };
  k.nodeEvent('Normal', 'Shutdown', 'Shutdown manager detected shutdown event');
  k.journal(
    'I',
    'nodeshutdown_manager_linux.go:265',
    `"Shutdown manager detected new shutdown event" event="shutdown"`
  );
  syncNodeStatus(k);
  k.journal('I', 'nodeshutdown_manager_linux.go:339', `"Shutdown manager processing shutdown event"`);
  killGroup(k, false, total - critical);
  k.schedule(total - critical, 'shutdown-critical');
  k.schedule(total, 'poweroff');
}

/** Kill the pods of one group, each within min(its terminationGracePeriodSeconds, the group's period). */
function killGroup(k: Kubelet, critical: boolean, periodMs: number): void {
  for (const rec of Object.values(k.state.pods)) {
    if (rec.terminal || rec.shutdownKill) continue;
    const pod = k.cluster.api.tryGet<KubeObject>('Pod', rec.namespace, rec.name);
    if (!pod || isCriticalPod(pod) !== critical) continue;
    const podGrace = (pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
    const grace = Math.min(podGrace, periodMs);
    k.journal(
      'I',
      'nodeshutdown_manager.go:405',
      `"Shutdown manager killing pod with gracePeriod" pod="${rec.key}" gracePeriod=${Math.round(grace / 1000)}`
    );
    rec.shutdownKill = { deadline: k.now + grace, graceMs: grace };
    k.enqueue(rec.key);
  }
}

export function shutdownCriticalPhase(k: Kubelet): void {
  const s = k.state.shutdown;
  if (!s) return;
  killGroup(k, true, s.offAt - k.now);
}

/** Pods the kubelet refuses while the node shuts down (nodeshutdown Admit). */
export function shutdownAdmit(k: Kubelet): string | undefined {
  return k.state.shutdown ? SHUTDOWN_NOT_ADMITTED_MESSAGE : undefined;
}

/** Power the machine on again: a new boot, the runtime and the kubelet start. */
export function powerOn(k: Kubelet): void {
  if (!k.host.state.poweredOff) return;
  k.host.state.poweredOff = false;
  k.runtime.startService();
  k.host.state.ids = { ...k.host.state.ids, bootID: k.cluster.engine.random.uid() };
  k.startService();
}
