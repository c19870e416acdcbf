/**
 * The pod status the kubelet's status manager writes: phase (getPhase), conditions, container
 * statuses with waiting/running/terminated states, IPs, startTime and QoS class. Written through the
 * status subresource only when it changed.
 */
import type { KubeObject } from '../api/types';
import { tryParseQuantity } from '../api/quantity';
import { containerId } from './containers';
import type { Kubelet } from './kubelet';
import { clientErr } from './klog';
import type { RuntimeContainer } from './runtime';
import type { ContainerRec, PodRec, TerminatedRec } from './state';
import { fingerprint } from './digest';
import { containerEventOf, containerMachine } from '../machines/container';
import { initialRecord, stepRecord } from '../machines/record';

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

interface SpecLike {
  name: string;
  image: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export function qosClass(pod: KubeObject): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const all: SpecLike[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      const l = lim[r] ? tryParseQuantity(lim[r]) : undefined;
      const q = (req[r] ? tryParseQuantity(req[r]) : undefined) ?? l;
      if ((q ?? 0) > 0 || (l ?? 0) > 0) any = true;
      if (l === undefined || q !== l) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function ts(k: Kubelet, ms: number): string {
  return k.cluster.api.timestamp(ms - k.now);
}

function terminatedState(k: Kubelet, t: TerminatedRec) {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      ...(t.message ? { message: t.message } : {}),
      startedAt: ts(k, t.startedAt),
      finishedAt: ts(k, t.finishedAt),
      containerID: containerId(k, t.containerId)
    }
  };
}

export function terminatedOf(ctr: RuntimeContainer): TerminatedRec {
  return {
    exitCode: ctr.exitCode ?? 0,
    reason: ctr.reason ?? 'Error',
    startedAt: ctr.startedAt ?? ctr.createdAt,
    finishedAt: ctr.finishedAt ?? ctr.createdAt,
    containerId: ctr.id
  };
}

function containerStatus(k: Kubelet, spec: SpecLike, c: ContainerRec, terminal: boolean) {
  const ctr = k.runtime.container(c.containerId);
  let state: Record<string, unknown>;
  let ready = false;
  if (ctr && ctr.state === 'CONTAINER_RUNNING' && !c.waiting) {
    state = { running: { startedAt: ts(k, ctr.startedAt!) } };
    ready = !terminal && c.readyAt !== undefined && k.now >= c.readyAt;
  } else if (c.terminated) {
    state = terminatedState(k, c.terminated);
  } else if (c.waiting) {
    state = {
      waiting: { reason: c.waiting.reason, ...(c.waiting.message ? { message: c.waiting.message } : {}) }
    };
  } else if (ctr && ctr.state === 'CONTAINER_EXITED') {
    state = terminatedState(k, terminatedOf(ctr));
  } else {
    state = { waiting: { reason: c.init ? 'PodInitializing' : 'ContainerCreating' } };
  }
  if (!c.init) stepContainerMachine(k, c, state, c.last?.reason);
  const img = ctr ? k.host.state.runtime.images.find((i) => i.id === ctr.imageId) : undefined;
  return {
    name: spec.name,
    state,
    lastState: c.last ? terminatedState(k, c.last) : {},
    ready,
    restartCount: c.restartCount,
    image: ctr ? ctr.image : spec.image,
    imageID: img ? `${img.repository}@${img.digest}` : '',
    ...(ctr ? { containerID: containerId(k, ctr.id) } : {}),
    started: !!ctr && ctr.state === 'CONTAINER_RUNNING' && !c.waiting
  };
}

/** The state this status reports moves the container's machine (when it is a new state). */
function stepContainerMachine(
  k: Kubelet,
  c: ContainerRec,
  state: Record<string, unknown>,
  lastReason: string | undefined
): void {
  const next = containerEventOf(state);
  const rec = (c.machine ??= initialRecord(containerMachine, k.now));
  if (!next || next.value === rec.value) return;
  // A back-off names the exit it follows (lastState.terminated.reason).
  const detail = next.event.type === 'CRASH_BACK_OFF' ? lastReason : undefined;
  c.machine = stepRecord(containerMachine, rec, next.event, k.now, detail).record;
}

/** getPhase (pkg/kubelet/kubelet_pods.go), simplified to the states this model produces. */
export function podPhase(k: Kubelet, pod: KubeObject, rec: PodRec, initDone: boolean): Phase {
  if (rec.terminal) return rec.terminal.phase;
  if (!initDone) return 'Pending';
  const policy = pod.spec?.restartPolicy ?? 'Always';
  let running = 0;
  let waiting = 0;
  let failed = 0;
  for (const c of rec.containers.filter((x) => !x.init)) {
    const ctr = k.runtime.container(c.containerId);
    if (ctr?.state === 'CONTAINER_RUNNING' && !c.waiting) running++;
    else if (c.terminated) failed += c.terminated.exitCode === 0 ? 0 : 1;
    else if (c.waiting && c.last) running++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (policy === 'Always') return 'Running';
  if (failed > 0 && policy === 'Never') return 'Failed';
  if (failed > 0) return 'Running';
  return 'Succeeded';
}

function condition(
  rec: PodRec,
  k: Kubelet,
  type: string,
  status: boolean,
  reason?: string,
  message?: string
) {
  const s = status ? 'True' : 'False';
  const prev = rec.condTimes[type];
  // Replaced, not changed, on a transition: snapshots share the unchanged times.
  if (!prev || prev[0] !== s)
    rec.condTimes = Object.freeze({
      ...rec.condTimes,
      [type]: Object.freeze([s, k.now])
    }) as PodRec['condTimes'];
  return {
    type,
    status: s,
    lastProbeTime: null,
    lastTransitionTime: ts(k, rec.condTimes[type][1]),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {})
  };
}

export function buildStatus(k: Kubelet, pod: KubeObject, rec: PodRec, initDone: boolean) {
  const phase = podPhase(k, pod, rec, initDone);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const specs: SpecLike[] = pod.spec?.containers ?? [];
  const initSpecs: SpecLike[] = pod.spec?.initContainers ?? [];
  const recOf = (name: string, init: boolean) =>
    rec.containers.find((c) => c.name === name && c.init === init)!;
  const statuses = specs.map((s) => containerStatus(k, s, recOf(s.name, false), terminal));
  const initStatuses = initSpecs.map((s) => containerStatus(k, s, recOf(s.name, true), terminal));
  const unready = statuses.filter((s) => !s.ready).map((s) => s.name);
  const incomplete = initSpecs
    .filter((s) => recOf(s.name, true).terminated?.exitCode !== 0)
    .map((s) => s.name);
  const sandboxReady = k.runtime.sandbox(rec.sandboxId)?.state === 'SANDBOX_READY';
  const readyReason = terminal
    ? phase === 'Succeeded'
      ? 'PodCompleted'
      : 'PodFailed'
    : 'ContainersNotReady';
  const readyMsg = terminal ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const scheduled = ((pod.status?.conditions ?? []) as { type: string }[]).filter(
    (c) => c.type === 'PodScheduled'
  );
  const conditions = [
    ...(rec.terminal?.disruption
      ? [condition(rec, k, 'DisruptionTarget', true, 'TerminationByKubelet', rec.terminal.message)]
      : []),
    condition(rec, k, 'PodReadyToStartContainers', sandboxReady),
    initDone || incomplete.length === 0
      ? condition(rec, k, 'Initialized', true)
      : condition(
          rec,
          k,
          'Initialized',
          false,
          'ContainersNotInitialized',
          `containers with incomplete status: [${incomplete.join(' ')}]`
        ),
    unready.length === 0 && !terminal
      ? condition(rec, k, 'Ready', true)
      : condition(rec, k, 'Ready', false, readyReason, readyMsg),
    unready.length === 0 && !terminal
      ? condition(rec, k, 'ContainersReady', true)
      : condition(rec, k, 'ContainersReady', false, readyReason, readyMsg),
    ...scheduled
  ];
  const hostIP = k.args.internalIP;
  return {
    phase,
    ...(rec.terminal?.reason ? { reason: rec.terminal.reason } : {}),
    ...(rec.terminal?.message ? { message: rec.terminal.message } : {}),
    conditions,
    hostIP,
    hostIPs: [{ ip: hostIP }],
    ...(rec.ip ? { podIP: rec.ip, podIPs: [{ ip: rec.ip }] } : {}),
    ...(rec.startTime !== undefined ? { startTime: ts(k, rec.startTime) } : {}),
    ...(initStatuses.length ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: statuses,
    qosClass: qosClass(pod)
  };
}

/** Write the status if it changed since the last successful write. Returns false on API errors. */
export function writeStatus(k: Kubelet, pod: KubeObject, rec: PodRec, initDone: boolean): boolean {
  const status = buildStatus(k, pod, rec, initDone);
  const json = fingerprint(JSON.stringify(status));
  if (json === rec.posted) return true;
  try {
    const cur = k.cluster.api.get<KubeObject>('Pod', rec.namespace, rec.name);
    if (cur.metadata.uid !== rec.uid) return true;
    // The status subresource keeps the stored spec and metadata: the stored version with the new
    // status is the request, and the status, built for this write, is handed over.
    k.cluster.api.update({ ...cur, status }, k.ctx, { subresource: 'status', handOver: true });
    rec.posted = json;
    return true;
  } catch (e) {
    rec.posted = undefined;
    k.requestRelist();
    k.journal(
      'E',
      'status_manager.go:919',
      `"Failed to update status for pod" pod="${rec.namespace}/${rec.name}" err="${clientErr(e, 'Get', `/api/v1/namespaces/${rec.namespace}/pods/${rec.name}`)}"`
    );
    return false;
  }
}
