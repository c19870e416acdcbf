/** ValidatePodDisruptionBudget (pkg/apis/policy/validation). */
import type { KubeObject } from '../../types';
import { invalidValue, type Causes } from './field';
import { validateObjectMeta } from './meta';
import { validateLabels } from './names';

function intOrPercent(field: string, v: unknown): Causes {
  if (v === undefined || v === null) return [];
  if (typeof v === 'number')
    return v < 0 ? [invalidValue(field, v, 'must be greater than or equal to 0')] : [];
  const m = /^(\d+)%$/.exec(String(v));
  if (!m) {
    return [
      invalidValue(
        field,
        v,
        "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
      )
    ];
  }
  return parseInt(m[1], 10) > 100 ? [invalidValue(field, v, 'must not be greater than 100%')] : [];
}

export function validatePodDisruptionBudget(pdb: KubeObject): Causes {
  const spec = pdb.spec ?? {};
  const out: Causes = [...validateObjectMeta(pdb, 'subdomain')];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    out.push(
      invalidValue(
        'spec',
        { minAvailable: spec.minAvailable, maxUnavailable: spec.maxUnavailable },
        'minAvailable and maxUnavailable cannot be both set'
      )
    );
  }
  out.push(...intOrPercent('spec.minAvailable', spec.minAvailable));
  out.push(...intOrPercent('spec.maxUnavailable', spec.maxUnavailable));
  out.push(...validateLabels('spec.selector.matchLabels', spec.selector?.matchLabels));
  return out;
}
