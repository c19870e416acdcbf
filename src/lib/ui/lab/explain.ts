/**
 * FailedScheduling messages in plain language. The message format is the scheduler's FitError:
 * `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: ...`
 * Each counted reason becomes one sentence; unknown reasons are passed through unchanged.
 */
const REASONS: [RegExp, (n: string, m: RegExpMatchArray) => string][] = [
  [
    /^Insufficient (.+)$/,
    (n, m) =>
      `${n} node(s) lack free ${m[1]}: the pod's ${m[1]} request plus what pods already on the node request exceeds the node's allocatable ${m[1]} (NodeResourcesFit).`
  ],
  [
    /^Too many pods$/,
    (n) =>
      `${n} node(s) already run as many pods as their maxPods allows (NodeResourcesFit, resource "pods").`
  ],
  [
    /^node\(s\) had untolerated taint/,
    (n) => `${n} node(s) carry a taint the pod has no toleration for (TaintToleration).`
  ],
  [
    /^node\(s\) didn't match Pod's node affinity\/selector$/,
    (n) =>
      `${n} node(s) lack the labels required by the pod's nodeSelector or required node affinity (NodeAffinity).`
  ],
  [
    /^node\(s\) were unschedulable$/,
    (n) => `${n} node(s) are cordoned (spec.unschedulable) (NodeUnschedulable).`
  ],
  [
    /^node\(s\) didn't have free ports for the requested pod ports$/,
    (n) => `${n} node(s) already have a pod using the requested hostPort (NodePorts).`
  ],
  [
    /^node\(s\) didn't match pod topology spread constraints/,
    (n) => `${n} node(s) would break a hard topology spread constraint (PodTopologySpread).`
  ],
  [
    /^node\(s\) didn't match pod affinity rules$/,
    (n) =>
      `${n} node(s) are not in a topology domain that runs the pods this pod must be near (InterPodAffinity).`
  ],
  [
    /^node\(s\) didn't match pod anti-affinity rules$/,
    (n) => `${n} node(s) are in a domain that runs pods this pod must avoid (InterPodAffinity).`
  ],
  [
    /^node\(s\) didn't satisfy existing pods anti-affinity rules$/,
    (n) => `${n} node(s) run pods whose anti-affinity rules exclude this pod (InterPodAffinity).`
  ],
  [
    /^node\(s\) didn't match the requested node name$/,
    (n) => `${n} node(s) are not the node named in spec.nodeName (NodeName).`
  ],
  [
    /^Preemption is not helpful for scheduling$/,
    (n) => `On ${n} node(s), evicting lower-priority pods would still not make room.`
  ],
  [
    /^No preemption victims found for incoming pod$/,
    (n) => `On ${n} node(s), there are no lower-priority pods to evict.`
  ]
];

function explainReason(part: string): string {
  const m = /^(\d+) (.+)$/.exec(part.trim());
  if (!m) return part.trim();
  for (const [re, say] of REASONS) {
    const r = re.exec(m[2]);
    if (r) return say(m[1], r);
  }
  return part.trim();
}

function splitReasons(list: string): string[] {
  return list
    .replace(/\.$/, '')
    .split(/, (?=\d+ )/)
    .filter(Boolean);
}

export function explainFailedScheduling(message: string): string[] {
  const [main, preemption] = message.split(/ preemption: /);
  const m = /^(\d+)\/(\d+) nodes are available(?::\s*(.*))?$/.exec(main.trim().replace(/\.$/, ''));
  if (!m) return [message];
  const out = [`None of the ${m[2]} nodes can run the pod (${m[1]} passed every filter).`];
  if (m[3]) out.push(...splitReasons(m[3]).map(explainReason));
  if (preemption) {
    const p = /^\d+\/\d+ nodes are available: (.*)$/.exec(preemption.trim());
    if (p) out.push(...splitReasons(p[1]).map(explainReason));
    else out.push(preemption.trim());
  }
  return out;
}
