/**
 * Defaulting, as the API server applies it when it decodes a request (SetDefaults_* in
 * pkg/apis/core/v1 and pkg/apis/apps/v1) plus the pod fields the ServiceAccount plugin and the pod
 * strategy fill in (serviceAccountName, status.phase, status.qosClass).
 */
import type { AdmissionPlugin } from '../apiserver';
import { tryParseQuantity } from '../quantity';
import type { KubeObject } from '../types';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** `Always` for `:latest` or an untagged image, else `IfNotPresent` (SetDefaults_Container). */
export function defaultPullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  if (!image) return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  const tag = colon >= 0 ? image.slice(colon + 1) : '';
  return !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: any, hostNetwork: boolean): void {
  c.imagePullPolicy ??= defaultPullPolicy(c.image);
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  // SetDefaults_Pod: limits without requests default the requests to the limits.
  if (c.resources.limits) {
    c.resources.requests ??= {};
    for (const [k, v] of Object.entries(c.resources.limits)) c.resources.requests[k] ??= v;
  }
  for (const p of c.ports ?? []) {
    p.protocol ??= 'TCP';
    if (hostNetwork && p.hostPort === undefined) p.hostPort = p.containerPort;
  }
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (!probe) continue;
    probe.timeoutSeconds ??= 1;
    probe.periodSeconds ??= 10;
    probe.successThreshold ??= 1;
    probe.failureThreshold ??= 3;
    if (probe.httpGet) {
      probe.httpGet.path ??= '/';
      probe.httpGet.scheme ??= 'HTTP';
    }
  }
}

/** SetDefaults_PodSpec (also applied to pod templates). */
export function defaultPodSpec(spec: any): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  const hostNetwork = !!spec.hostNetwork;
  for (const c of spec.initContainers ?? []) defaultContainer(c, hostNetwork);
  for (const c of spec.containers ?? []) defaultContainer(c, hostNetwork);
  for (const t of spec.tolerations ?? []) {
    if (t.operator === undefined && !t.key) t.operator = 'Exists';
  }
}

/** The pod's QoS class (pkg/apis/core/helper/qos): only cpu and memory count. */
export function qosClass(spec: any): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      const rq = tryParseQuantity(req[r]);
      const lm = tryParseQuantity(lim[r]);
      if ((rq !== undefined && rq !== 0) || (lm !== undefined && lm !== 0)) any = true;
      if (lm === undefined || rq === undefined || rq !== lm) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function defaultPod(pod: KubeObject, op: string): void {
  const spec = (pod.spec ??= {});
  defaultPodSpec(spec);
  spec.enableServiceLinks ??= true;
  // The ServiceAccount admission plugin; the deprecated serviceAccount field mirrors it.
  spec.serviceAccountName ??= spec.serviceAccount ?? 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
  if (op === 'CREATE') {
    pod.status ??= {};
    pod.status.phase ??= 'Pending';
    pod.status.qosClass = qosClass(spec);
  }
}

function defaultTemplate(obj: KubeObject): void {
  const template = obj.spec?.template;
  if (!template) return;
  template.metadata ??= {};
  template.metadata.creationTimestamp ??= null;
  defaultPodSpec(template.spec);
}

function defaultDeployment(d: KubeObject): void {
  const spec = (d.spec ??= {});
  spec.replicas ??= 1;
  spec.strategy ??= {};
  spec.strategy.type ??= 'RollingUpdate';
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(d);
}

function defaultDaemonSet(ds: KubeObject): void {
  const spec = (ds.spec ??= {});
  spec.updateStrategy ??= {};
  spec.updateStrategy.type ??= 'RollingUpdate';
  if (spec.updateStrategy.type === 'RollingUpdate') {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultTemplate(ds);
}

function defaultService(svc: KubeObject): void {
  const spec = (svc.spec ??= {});
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (spec.type !== 'ExternalName') {
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.internalTrafficPolicy ??= 'Cluster';
  }
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  if (spec.sessionAffinity === 'ClientIP') {
    spec.sessionAffinityConfig ??= {};
    spec.sessionAffinityConfig.clientIP ??= {};
    spec.sessionAffinityConfig.clientIP.timeoutSeconds ??= 10800;
  }
  for (const p of spec.ports ?? []) {
    p.protocol ??= 'TCP';
    p.targetPort ??= p.port;
  }
}

export const defaultingPlugin: AdmissionPlugin = {
  name: 'Defaulting',
  admit(op, obj, old) {
    if (op === 'DELETE') return;
    // A spec the write took from the stored version (a status write, a patch of other parts) is
    // that version's frozen object: it was defaulted when it was written, and defaulting it again
    // would change nothing.
    const specStored = op === 'UPDATE' && obj.spec !== undefined && obj.spec === old?.spec;
    switch (obj.kind) {
      case 'Pod':
        if (!specStored) defaultPod(obj, op);
        return;
      case 'Deployment':
        if (!specStored) defaultDeployment(obj);
        return;
      case 'ReplicaSet':
        if (specStored) return;
        (obj.spec ??= {}).replicas ??= 1;
        return defaultTemplate(obj);
      case 'DaemonSet':
        if (!specStored) defaultDaemonSet(obj);
        return;
      case 'Service':
        if (!specStored) defaultService(obj);
        obj.status ??= { loadBalancer: {} };
        return;
      case 'PriorityClass':
        obj.preemptionPolicy ??= 'PreemptLowerPriority';
        return;
      case 'Namespace':
        if (!specStored) {
          obj.spec ??= {};
          obj.spec.finalizers ??= ['kubernetes'];
        }
        obj.status ??= {};
        obj.status.phase ??= 'Active';
        return;
    }
  }
};
