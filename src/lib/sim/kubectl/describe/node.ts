/** `kubectl describe node` (describe.go describeNode, D2). */
import type { KubeObject } from '../../api/types';
import { tryParseQuantity } from '../../api/quantity';
import { apiList, apiTryGet, eventsFor, nowEpoch, type KubectlContext } from '../context';
import { nodeRoles } from '../printers/pod';
import { rfc1123z, since } from '../timefmt';
import { podRequestsAndLimits, qty, sortResourceNames } from './resources';
import {
  PrefixWriter,
  annotationsMultiline,
  describeEvents,
  labelsMultiline,
  taintsMultiline
} from './writer';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods']);
const pct = (v: number | undefined, total: number | undefined) =>
  total ? Math.trunc((((v ?? 0) / total) * 100) as number) : 0;

export function describeNode(ctx: KubectlContext, node: KubeObject): string {
  const now = nowEpoch(ctx);
  const w = new PrefixWriter();
  const spec: Any = node.spec ?? {};
  const status: Any = node.status ?? {};
  w.write(0, `Name:\t${node.metadata.name}\n`);
  const roles = nodeRoles(node);
  w.write(0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
  labelsMultiline(w, 'Labels', node.metadata.labels);
  annotationsMultiline(w, 'Annotations', node.metadata.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
  taintsMultiline(w, 'Taints', spec.taints);
  w.write(0, `Unschedulable:\t${spec.unschedulable ? 'true' : 'false'}\n`);

  const lease = apiTryGet<KubeObject>(ctx, 'Lease', 'kube-node-lease', node.metadata.name);
  if (lease) {
    w.write(0, 'Lease:\n');
    w.write(1, `HolderIdentity:\t${lease.spec?.holderIdentity ?? '<unset>'}\n`);
    w.write(1, `AcquireTime:\t${lease.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
    w.write(1, `RenewTime:\t${lease.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
  }

  if (status.conditions?.length) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of status.conditions) {
      w.write(
        1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${
          c.reason ?? ''
        } \t${c.message ?? ''}\n`
      );
    }
  }
  w.write(0, 'Addresses:\n');
  for (const a of status.addresses ?? []) w.write(1, `${a.type}:\t${a.address}\n`);

  const printList = (list: Record<string, string>) => {
    for (const k of sortResourceNames(Object.keys(list))) w.write(0, `  ${k}:\t${list[k]}\n`);
  };
  if (Object.keys(status.capacity ?? {}).length) {
    w.write(0, 'Capacity:\n');
    printList(status.capacity);
  }
  if (Object.keys(status.allocatable ?? {}).length) {
    w.write(0, 'Allocatable:\n');
    printList(status.allocatable);
  }
  const info: Any = status.nodeInfo ?? {};
  w.write(0, 'System Info:\n');
  w.write(0, `  Machine ID:\t${info.machineID ?? ''}\n`);
  w.write(0, `  System UUID:\t${info.systemUUID ?? ''}\n`);
  w.write(0, `  Boot ID:\t${info.bootID ?? ''}\n`);
  w.write(0, `  Kernel Version:\t${info.kernelVersion ?? ''}\n`);
  w.write(0, `  OS Image:\t${info.osImage ?? ''}\n`);
  w.write(0, `  Operating System:\t${info.operatingSystem ?? ''}\n`);
  w.write(0, `  Architecture:\t${info.architecture ?? ''}\n`);
  w.write(0, `  Container Runtime Version:\t${info.containerRuntimeVersion ?? ''}\n`);
  w.write(0, `  Kubelet Version:\t${info.kubeletVersion ?? ''}\n`);
  // Printed (empty on new kubelets) by kubectl up to v1.35; removed in v1.36.
  w.write(0, `  Kube-Proxy Version:\t${info.kubeProxyVersion ?? ''}\n`);
  if (spec.podCIDR) w.write(0, `PodCIDR:\t${spec.podCIDR}\n`);
  if (spec.podCIDRs?.length) w.write(0, `PodCIDRs:\t${spec.podCIDRs.join(',')}\n`);
  if (spec.providerID) w.write(0, `ProviderID:\t${spec.providerID}\n`);

  const pods = apiList(ctx, 'Pod', {
    fieldSelector: `spec.nodeName=${node.metadata.name},status.phase!=Failed,status.phase!=Succeeded`
  });
  describeNodeResource(w, pods, node, now);
  describeEvents(w, eventsFor(ctx, node), now);
  return w.toString();
}

function describeNodeResource(w: PrefixWriter, pods: KubeObject[], node: KubeObject, now: number): void {
  const allocList: Record<string, string> = Object.keys(node.status?.allocatable ?? {}).length
    ? node.status.allocatable
    : (node.status?.capacity ?? {});
  const alloc = (k: string) => tryParseQuantity(allocList[k]);
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const reqs: Record<string, number> = {};
  const lims: Record<string, number> = {};
  for (const pod of pods) {
    const { req, lim } = podRequestsAndLimits(pod);
    for (const [k, v] of Object.entries(req)) reqs[k] = (reqs[k] ?? 0) + v;
    for (const [k, v] of Object.entries(lim)) lims[k] = (lims[k] ?? 0) + v;
    const cell = (name: string, v: number | undefined) => `${qty(name, v)} (${pct(v, alloc(name))}%)`;
    w.write(
      1,
      `${pod.metadata.namespace}\t${pod.metadata.name}\t\t${cell('cpu', req.cpu)}\t${cell('cpu', lim.cpu)}\t${cell(
        'memory',
        req.memory
      )}\t${cell('memory', lim.memory)}\t${since(pod.metadata.creationTimestamp, now)}\n`
    );
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    w.write(
      1,
      `${name}\t${qty(name, reqs[name])} (${pct(reqs[name], alloc(name))}%)\t${qty(name, lims[name])} (${pct(
        lims[name],
        alloc(name)
      )}%)\n`
    );
  }
  const names = Object.keys(allocList).sort();
  for (const name of names.filter((n) => n.startsWith('hugepages-'))) {
    w.write(
      1,
      `${name}\t${qty(name, reqs[name])} (${pct(reqs[name], alloc(name))}%)\t${qty(name, lims[name])} (${pct(
        lims[name],
        alloc(name)
      )}%)\n`
    );
  }
  for (const name of names.filter((n) => !n.startsWith('hugepages-') && !STANDARD.has(n))) {
    w.write(1, `${name}\t${qty(name, reqs[name])}\t${qty(name, lims[name])}\n`);
  }
}
