/** Pods from a template (pkg/controller/controller_utils.go GetPodFromTemplate, CreatePods). */
import type { KubeObject } from '../../api/types';
import { clone } from '../../api/types';
import { newControllerRef } from './pods';

export function podFromTemplate(
  owner: KubeObject,
  template: { metadata?: KubeObject['metadata'] | Record<string, unknown>; spec?: unknown },
  overrides: { labels?: Record<string, string> } = {}
): KubeObject {
  const meta = (template.metadata ?? {}) as {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: '',
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace,
      labels: { ...(clone(meta.labels) ?? {}), ...(overrides.labels ?? {}) },
      ownerReferences: [newControllerRef(owner)]
    },
    spec: clone(template.spec ?? {})
  };
  if (meta.annotations) pod.metadata.annotations = clone(meta.annotations);
  if (meta.finalizers) pod.metadata.finalizers = clone(meta.finalizers);
  return pod;
}
