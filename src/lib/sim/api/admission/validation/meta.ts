/** ValidateObjectMeta: the name rule of the kind, labels and annotation keys. */
import type { KubeObject } from '../../types';
import { validateAnnotationKeys, validateLabels, validateName, type NameRule } from './names';
import type { Causes } from './field';

/** `obj` is the API server's own copy of a request (see validateLabels). */
export function validateObjectMeta(obj: KubeObject, rule: NameRule): Causes {
  const out: Causes = [];
  if (obj.metadata.name) out.push(...validateName('metadata.name', obj.metadata.name, rule));
  out.push(...validateLabels('metadata.labels', obj.metadata.labels, true));
  out.push(...validateAnnotationKeys('metadata.annotations', obj.metadata.annotations, true));
  return out;
}
