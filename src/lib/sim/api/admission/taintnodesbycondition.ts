/**
 * TaintNodesByCondition (plugin/pkg/admission/nodetaint): a Node is created with
 * `node.kubernetes.io/not-ready:NoSchedule`, so nothing is scheduled on it before the node
 * lifecycle controller sees it Ready and removes the taint.
 */
import type { AdmissionPlugin } from '../apiserver';

export const taintNodesByConditionPlugin: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  admit(op, node) {
    if (op !== 'CREATE' || node.kind !== 'Node') return;
    node.spec ??= {};
    const taints: { key: string; effect: string }[] = (node.spec.taints ??= []);
    if (!taints.some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule')) {
      taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
    }
  }
};
