/** The validation step of kube-apiserver's write path: per-kind validation with upstream messages. */
import type { AdmissionPlugin } from '../../apiserver';
import { invalid } from '../../errors';
import type { KubeObject } from '../../types';
import { forbidden, type Causes } from './field';
import { validateObjectMeta } from './meta';
import { validateNode } from './node';
import { validatePodDisruptionBudget } from './policy';
import { validatePodCreate, validatePodUpdate } from './pod';
import { validateService } from './service';
import { validateDaemonSet, validateDeployment, validateReplicaSet } from './workloads';

/** kube-apiserver names the kind with its group in errors: `Deployment.apps "web" is invalid: ...`. */
const QUALIFIED_KIND: Record<string, string> = {
  Deployment: 'Deployment.apps',
  ReplicaSet: 'ReplicaSet.apps',
  DaemonSet: 'DaemonSet.apps',
  PriorityClass: 'PriorityClass.scheduling.k8s.io',
  PodDisruptionBudget: 'PodDisruptionBudget.policy',
  Lease: 'Lease.coordination.k8s.io',
  EndpointSlice: 'EndpointSlice.discovery.k8s.io'
};

export function qualifiedKind(kind: string): string {
  return QUALIFIED_KIND[kind] ?? kind;
}

/** User PriorityClasses are capped at 1e9 (HighestUserDefinablePriority); higher values are for system- classes. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

function validatePriorityClass(pc: KubeObject): Causes {
  const out = validateObjectMeta(pc, 'subdomain');
  const value = pc.value as number | undefined;
  const name = pc.metadata.name;
  if (name.startsWith('system-')) {
    out.push(
      forbidden(
        'metadata.name',
        "priority class names with 'system-' prefix are reserved for system use only"
      )
    );
  } else if (typeof value === 'number' && value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    out.push(
      forbidden(
        'value',
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`
      )
    );
  }
  return out;
}

export function validateObject(
  op: 'CREATE' | 'UPDATE',
  obj: KubeObject,
  old: KubeObject | undefined
): Causes {
  switch (obj.kind) {
    case 'Pod':
      return op === 'UPDATE' && old ? validatePodUpdate(obj, old) : validatePodCreate(obj);
    case 'Node':
      return validateNode(obj);
    case 'Deployment':
      return validateDeployment(obj, old);
    case 'ReplicaSet':
      return validateReplicaSet(obj, old);
    case 'DaemonSet':
      return validateDaemonSet(obj, old);
    case 'Service':
      return validateService(obj);
    case 'PriorityClass':
      return op === 'CREATE' ? validatePriorityClass(obj) : validateObjectMeta(obj, 'subdomain');
    case 'Namespace':
      return validateObjectMeta(obj, 'label');
    case 'PodDisruptionBudget':
      return validatePodDisruptionBudget(obj);
    case 'Event':
    case 'Lease':
    case 'EndpointSlice':
      return [];
    default:
      return validateObjectMeta(obj, 'subdomain');
  }
}

export const validationPlugin: AdmissionPlugin = {
  name: 'Validation',
  validate(op, obj, old) {
    if (op === 'DELETE') return;
    const causes = validateObject(op, obj, old);
    if (causes.length) throw invalid(qualifiedKind(obj.kind), obj.metadata.name ?? '', causes);
  }
};
