/**
 * What `kubectl edit` shows of an object, minus the fields the server owns and would reject or
 * ignore on apply. resourceVersion is dropped too, as `kubectl apply` sends none: the kubelet
 * rewrites its Node every few seconds and a kept one would make most edits fail with a Conflict.
 */
export function editableCopy(obj: unknown): unknown {
  if (!obj || typeof obj !== 'object') return obj;
  const copy = structuredClone(obj) as { metadata?: Record<string, unknown> };
  if (copy.metadata) {
    delete copy.metadata.uid;
    delete copy.metadata.creationTimestamp;
    delete copy.metadata.managedFields;
    delete copy.metadata.generation;
    delete copy.metadata.resourceVersion;
  }
  return copy;
}
