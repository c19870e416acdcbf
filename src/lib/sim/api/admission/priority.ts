/**
 * Priority (plugin/pkg/admission/priority): resolves spec.priorityClassName to spec.priority and
 * spec.preemptionPolicy, or uses the globalDefault class, or priority 0 when there is none.
 * The two system classes are built into kube-apiserver.
 */
import type { AdmissionPlugin, ApiServer } from '../apiserver';
import { ApiError } from '../errors';
import type { KubeObject } from '../types';

export const SYSTEM_PRIORITY_CLASSES: Record<string, { value: number; description: string }> = {
  'system-node-critical': {
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.'
  },
  'system-cluster-critical': {
    value: 2000000000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'
  }
};

/** scheduling.DefaultPriorityWhenNoDefaultClassExists */
const DEFAULT_PRIORITY = 0;

interface Resolved {
  name: string;
  value: number;
  preemptionPolicy: string;
}

function forbiddenPod(pod: KubeObject, message: string): ApiError {
  return new ApiError(403, 'Forbidden', `pods "${pod.metadata.name ?? ''}" is forbidden: ${message}`);
}

function lookup(api: ApiServer, name: string): Resolved | undefined {
  const pc = api.tryGet<KubeObject>('PriorityClass', undefined, name);
  if (pc)
    return {
      name,
      value: pc.value as number,
      preemptionPolicy: (pc.preemptionPolicy as string) ?? 'PreemptLowerPriority'
    };
  const sys = SYSTEM_PRIORITY_CLASSES[name];
  return sys ? { name, value: sys.value, preemptionPolicy: 'PreemptLowerPriority' } : undefined;
}

function globalDefault(api: ApiServer): Resolved {
  // With several globalDefault classes upstream picks the one with the lowest value.
  const defaults = api
    .list<KubeObject>('PriorityClass')
    .filter((pc) => pc.globalDefault === true)
    .sort((a, b) => (a.value as number) - (b.value as number));
  const d = defaults[0];
  if (!d) return { name: '', value: DEFAULT_PRIORITY, preemptionPolicy: 'PreemptLowerPriority' };
  return {
    name: d.metadata.name,
    value: d.value as number,
    preemptionPolicy: (d.preemptionPolicy as string) ?? 'PreemptLowerPriority'
  };
}

export const priorityPlugin: AdmissionPlugin = {
  name: 'Priority',
  admit(op, pod, old, api) {
    if (pod.kind !== 'Pod' || !pod.spec) return;
    if (op === 'UPDATE') {
      // The stored spec itself (a status write): its priority was resolved when it was written.
      if (pod.spec === old?.spec) return;
      pod.spec.priority ??= old?.spec?.priority;
      pod.spec.preemptionPolicy ??= old?.spec?.preemptionPolicy;
      return;
    }
    if (op !== 'CREATE') return;
    let resolved: Resolved;
    if (!pod.spec.priorityClassName) {
      resolved = globalDefault(api);
      if (resolved.name) pod.spec.priorityClassName = resolved.name;
    } else {
      const found = lookup(api, pod.spec.priorityClassName);
      if (!found)
        throw forbiddenPod(pod, `no PriorityClass with name ${pod.spec.priorityClassName} was found`);
      resolved = found;
    }
    if (
      pod.spec.priority !== undefined &&
      pod.spec.priority !== null &&
      pod.spec.priority !== resolved.value
    ) {
      throw forbiddenPod(
        pod,
        `the integer value of priority (${pod.spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`
      );
    }
    pod.spec.priority = resolved.value;
    if (pod.spec.preemptionPolicy !== undefined && pod.spec.preemptionPolicy !== resolved.preemptionPolicy) {
      throw forbiddenPod(
        pod,
        `the string value of PreemptionPolicy (${pod.spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`
      );
    }
    pod.spec.preemptionPolicy = resolved.preemptionPolicy;
  }
};
