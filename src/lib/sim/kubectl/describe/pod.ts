/** `kubectl describe pod` (describe.go describePod, D7). */
import type { KubeObject } from '../../api/types';
import { eventsFor, nowEpoch, type KubectlContext } from '../context';
import { rfc1123z, since } from '../timefmt';
import {
  PrefixWriter,
  annotationsMultiline,
  controlledBy,
  describeEvents,
  labelsMultiline,
  tolerationsMultiline
} from './writer';
import { podRequestsAndLimits } from './resources';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export function describePod(ctx: KubectlContext, pod: KubeObject): string {
  const now = nowEpoch(ctx);
  const w = new PrefixWriter();
  const spec: Any = pod.spec ?? {};
  const st: Any = pod.status ?? {};
  w.write(0, `Name:\t${pod.metadata.name}\n`);
  w.write(0, `Namespace:\t${pod.metadata.namespace}\n`);
  if (spec.priority !== undefined) w.write(0, `Priority:\t${spec.priority}\n`);
  if (spec.priorityClassName) w.write(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec.runtimeClassName) w.write(0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec.serviceAccountName) w.write(0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(0, `Node:\t${spec.nodeName ? `${spec.nodeName}/${st.hostIP ?? ''}` : '<none>'}\n`);
  if (st.startTime) w.write(0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
  labelsMultiline(w, 'Labels', pod.metadata.labels);
  annotationsMultiline(w, 'Annotations', pod.metadata.annotations);
  if (pod.metadata.deletionTimestamp && st.phase !== 'Failed' && st.phase !== 'Succeeded') {
    w.write(0, `Status:\tTerminating (lasts ${since(pod.metadata.deletionTimestamp, now)})\n`);
    w.write(0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
  } else {
    w.write(0, `Status:\t${st.phase ?? ''}\n`);
  }
  if (st.reason) w.write(0, `Reason:\t${st.reason}\n`);
  if (st.message) w.write(0, `Message:\t${st.message}\n`);
  w.write(0, `IP:\t${st.podIP ?? ''}\n`);
  if (!st.podIPs?.length) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of st.podIPs) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const owner = controlledBy(pod);
  if (owner) w.write(0, `Controlled By:\t${owner}\n`);
  if (st.nominatedNodeName) w.write(0, `NominatedNodeName:\t${st.nominatedNodeName}\n`);
  if (spec.initContainers?.length) {
    describeContainers(w, 'Init Containers', spec.initContainers, st.initContainerStatuses ?? []);
  }
  describeContainers(w, 'Containers', spec.containers ?? [], st.containerStatuses ?? []);
  if (st.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of st.conditions) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, spec.volumes ?? []);
  w.write(0, `QoS Class:\t${st.qosClass || qosClass(pod)}\n`);
  labelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
  tolerationsMultiline(w, 'Tolerations', spec.tolerations);
  describeEvents(w, eventsFor(ctx, pod), now);
  return w.toString();
}

function describeContainers(w: PrefixWriter, label: string, containers: Any[], statuses: Any[]): void {
  const byName = new Map(statuses.map((s) => [s.name, s]));
  w.write(0, `${label}:\n`);
  for (const c of containers) {
    const s = byName.get(c.name);
    w.write(1, `${c.name}:\n`);
    if (s) w.write(2, `Container ID:\t${s.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image}\n`);
    if (s) w.write(2, `Image ID:\t${s.imageID ?? ''}\n`);
    const ports: Any[] = c.ports ?? [];
    const portStr = ports.map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
    const hostStr = ports.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    w.write(2, ports.length > 1 ? `Ports:\t${portStr}\n` : `Port:\t${portStr || '<none>'}\n`);
    w.write(2, ports.length > 1 ? `Host Ports:\t${hostStr}\n` : `Host Port:\t${hostStr || '<none>'}\n`);
    if (c.command?.length) {
      w.write(2, 'Command:\n');
      for (const a of c.command) w.write(3, `${a}\n`);
    }
    if (c.args?.length) {
      w.write(2, 'Args:\n');
      for (const a of c.args) w.write(3, `${a}\n`);
    }
    if (s) {
      describeState(w, 'State', s.state ?? {});
      if (s.lastState?.terminated) describeState(w, 'Last State', s.lastState);
      w.write(2, `Ready:\t${s.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${s.restartCount ?? 0}\n`);
    }
    for (const [title, list] of [
      ['Limits', c.resources?.limits],
      ['Requests', c.resources?.requests]
    ] as const) {
      const keys = Object.keys(list ?? {}).sort();
      if (!keys.length) continue;
      w.write(2, `${title}:\n`);
      for (const k of keys) w.write(3, `${k}:\t${list[k]}\n`);
    }
    for (const [title, probe] of [
      ['Liveness', c.livenessProbe],
      ['Readiness', c.readinessProbe],
      ['Startup', c.startupProbe]
    ] as const) {
      if (probe) w.write(2, `${title}:\t${probeString(probe)}\n`);
    }
    if (!c.env?.length) w.write(2, 'Environment:\t<none>\n');
    else {
      w.write(2, 'Environment:\n');
      for (const e of c.env) w.write(3, `${e.name}:\t${e.value ?? ''}\n`);
    }
    if (!c.volumeMounts?.length) w.write(2, 'Mounts:\t<none>\n');
    else {
      w.write(2, 'Mounts:\n');
      for (const m of c.volumeMounts)
        w.write(3, `${m.mountPath} from ${m.name} (${m.readOnly ? 'ro' : 'rw'})\n`);
    }
  }
}

function describeState(w: PrefixWriter, name: string, state: Any): void {
  if (state.running) {
    w.write(2, `${name}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state.terminated) {
    const t = state.terminated;
    w.write(2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if (t.signal) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(2, `${name}:\tWaiting\n`);
    if (state.waiting?.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  }
}

/** describe.go DescribeProbe: `http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3`. */
function probeString(p: Any): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${
    p.periodSeconds ?? 10
  }s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const h = p.httpGet;
    return `http-get ${(h.scheme ?? 'HTTP').toLowerCase()}://${h.host ?? ''}:${h.port}${h.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${p.tcpSocket.port} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeVolumes(w: PrefixWriter, volumes: Any[]): void {
  if (!volumes.length) return w.write(0, 'Volumes:\t<none>\n');
  w.write(0, 'Volumes:\n');
  for (const v of volumes) {
    w.write(1, `${v.name}:\n`);
    if (v.emptyDir) {
      w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n");
      w.write(2, `Medium:\t${v.emptyDir.medium ?? ''}\n`);
      w.write(2, `SizeLimit:\t${v.emptyDir.sizeLimit ?? '<unset>'}\n`);
    } else if (v.hostPath) {
      w.write(2, 'Type:\tHostPath (bare host directory volume)\n');
      w.write(2, `Path:\t${v.hostPath.path}\n`);
      w.write(2, `HostPathType:\t${v.hostPath.type ?? ''}\n`);
    } else if (v.configMap) {
      w.write(2, 'Type:\tConfigMap (a volume populated by a ConfigMap)\n');
      w.write(2, `Name:\t${v.configMap.name}\n`);
      w.write(2, `Optional:\t${v.configMap.optional ?? false}\n`);
    } else if (v.projected) {
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.serviceAccountToken)
          w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
        if (s.configMap) {
          w.write(2, `ConfigMapName:\t${s.configMap.name}\n`);
          w.write(2, `Optional:\t${s.configMap.optional ?? false}\n`);
        }
        if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
      }
    } else {
      w.write(2, `Type:\t${Object.keys(v).find((k) => k !== 'name') ?? 'unknown'}\n`);
    }
  }
}

/** v1 qos.GetPodQOS when status.qosClass is not set yet. */
function qosClass(pod: KubeObject): string {
  const cs: Any[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const { req, lim } = podRequestsAndLimits(pod);
  if (!Object.keys(req).length && !Object.keys(lim).length) return 'BestEffort';
  const guaranteed = cs.every((c) => {
    const l = c.resources?.limits ?? {};
    const r = c.resources?.requests ?? l;
    return ['cpu', 'memory'].every((k) => l[k] !== undefined && String(r[k] ?? l[k]) === String(l[k]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
