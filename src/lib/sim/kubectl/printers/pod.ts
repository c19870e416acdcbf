/** Pod and node columns of `kubectl get` (printers.go printPod / printNode). */
import type { KubeObject } from '../../api/types';
import { since } from '../timefmt';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

function isRestartableInit(c: Any): boolean {
  return c?.restartPolicy === 'Always';
}

/** The STATUS, READY and RESTARTS cells of a pod row (T8, T9). */
export function podStatusCells(
  pod: KubeObject,
  now: number
): { ready: string; status: string; restarts: string } {
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
  const inits = new Map<string, Any>((spec.initContainers ?? []).map((c: Any) => [c.name, c]));
  for (const c of spec.initContainers ?? []) if (isRestartableInit(c)) total++;

  let initializing = false;
  const initStatuses: Any[] = st.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += c.restartCount ?? 0;
    const lastTerm = c.lastState?.terminated?.finishedAt;
    if (lastTerm) lastRestart = Math.max(lastRestart, Date.parse(lastTerm));
    const restartable = isRestartableInit(inits.get(c.name));
    if (restartable) {
      restartableInitRestarts += c.restartCount ?? 0;
      if (lastTerm) lastRestartableInitRestart = Math.max(lastRestartableInitRestart, Date.parse(lastTerm));
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
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = (st.conditions ?? []).some(
    (c: Any) => c.type === 'Initialized' && c.status === 'True'
  );
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const cs: Any[] = st.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      restarts += c.restartCount ?? 0;
      const lastTerm = c.lastState?.terminated?.finishedAt;
      if (lastTerm) lastRestart = Math.max(lastRestart, Date.parse(lastTerm));
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
    if (reason === 'Completed' && hasRunning) {
      const podReady = (st.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed')
    reason = 'Terminating';

  const restartsCell =
    restarts !== 0 && lastRestart > 0
      ? `${restarts} (${since(new Date(lastRestart).toISOString(), now)} ago)`
      : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsCell };
}

export function podRow(pod: KubeObject, now: number, wide: boolean): string[] {
  const c = podStatusCells(pod, now);
  const row = [pod.metadata.name, c.ready, c.status, c.restarts, since(pod.metadata.creationTimestamp, now)];
  if (wide) {
    const st: Any = pod.status ?? {};
    const spec: Any = pod.spec ?? {};
    let gates = '<none>';
    if (spec.readinessGates?.length) {
      const trueCount = spec.readinessGates.filter((g: Any) =>
        (st.conditions ?? []).some((c: Any) => c.type === g.conditionType && c.status === 'True')
      ).length;
      gates = `${trueCount}/${spec.readinessGates.length}`;
    }
    row.push(
      st.podIPs?.[0]?.ip || '<none>',
      spec.nodeName || '<none>',
      st.nominatedNodeName || '<none>',
      gates
    );
  }
  return row;
}

/** T6: only Ready is consulted; False and Unknown both print NotReady. */
export function nodeStatus(node: KubeObject): string {
  const readyCond = (node.status?.conditions ?? []).find((c: Any) => c.type === 'Ready');
  let s = !readyCond ? 'Unknown' : readyCond.status === 'True' ? 'Ready' : 'NotReady';
  if (node.spec?.unschedulable) s += ',SchedulingDisabled';
  return s;
}

/** T7: node-role.kubernetes.io/<role> keys and the kubernetes.io/role value, sorted. */
export function nodeRoles(node: KubeObject): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return [...roles].sort();
}

export function nodeRow(node: KubeObject, now: number, wide: boolean): string[] {
  const roles = nodeRoles(node);
  const info: Any = node.status?.nodeInfo ?? {};
  const row = [
    node.metadata.name,
    nodeStatus(node),
    roles.length ? roles.join(',') : '<none>',
    since(node.metadata.creationTimestamp, now),
    info.kubeletVersion ?? ''
  ];
  if (wide) {
    const addr = (t: string) =>
      (node.status?.addresses ?? []).find((a: Any) => a.type === t)?.address || '<none>';
    row.push(
      addr('InternalIP'),
      addr('ExternalIP'),
      info.osImage || '<unknown>',
      info.kernelVersion || '<unknown>',
      info.containerRuntimeVersion || '<unknown>'
    );
  }
  return row;
}
