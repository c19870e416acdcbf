/**
 * The kubelet's pod worker: for each pod bound to the node, admission, the network check, the
 * sandbox (with an IP from node.spec.podCIDR), init containers in order, regular containers with
 * image pulls and CrashLoopBackOff, graceful termination and the final delete with grace 0.
 */
import {
  shutdownAdmit,
  SHUTDOWN_MESSAGE,
  SHUTDOWN_NOT_ADMITTED_REASON,
  SHUTDOWN_REASON
} from './nodeshutdown';
import { deviceManagerTick } from './devicemanager';
import type { KubeObject } from '../api/types';
import { backoffNext, inBackOffSince } from './backoff';
import { killNow, startContainer, stopContainer, type PodContainerSpec } from './containers';
import { ensureImage, fieldPath, type ContainerSpec } from './images';
import type { Kubelet } from './kubelet';
import { clientErr, errText } from './klog';
import { allocateIP, releaseIP } from './ipam';
import { qosClass, terminatedOf, writeStatus } from './podstatus';
import type { ContainerRec, PodRec } from './state';
import { admitPod, podsChanged } from './eviction';
import { resolveImage } from './registry';

/** containerd 2.1 and CRI-O 1.3x default sandbox image. */
const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
/** pod_workers backOffPeriod: a pod whose sync failed is retried after 10s. */
const SYNC_ERROR_RETRY_MS = 10_000;

type Spec = PodContainerSpec & ContainerSpec;

function newRec(k: Kubelet, pod: KubeObject, key: string): PodRec {
  const containers: ContainerRec[] = [
    ...((pod.spec?.initContainers ?? []) as Spec[]).map((c) => ({
      name: c.name,
      init: true,
      restartCount: 0
    })),
    ...((pod.spec?.containers ?? []) as Spec[]).map((c) => ({ name: c.name, init: false, restartCount: 0 }))
  ];
  k.journal('I', 'kubelet.go:2461', `"SyncLoop ADD" source="api" pods=["${key}"]`);
  return {
    key,
    uid: pod.metadata.uid!,
    name: pod.metadata.name,
    namespace: pod.metadata.namespace!,
    containers,
    condTimes: {}
  };
}

/** Forget a pod: its containers and sandbox go, its IP returns to the pool. */
function cleanup(k: Kubelet, rec: PodRec): void {
  for (const c of rec.containers) killNow(k, c);
  k.runtime.removePod(rec.uid);
  releaseIP(k, rec);
  delete k.state.pods[rec.key];
  podsChanged(k);
}

export function syncPod(k: Kubelet, key: string): void {
  const [ns, name] = key.split('/');
  let pod = k.cluster.api.tryGet<KubeObject>('Pod', ns, name);
  if (pod && pod.spec?.nodeName !== k.name) pod = undefined;
  // A mirror pod is the API's copy of a static pod the kubelet runs from its manifest directory
  // (etcd/staticpods.ts): nothing for the pod worker to start.
  if (pod?.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
  let rec = k.state.pods[key];
  if (rec && (!pod || pod.metadata.uid !== rec.uid)) {
    if (k.host.state.runtime.running) cleanup(k, rec);
    rec = undefined as unknown as PodRec;
  }
  if (!pod) return;
  if (!rec) {
    const phase = pod.status?.phase;
    if ((phase === 'Succeeded' || phase === 'Failed') && !pod.metadata.deletionTimestamp) return;
    rec = k.state.pods[key] = newRec(k, pod, key);
    podsChanged(k);
    const shuttingDown = rec.terminal ? undefined : shutdownAdmit(k);
    const reject = rec.terminal || shuttingDown ? undefined : admitPod(k, pod);
    if (shuttingDown) {
      rec.terminal = { phase: 'Failed', reason: SHUTDOWN_NOT_ADMITTED_REASON, message: shuttingDown };
    } else if (reject) {
      rec.terminal = { phase: 'Failed', reason: 'Evicted', message: reject };
      k.cluster.recorder.event(pod, 'Warning', 'Evicted', reject, k.source, k.ctx);
    } else {
      rec.startTime = k.now;
    }
  }
  if (!k.host.state.runtime.running) {
    k.journal(
      'E',
      'pod_workers.go:1301',
      `"Error syncing pod, skipping" err="${errText(new Error(k.runtime.unavailable()))}" pod="${key}" podUID="${rec.uid}"`
    );
    k.wake(key, k.now + SYNC_ERROR_RETRY_MS);
    return;
  }
  if (rec.terminal) return finishTerminal(k, pod, rec);
  if (rec.shutdownKill) return shutdownKill(k, pod, rec);
  if (pod.metadata.deletionTimestamp) return terminate(k, pod, rec);

  const hostNetwork = !!pod.spec?.hostNetwork;
  if (!hostNetwork && k.state.networkError) {
    const msg = `network is not ready: ${k.state.networkError}`;
    k.cluster.recorder.event(pod, 'Warning', 'NetworkNotReady', msg, k.source, k.ctx);
    k.journal(
      'E',
      'pod_workers.go:1301',
      `"Error syncing pod, skipping" err="${msg}" pod="${key}" podUID="${rec.uid}"`
    );
    writeStatus(k, pod, rec, false);
    k.wake(key, k.now + SYNC_ERROR_RETRY_MS);
    return;
  }
  const rt = k.runtime;
  if (!rt.sandbox(rec.sandboxId)) {
    try {
      rec.ip = hostNetwork ? k.args.internalIP : (rec.ip ?? allocateIP(k, rec));
    } catch (e) {
      const msg = `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type="host-local" failed (add): ${errText(e)}`;
      k.cluster.recorder.event(pod, 'Warning', 'FailedCreatePodSandBox', msg, k.source, k.ctx);
      k.wake(key, k.now + SYNC_ERROR_RETRY_MS);
      return;
    }
    // The runtime pulls its sandbox (pause) image itself, without kubelet events.
    if (!rt.findImage(PAUSE_IMAGE)) {
      const pause = resolveImage(k.cluster, PAUSE_IMAGE);
      rt.addImage(PAUSE_IMAGE, pause.ok ? pause.image.sizeBytes : 320_000);
    }
    const sb = rt.runSandbox({ name: rec.name, namespace: rec.namespace, uid: rec.uid }, rec.ip);
    rec.sandboxId = sb.id;
  }

  const wakes: number[] = [];
  const specs = {
    init: (pod.spec?.initContainers ?? []) as Spec[],
    main: (pod.spec?.containers ?? []) as Spec[]
  };
  const recOf = (n: string, init: boolean) => rec.containers.find((c) => c.name === n && c.init === init)!;
  let initDone = true;
  for (const spec of specs.init) {
    const c = recOf(spec.name, true);
    if (c.terminated?.exitCode !== 0) stepContainer(k, pod, rec, spec, c, wakes);
    if (c.terminated?.exitCode === 0) continue;
    initDone = false;
    break;
  }
  if (initDone) {
    for (const spec of specs.main) stepContainer(k, pod, rec, spec, recOf(spec.name, false), wakes);
  }
  settlePhase(k, pod, rec, initDone);
  writeStatus(k, pod, rec, initDone);
  if (rec.terminal) return finishTerminal(k, pod, rec);
  const next = wakes.filter((t) => t > k.now).sort((a, b) => a - b)[0] ?? wakes.find((t) => t <= k.now);
  if (next !== undefined) k.wake(key, Math.max(next, k.now));
}

/** Advance one container: keep it running, restart it per policy and back-off, or start it. */
function stepContainer(
  k: Kubelet,
  pod: KubeObject,
  rec: PodRec,
  spec: Spec,
  c: ContainerRec,
  wakes: number[]
): void {
  const rt = k.runtime;
  const ctr = rt.container(c.containerId);
  if (ctr?.state === 'CONTAINER_RUNNING') {
    if (c.readyAt !== undefined && k.now < c.readyAt) wakes.push(c.readyAt);
    return;
  }
  if (c.terminated) return;
  if (ctr?.state === 'CONTAINER_EXITED') {
    const t = terminatedOf(ctr);
    const policy = pod.spec?.restartPolicy ?? 'Always';
    const restart = c.init
      ? t.exitCode !== 0 && policy !== 'Never'
      : policy === 'Always' || (policy === 'OnFailure' && t.exitCode !== 0);
    if (!restart) {
      c.terminated = t;
      c.waiting = undefined;
      return;
    }
    c.last = t;
    const bkey = `${pod.metadata.name}_${pod.metadata.namespace}_${pod.metadata.uid}_${c.name}`;
    const p = { initial: k.cfg.containerBackOffInitial, max: k.cfg.containerBackOffMax };
    const inBackoff = inBackOffSince(k.state.backoff, bkey, t.finishedAt, k.now, p);
    if (inBackoff) {
      const podDesc = `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
      c.waiting = {
        reason: 'CrashLoopBackOff',
        message: `back-off ${formatBackoff(inBackoff.backoff)} restarting failed container=${c.name} pod=${podDesc}`
      };
      k.cluster.recorder.event(
        pod,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${c.name} in pod ${podDesc}`,
        k.source,
        k.ctx,
        fieldPath(c)
      );
      wakes.push(t.finishedAt + inBackoff.backoff);
      return;
    }
    backoffNext(k.state.backoff, bkey, t.finishedAt, k.now, p);
  }
  const res = ensureImage(k, pod, spec, c);
  if ('image' in res) {
    startContainer(k, pod, spec, c, res.image, rec.sandboxId!);
    if (c.readyAt !== undefined && c.readyAt > k.now) wakes.push(c.readyAt);
  } else if (res.wakeAt !== undefined) {
    wakes.push(res.wakeAt);
  }
}

/** Go's Duration.String for whole seconds, as the CrashLoopBackOff message prints it (10s, 5m0s). */
function formatBackoff(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

/** A pod whose containers all finished under restartPolicy Never/OnFailure becomes terminal. */
function settlePhase(k: Kubelet, pod: KubeObject, rec: PodRec, initDone: boolean): void {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  const initFailed = rec.containers.some((c) => c.init && c.terminated && c.terminated.exitCode !== 0);
  if (initFailed) {
    rec.terminal = { phase: 'Failed' };
    return;
  }
  if (!initDone || policy === 'Always') return;
  const main = rec.containers.filter((c) => !c.init);
  if (!main.every((c) => c.terminated)) return;
  rec.terminal = { phase: main.every((c) => c.terminated!.exitCode === 0) ? 'Succeeded' : 'Failed' };
}

/** Graceful termination: SIGTERM every container, wait for them (up to the grace period), then delete. */
/**
 * killPod with a grace period: on the first call SIGTERM every running container (a Killing event
 * each), at the deadline SIGKILL what is left. True once every container has stopped (their
 * terminated states filled in); otherwise the pod is woken again at the deadline.
 */
function stopWithGrace(
  k: Kubelet,
  pod: KubeObject,
  rec: PodRec,
  graceMs: number,
  deadline: number,
  begin: boolean
): boolean {
  if (begin) {
    for (const c of rec.containers) {
      const ctr = k.runtime.container(c.containerId);
      if (ctr?.state !== 'CONTAINER_RUNNING') continue;
      k.cluster.recorder.event(
        pod,
        'Normal',
        'Killing',
        `Stopping container ${c.name}`,
        k.source,
        k.ctx,
        fieldPath(c)
      );
      stopContainer(k, pod, c, graceMs);
    }
  }
  if (k.now >= deadline) for (const c of rec.containers) killNow(k, c);
  if (rec.containers.some((c) => k.runtime.container(c.containerId)?.state === 'CONTAINER_RUNNING')) {
    k.wake(rec.key, deadline);
    return false;
  }
  for (const c of rec.containers) {
    const ctr = k.runtime.container(c.containerId);
    if (ctr && !c.terminated) c.terminated = terminatedOf(ctr);
    c.waiting = undefined;
  }
  return true;
}

function terminate(k: Kubelet, pod: KubeObject, rec: PodRec): void {
  const graceS = pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
  const begin = !rec.terminating;
  if (!rec.terminating) rec.terminating = { since: k.now, deadline: k.now + graceS * 1000 };
  if (!stopWithGrace(k, pod, rec, graceS * 1000, rec.terminating.deadline, begin)) return;
  const failed = rec.containers.some((c) => !c.init && (c.terminated?.exitCode ?? 0) !== 0);
  rec.terminal = { phase: failed ? 'Failed' : 'Succeeded' };
  finishTerminal(k, pod, rec);
}

/**
 * The shutdown manager's killPod: SIGTERM with the group's grace period, then Failed with reason
 * Terminated and the DisruptionTarget condition (nodeshutdown_manager.go).
 */
function shutdownKill(k: Kubelet, pod: KubeObject, rec: PodRec): void {
  const sk = rec.shutdownKill!;
  const begin = !sk.started;
  sk.started = true;
  if (!stopWithGrace(k, pod, rec, sk.graceMs, sk.deadline, begin)) return;
  rec.terminal = { phase: 'Failed', reason: SHUTDOWN_REASON, message: SHUTDOWN_MESSAGE, disruption: true };
  finishTerminal(k, pod, rec);
}

/** A terminal pod: containers stopped, sandbox down; deleted for good once it carries a deletionTimestamp. */
function finishTerminal(k: Kubelet, pod: KubeObject, rec: PodRec): void {
  for (const c of rec.containers) {
    killNow(k, c);
    const ctr = k.runtime.container(c.containerId);
    if (ctr && !c.terminated) c.terminated = terminatedOf(ctr);
    if (c.terminated) c.waiting = undefined;
  }
  if (rec.sandboxId) k.runtime.stopSandbox(rec.sandboxId);
  if (!writeStatus(k, pod, rec, true)) {
    k.wake(rec.key, k.now + SYNC_ERROR_RETRY_MS);
    return;
  }
  if (!pod.metadata.deletionTimestamp) return;
  try {
    k.cluster.api.delete('Pod', rec.namespace, rec.name, { gracePeriodSeconds: 0, uid: rec.uid }, k.ctx);
    k.journal('I', 'status_manager.go:1096', `"Pod fully terminated and removed from etcd" pod="${rec.key}"`);
    cleanup(k, rec);
  } catch (e) {
    k.journal(
      'E',
      'status_manager.go:1091',
      `"Failed to delete status for pod" pod="${rec.key}" err="${clientErr(e, 'Delete', `/api/v1/namespaces/${rec.namespace}/pods/${rec.name}`)}"`
    );
    k.wake(rec.key, k.now + SYNC_ERROR_RETRY_MS);
  }
}

/**
 * Every housekeeping period, after missed watch events or a failed write: pods on the node the
 * kubelet has not seen, records whose pod is gone or whose last status write failed. Nothing
 * happens while the API is unreachable.
 */
export function housekeeping(k: Kubelet): void {
  const s = k.state;
  if (k.host.state.runtime.running) s.lastRelist = k.now;
  deviceManagerTick(k);
  if (!s.relist || !k.syncing || !k.apiReachable()) return;
  s.relist = false;
  const seen = new Set<string>();
  for (const p of k.cluster.api.podsOnNode<KubeObject>(k.name)) {
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    seen.add(key);
    const rec = s.pods[key];
    const phase = p.status?.phase;
    const settled = (phase === 'Succeeded' || phase === 'Failed') && !p.metadata.deletionTimestamp;
    if ((!rec && !settled) || (rec && (rec.uid !== p.metadata.uid || rec.posted === undefined)))
      k.enqueue(key);
    else if (rec && p.metadata.deletionTimestamp && !rec.terminating) k.enqueue(key);
  }
  for (const key of Object.keys(s.pods)) if (!seen.has(key)) k.enqueue(key);
}

export { qosClass };
