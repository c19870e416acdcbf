/** ValidateDeployment / ValidateReplicaSet / ValidateDaemonSet (pkg/apis/apps/validation). */
import { sameJson, type KubeObject } from '../../types';
import { matchLabelSelector } from '../../selectors';
import { forbidden, goValue, invalidValue, notSupported, required, type Causes } from './field';
import { validateLabels } from './names';
import { validateObjectMeta } from './meta';
import { validatePodSpec } from './pod';

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

function validateNonNegative(field: string, v: unknown): Causes {
  return typeof v === 'number' && v < 0 ? [invalidValue(field, v, 'must be greater than or equal to 0')] : [];
}

/** Selector present and non-empty; template labels must match it; template restartPolicy Always. */
function validateSelectorAndTemplate(
  kind: string,
  spec: KubeObject['spec'],
  templateRequired: boolean
): Causes {
  const out: Causes = [];
  const sel = spec?.selector as LabelSelector | undefined;
  if (!sel) out.push(required('spec.selector'));
  else {
    out.push(...validateLabels('spec.selector.matchLabels', sel.matchLabels));
    if (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length) {
      out.push(invalidValue('spec.selector', sel, `empty selector is invalid for ${kind}`));
    }
  }
  const template = spec?.template;
  if (!template) {
    if (templateRequired) out.push(required('spec.template'));
    return out;
  }
  const labels = template.metadata?.labels as Record<string, string> | undefined;
  out.push(...validateLabels('spec.template.metadata.labels', labels));
  if (sel && (Object.keys(sel.matchLabels ?? {}).length || (sel.matchExpressions ?? []).length)) {
    if (!matchLabelSelector(sel, labels ?? {})) {
      out.push(
        invalidValue(
          'spec.template.metadata.labels',
          labels ?? {},
          '`selector` does not match template `labels`'
        )
      );
    }
  }
  out.push(...validatePodSpec('spec.template.spec', template.spec, { template: true }));
  const rp = template.spec?.restartPolicy;
  if (rp !== undefined && rp !== 'Always')
    out.push(notSupported('spec.template.spec.restartPolicy', rp, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    out.push(
      forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in ReplicaSet is not Supported'
      )
    );
  }
  return out;
}

function percentOrInt(v: unknown): { value: number; percent: boolean } | undefined {
  if (typeof v === 'number') return { value: v, percent: false };
  if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v);
    if (m) return { value: parseInt(m[1], 10), percent: true };
  }
  return undefined;
}

function validateRollingUpdate(
  field: string,
  ru: { maxSurge?: unknown; maxUnavailable?: unknown } | undefined
): Causes {
  const out: Causes = [];
  if (!ru) return out;
  const surge = percentOrInt(ru.maxSurge ?? 0);
  const unavailable = percentOrInt(ru.maxUnavailable ?? 0);
  for (const [name, raw, parsed] of [
    ['maxSurge', ru.maxSurge, surge],
    ['maxUnavailable', ru.maxUnavailable, unavailable]
  ] as const) {
    if (raw === undefined) continue;
    if (!parsed)
      out.push(
        invalidValue(
          `${field}.${name}`,
          raw,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
        )
      );
    else if (parsed.value < 0)
      out.push(invalidValue(`${field}.${name}`, raw, 'must be greater than or equal to 0'));
  }
  if (unavailable?.percent && unavailable.value > 100) {
    out.push(invalidValue(`${field}.maxUnavailable`, ru.maxUnavailable, 'must not be greater than 100%'));
  }
  if (surge && unavailable && surge.value === 0 && unavailable.value === 0) {
    out.push(
      invalidValue(`${field}.maxUnavailable`, ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0')
    );
  }
  return out;
}

function selectorImmutable(obj: KubeObject, old: KubeObject | undefined): Causes {
  if (!old || sameJson(obj.spec?.selector, old.spec?.selector)) return [];
  return [invalidValue('spec.selector', goValue(obj.spec?.selector), 'field is immutable')];
}

/**
 * Specs whose own checks passed, per kind (validation of a spec is a function of its value): a
 * status write keeps the stored, frozen spec, which then passes again without its checks. A spec
 * that passed as the API server's own copy of a request counts once it is frozen (stored as it
 * passed).
 */
const passedSpecs = { deployment: new WeakSet<object>(), replicaset: new WeakSet<object>() };

function specCauses(set: WeakSet<object>, spec: object, run: () => Causes): Causes {
  if (Object.isFrozen(spec) && set.has(spec)) return [];
  const out = run();
  if (out.length === 0) set.add(spec);
  return out;
}

export function validateDeployment(obj: KubeObject, old?: KubeObject): Causes {
  const spec = obj.spec ?? {};
  const out: Causes = [...validateObjectMeta(obj, 'subdomain')];
  out.push(...specCauses(passedSpecs.deployment, spec, () => deploymentSpecCauses(spec)));
  out.push(...selectorImmutable(obj, old));
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function deploymentSpecCauses(spec: any): Causes {
  const out: Causes = [];
  out.push(...validateNonNegative('spec.replicas', spec.replicas));
  out.push(...validateSelectorAndTemplate('deployment', spec, true));
  const type = spec.strategy?.type;
  if (type !== undefined && type !== 'RollingUpdate' && type !== 'Recreate') {
    out.push(notSupported('spec.strategy.type', type, ['Recreate', 'RollingUpdate']));
  }
  if (type === 'Recreate' && spec.strategy?.rollingUpdate) {
    out.push(
      forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")
    );
  }
  if (type === 'RollingUpdate')
    out.push(...validateRollingUpdate('spec.strategy.rollingUpdate', spec.strategy?.rollingUpdate));
  out.push(...validateNonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  out.push(...validateNonNegative('spec.minReadySeconds', spec.minReadySeconds));
  if (
    typeof spec.progressDeadlineSeconds === 'number' &&
    typeof spec.minReadySeconds === 'number' &&
    spec.progressDeadlineSeconds <= spec.minReadySeconds
  ) {
    out.push(
      invalidValue(
        'spec.progressDeadlineSeconds',
        spec.progressDeadlineSeconds,
        'must be greater than minReadySeconds'
      )
    );
  }
  return out;
}

export function validateReplicaSet(obj: KubeObject, old?: KubeObject): Causes {
  const spec = obj.spec ?? {};
  return [
    ...validateObjectMeta(obj, 'subdomain'),
    ...specCauses(passedSpecs.replicaset, spec, () => [
      ...validateNonNegative('spec.replicas', spec.replicas),
      ...validateNonNegative('spec.minReadySeconds', spec.minReadySeconds),
      ...validateSelectorAndTemplate('replicaset', spec, false)
    ]),
    ...selectorImmutable(obj, old)
  ];
}

export function validateDaemonSet(obj: KubeObject, old?: KubeObject): Causes {
  const spec = obj.spec ?? {};
  const out: Causes = [
    ...validateObjectMeta(obj, 'subdomain'),
    ...validateSelectorAndTemplate('daemonset', spec, true),
    ...validateNonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...selectorImmutable(obj, old)
  ];
  const type = spec.updateStrategy?.type;
  if (type !== undefined && type !== 'RollingUpdate' && type !== 'OnDelete') {
    out.push(notSupported('spec.updateStrategy.type', type, ['OnDelete', 'RollingUpdate']));
  }
  if (type === 'RollingUpdate') {
    out.push(
      ...validateRollingUpdate('spec.updateStrategy.rollingUpdate', spec.updateStrategy?.rollingUpdate)
    );
  }
  return out;
}
