/** Pod and node columns of `kubectl get` (printers.go printPod / printNode). */
import type { KubeObject } from '../../api/types';
import { since } from '../timefmt';
import { podStatusSummary } from '../../api/corev1/podstatus';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

/** The STATUS, READY and RESTARTS cells of a pod row (T8, T9), from api/corev1/podstatus.ts. */
export function podStatusCells(
  pod: KubeObject,
  now: number
): { ready: string; status: string; restarts: string } {
  const s = podStatusSummary(pod);
  const restartsCell =
    s.restarts !== 0 && s.lastRestart > 0
      ? `${s.restarts} (${since(new Date(s.lastRestart).toISOString(), now)} ago)`
      : String(s.restarts);
  return { ready: `${s.readyContainers}/${s.totalContainers}`, status: s.reason, restarts: restartsCell };
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
