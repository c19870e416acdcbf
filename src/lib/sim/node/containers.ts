/**
 * Starting, stopping and exiting containers: what the kubelet asks of the runtime and what the
 * simulated process then does by itself (the workload model: crash, complete, OOM at its limit).
 */
import type { KubeObject } from '../api/types';
import { tryParseQuantity } from '../api/quantity';
import { fieldPath } from './images';
import type { Kubelet } from './kubelet';
import type { RuntimeImage } from './runtime';
import type { ContainerRec } from './state';
import { containerBehaviour, msUntilAbove } from './workload';

export interface PodContainerSpec {
  name: string;
  image: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { initialDelaySeconds?: number };
}

/** A few log lines per image family, so `kubectl logs` and `crictl logs` show something familiar. */
function startupLogs(image: string, name: string): string[] {
  if (image.includes('/nginx:')) {
    return [
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
      'nginx: [notice] using the "epoll" event method',
      'nginx: [notice] start worker processes'
    ];
  }
  if (image.includes('/redis:')) return ['# Server initialized', '* Ready to accept connections tcp'];
  if (image.includes('/postgres:')) return ['LOG:  database system is ready to accept connections'];
  return [`${name}: started`];
}

export function containerId(k: Kubelet, id: string): string {
  return `${k.host.state.runtime.name}://${id}`;
}

/** CreateContainer + StartContainer with events Created/Started, and schedule the process's own exit. */
export function startContainer(
  k: Kubelet,
  pod: KubeObject,
  spec: PodContainerSpec,
  c: ContainerRec,
  image: RuntimeImage,
  sandboxId: string
): void {
  const rt = k.runtime;
  const sb = rt.sandbox(sandboxId)!;
  if (c.containerId) c.restartCount++;
  const b = containerBehaviour(pod, spec);
  const ctr = rt.start(
    sb,
    { name: spec.name, image, attempt: c.restartCount },
    { memory: b.memory, disk: b.disk, cpuMilli: b.cpuMilli },
    startupLogs(`${image.repository}:${image.tag}`, spec.name)
  );
  c.containerId = ctr.id;
  c.waiting = undefined;
  c.imageReady = false;
  c.started = true;
  c.readyAt = k.now + b.readyAfterMs;
  const fp = fieldPath(c);
  k.cluster.recorder.event(pod, 'Normal', 'Created', `Created container: ${spec.name}`, k.source, k.ctx, fp);
  k.cluster.recorder.event(pod, 'Normal', 'Started', `Started container ${spec.name}`, k.source, k.ctx, fp);
  k.journal(
    'I',
    'kubelet.go:2576',
    `"SyncLoop (PLEG): event for pod" pod="${pod.metadata.namespace}/${pod.metadata.name}" event={"ID":"${pod.metadata.uid}","Type":"ContainerStarted","Data":"${ctr.id}"}`
  );
  const limitText = spec.resources?.limits?.memory;
  const limit = limitText ? tryParseQuantity(limitText) : undefined;
  const oomAt = limit !== undefined ? msUntilAbove(b.memory, Math.round(limit / 1000)) : undefined;
  if (oomAt !== undefined && (b.exitAfterMs === undefined || oomAt < b.exitAfterMs)) {
    k.cluster.engine.schedule(oomAt, k.id, 'ctr-exit', { id: ctr.id, code: 137, reason: 'OOMKilled' });
  } else if (b.exitAfterMs !== undefined) {
    k.cluster.engine.schedule(b.exitAfterMs, k.id, 'ctr-exit', {
      id: ctr.id,
      code: b.exitCode,
      reason: b.exitCode === 0 ? 'Completed' : 'Error'
    });
  }
}

/** SIGTERM: the process exits after its termination delay, or is killed when the grace period ends. */
export function stopContainer(k: Kubelet, pod: KubeObject, c: ContainerRec, graceMs: number): void {
  const rt = k.runtime;
  const ctr = rt.container(c.containerId);
  if (!ctr || ctr.state !== 'CONTAINER_RUNNING') return;
  const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find(
    (s: PodContainerSpec) => s.name === c.name
  ) as PodContainerSpec | undefined;
  const delay = spec ? containerBehaviour(pod, spec).terminationDelayMs : 0;
  k.journal(
    'I',
    'kuberuntime_container.go:808',
    `"Killing container with a grace period" pod="${pod.metadata.namespace}/${pod.metadata.name}" podUID="${pod.metadata.uid}" containerName="${c.name}" containerID="${containerId(k, ctr.id)}" gracePeriod=${Math.round(graceMs / 1000)}`
  );
  if (delay <= graceMs) {
    k.cluster.engine.schedule(delay, k.id, 'ctr-exit', { id: ctr.id, code: 0, reason: 'Completed' });
  } else {
    k.cluster.engine.schedule(graceMs, k.id, 'ctr-exit', { id: ctr.id, code: 137, reason: 'Error' });
  }
}

/** SIGKILL now (eviction, pod force-deleted). */
export function killNow(k: Kubelet, c: ContainerRec): void {
  const ctr = k.runtime.container(c.containerId);
  if (ctr && ctr.state === 'CONTAINER_RUNNING') k.runtime.exit(ctr.id, 137, 'Error');
}

/** The runtime reports a process exit (runs even while the kubelet is stopped). */
export function onContainerExit(k: Kubelet, id: string, code: number, reason: string): void {
  const ctr = k.runtime.exit(id, code, reason);
  if (!ctr) return;
  if (!k.syncing) return;
  const key = `${ctr.podNamespace}/${ctr.podName}`;
  if (k.state.pods[key]) k.enqueue(key);
}
