/** `kubectl describe` for deployments, replicasets, daemonsets, services, endpoints and leases. */
import type { KubeObject } from '../../api/types';
import { apiList, eventsFor, nowEpoch, type KubectlContext } from '../context';
import { rfc1123z } from '../timefmt';
import {
  PrefixWriter,
  annotationsMultiline,
  controlledBy,
  describeEvents,
  labelsMultiline,
  tolerationsMultiline
} from './writer';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

function selectorText(sel: Any): string {
  if (!sel) return '<none>';
  const parts = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    parts.push(
      e.operator === 'Exists'
        ? e.key
        : e.operator === 'DoesNotExist'
          ? `!${e.key}`
          : `${e.key} ${e.operator.toLowerCase()} (${(e.values ?? []).join(',')})`
    );
  }
  return parts.sort().join(',') || '<none>';
}

function header(w: PrefixWriter, o: KubeObject): void {
  w.write(0, `Name:\t${o.metadata.name}\n`);
  if (o.metadata.namespace) w.write(0, `Namespace:\t${o.metadata.namespace}\n`);
}

/** DescribePodTemplate: the template block of workloads, one level in. */
function podTemplate(w: PrefixWriter, tpl: Any): void {
  w.write(0, 'Pod Template:\n');
  const labels = tpl?.metadata?.labels ?? {};
  const keys = Object.keys(labels).sort();
  if (!keys.length) w.write(1, 'Labels:\t<none>\n');
  keys.forEach((k, i) => w.write(1, `${i === 0 ? 'Labels:' : ''}\t${k}=${labels[k]}\n`));
  const spec = tpl?.spec ?? {};
  if (spec.serviceAccountName) w.write(1, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(1, 'Containers:\n');
  for (const c of spec.containers ?? []) {
    w.write(1, ` ${c.name}:\n`);
    w.write(2, `Image:\t${c.image}\n`);
    const ports: Any[] = c.ports ?? [];
    w.write(
      2,
      `Port:\t${ports.map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ') || '<none>'}\n`
    );
    w.write(
      2,
      `Host Port:\t${ports.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ') || '<none>'}\n`
    );
    for (const [title, list] of [
      ['Limits', c.resources?.limits],
      ['Requests', c.resources?.requests]
    ] as const) {
      const ks = Object.keys(list ?? {}).sort();
      if (!ks.length) continue;
      w.write(2, `${title}:\n`);
      for (const k of ks) w.write(3, `${k}:\t${list[k]}\n`);
    }
    w.write(2, 'Environment:\t<none>\n');
    w.write(2, 'Mounts:\t<none>\n');
  }
  w.write(
    1,
    `Volumes:\t${(spec.volumes ?? []).length ? (spec.volumes as Any[]).map((v) => v.name).join(', ') : '<none>'}\n`
  );
  const ns = spec.nodeSelector ?? {};
  const nsKeys = Object.keys(ns).sort();
  w.write(1, `Node-Selectors:\t${nsKeys.length ? nsKeys.map((k) => `${k}=${ns[k]}`).join(',') : '<none>'}\n`);
  tolerationsMultiline(w, 'Tolerations', spec.tolerations, 1);
}

function conditions(w: PrefixWriter, conds: Any[] | undefined): void {
  if (!conds?.length) return;
  w.write(0, 'Conditions:\n');
  w.write(1, 'Type\tStatus\tReason\n');
  w.write(1, '----\t------\t------\n');
  for (const c of conds) w.write(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
}

function ownedReplicaSets(ctx: KubectlContext, d: KubeObject): KubeObject[] {
  return apiList(ctx, 'ReplicaSet', { namespace: d.metadata.namespace }).filter((rs) =>
    (rs.metadata.ownerReferences ?? []).some((r) => r.uid === d.metadata.uid)
  );
}

export function describeDeployment(ctx: KubectlContext, d: KubeObject): string {
  const w = new PrefixWriter();
  const spec: Any = d.spec ?? {};
  const st: Any = d.status ?? {};
  header(w, d);
  w.write(0, `CreationTimestamp:\t${rfc1123z(d.metadata.creationTimestamp)}\n`);
  labelsMultiline(w, 'Labels', d.metadata.labels);
  annotationsMultiline(w, 'Annotations', d.metadata.annotations);
  w.write(0, `Selector:\t${selectorText(spec.selector)}\n`);
  w.write(
    0,
    `Replicas:\t${spec.replicas ?? 1} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${
      st.availableReplicas ?? 0
    } available | ${st.unavailableReplicas ?? 0} unavailable\n`
  );
  const strategy = spec.strategy?.type ?? 'RollingUpdate';
  w.write(0, `StrategyType:\t${strategy}\n`);
  w.write(0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  if (strategy === 'RollingUpdate') {
    const ru = spec.strategy?.rollingUpdate ?? {};
    w.write(
      0,
      `RollingUpdateStrategy:\t${ru.maxUnavailable ?? '25%'} max unavailable, ${ru.maxSurge ?? '25%'} max surge\n`
    );
  }
  podTemplate(w, spec.template);
  conditions(w, st.conditions);
  const rss = ownedReplicaSets(ctx, d);
  const tplJson = (rs: KubeObject) => {
    const t = structuredClone(rs.spec?.template ?? {});
    delete t.metadata?.labels?.['pod-template-hash'];
    return JSON.stringify(t);
  };
  const cur = JSON.stringify(spec.template ?? {});
  const newRs = rss.find((rs) => tplJson(rs) === cur);
  const old = rss.filter((rs) => rs !== newRs && (rs.spec?.replicas ?? 0) > 0);
  const rsLine = (rs: KubeObject) =>
    `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`;
  w.write(0, `OldReplicaSets:\t${old.length ? old.map(rsLine).join(', ') : '<none>'}\n`);
  w.write(0, `NewReplicaSet:\t${newRs ? rsLine(newRs) : '<none>'}\n`);
  describeEvents(w, eventsFor(ctx, d), nowEpoch(ctx));
  return w.toString();
}

function podsStatus(ctx: KubectlContext, o: KubeObject): string {
  const pods = apiList(ctx, 'Pod', { namespace: o.metadata.namespace }).filter((p) =>
    (p.metadata.ownerReferences ?? []).some((r) => r.uid === o.metadata.uid)
  );
  const n = (ph: string) => pods.filter((p) => p.status?.phase === ph).length;
  return `${n('Running')} Running / ${n('Pending')} Waiting / ${n('Succeeded')} Succeeded / ${n('Failed')} Failed`;
}

export function describeReplicaSet(ctx: KubectlContext, rs: KubeObject): string {
  const w = new PrefixWriter();
  header(w, rs);
  w.write(0, `Selector:\t${selectorText(rs.spec?.selector)}\n`);
  labelsMultiline(w, 'Labels', rs.metadata.labels);
  annotationsMultiline(w, 'Annotations', rs.metadata.annotations);
  const owner = controlledBy(rs);
  if (owner) w.write(0, `Controlled By:\t${owner}\n`);
  w.write(0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
  w.write(0, `Pods Status:\t${podsStatus(ctx, rs)}\n`);
  podTemplate(w, rs.spec?.template);
  conditions(w, rs.status?.conditions);
  describeEvents(w, eventsFor(ctx, rs), nowEpoch(ctx));
  return w.toString();
}

export function describeDaemonSet(ctx: KubectlContext, ds: KubeObject): string {
  const w = new PrefixWriter();
  const st: Any = ds.status ?? {};
  header(w, ds);
  w.write(0, `Selector:\t${selectorText(ds.spec?.selector)}\n`);
  const ns = ds.spec?.template?.spec?.nodeSelector ?? {};
  const nsKeys = Object.keys(ns).sort();
  w.write(0, `Node-Selector:\t${nsKeys.length ? nsKeys.map((k) => `${k}=${ns[k]}`).join(',') : '<none>'}\n`);
  labelsMultiline(w, 'Labels', ds.metadata.labels);
  annotationsMultiline(w, 'Annotations', ds.metadata.annotations);
  w.write(0, `Desired Number of Nodes Scheduled: ${st.desiredNumberScheduled ?? 0}\n`);
  w.write(0, `Current Number of Nodes Scheduled: ${st.currentNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Up-to-date Pods: ${st.updatedNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Available Pods: ${st.numberAvailable ?? 0}\n`);
  w.write(0, `Number of Nodes Misscheduled: ${st.numberMisscheduled ?? 0}\n`);
  w.write(0, `Pods Status:\t${podsStatus(ctx, ds)}\n`);
  podTemplate(w, ds.spec?.template);
  describeEvents(w, eventsFor(ctx, ds), nowEpoch(ctx));
  return w.toString();
}

export function describeService(ctx: KubectlContext, svc: KubeObject): string {
  const w = new PrefixWriter();
  const spec: Any = svc.spec ?? {};
  header(w, svc);
  labelsMultiline(w, 'Labels', svc.metadata.labels);
  annotationsMultiline(w, 'Annotations', svc.metadata.annotations);
  const sel = Object.entries(spec.selector ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  w.write(0, `Selector:\t${sel.length ? sel.join(',') : '<none>'}\n`);
  w.write(0, `Type:\t${spec.type ?? 'ClusterIP'}\n`);
  w.write(0, `IP Family Policy:\t${spec.ipFamilyPolicy ?? 'SingleStack'}\n`);
  w.write(0, `IP Families:\t${(spec.ipFamilies ?? ['IPv4']).join(',')}\n`);
  w.write(0, `IP:\t${spec.clusterIP ?? ''}\n`);
  w.write(0, `IPs:\t${(spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : [])).join(',')}\n`);
  const slices = apiList(ctx, 'EndpointSlice', {
    namespace: svc.metadata.namespace,
    labelSelector: `kubernetes.io/service-name=${svc.metadata.name}`
  });
  for (const p of spec.ports ?? []) {
    const name = p.name || '<unset>';
    w.write(0, `Port:\t${name}\t${p.port}/${p.protocol ?? 'TCP'}\n`);
    w.write(0, `TargetPort:\t${p.targetPort ?? p.port}/${p.protocol ?? 'TCP'}\n`);
    if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol ?? 'TCP'}\n`);
    const eps = slices.flatMap((s) =>
      ((s.endpoints as Any[]) ?? [])
        .filter((e) => e.conditions?.ready !== false)
        .flatMap((e) => e.addresses.map((a: string) => `${a}:${p.targetPort ?? p.port}`))
    );
    w.write(0, `Endpoints:\t${eps.length ? eps.join(',') : ''}\n`);
  }
  w.write(0, `Session Affinity:\t${spec.sessionAffinity ?? 'None'}\n`);
  w.write(0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy ?? 'Cluster'}\n`);
  describeEvents(w, eventsFor(ctx, svc), nowEpoch(ctx));
  return w.toString();
}

/** describe.go describeEndpoints: each subset's ready and not-ready IPs, then its ports. */
export function describeEndpoints(ctx: KubectlContext, ep: KubeObject): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ep.metadata.name}\n`);
  w.write(0, `Namespace:\t${ep.metadata.namespace ?? ''}\n`);
  labelsMultiline(w, 'Labels', ep.metadata.labels);
  annotationsMultiline(w, 'Annotations', ep.metadata.annotations);
  w.write(0, 'Subsets:\n');
  for (const ss of (ep.subsets as Any[]) ?? []) {
    const ips = (list: Any[] | undefined) => (list ?? []).map((a) => a.ip).join(',') || '<none>';
    w.write(1, `Addresses:\t${ips(ss.addresses)}\n`);
    w.write(1, `NotReadyAddresses:\t${ips(ss.notReadyAddresses)}\n`);
    if (ss.ports?.length) {
      w.write(1, 'Ports:\n');
      w.write(2, 'Name\tPort\tProtocol\n');
      w.write(2, '----\t----\t--------\n');
      for (const p of ss.ports) w.write(2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol}\n`);
    }
    w.write(0, '\n');
  }
  describeEvents(w, eventsFor(ctx, ep), nowEpoch(ctx));
  return w.toString();
}

export function describeLease(ctx: KubectlContext, l: KubeObject): string {
  const w = new PrefixWriter();
  const spec: Any = l.spec ?? {};
  header(w, l);
  labelsMultiline(w, 'Labels', l.metadata.labels);
  annotationsMultiline(w, 'Annotations', l.metadata.annotations);
  w.write(0, `API Version:\t${l.apiVersion}\n`);
  w.write(0, `Kind:\t${l.kind}\n`);
  w.write(0, 'Metadata:\n');
  w.write(1, `Creation Timestamp:\t${l.metadata.creationTimestamp}\n`);
  for (const r of l.metadata.ownerReferences ?? []) {
    w.write(1, 'Owner References:\n');
    w.write(2, `API Version:\t${r.apiVersion}\n`);
    w.write(2, `Kind:\t${r.kind}\n`);
    w.write(2, `Name:\t${r.name}\n`);
    w.write(2, `UID:\t${r.uid}\n`);
  }
  w.write(1, `Resource Version:\t${l.metadata.resourceVersion}\n`);
  w.write(1, `UID:\t${l.metadata.uid}\n`);
  w.write(0, 'Spec:\n');
  if (spec.acquireTime) w.write(1, `Acquire Time:\t${spec.acquireTime}\n`);
  if (spec.holderIdentity) w.write(1, `Holder Identity:\t${spec.holderIdentity}\n`);
  if (spec.leaseDurationSeconds !== undefined)
    w.write(1, `Lease Duration Seconds:\t${spec.leaseDurationSeconds}\n`);
  if (spec.leaseTransitions !== undefined) w.write(1, `Lease Transitions:\t${spec.leaseTransitions}\n`);
  if (spec.renewTime) w.write(1, `Renew Time:\t${spec.renewTime}\n`);
  describeEvents(w, eventsFor(ctx, l), nowEpoch(ctx));
  return w.toString();
}
