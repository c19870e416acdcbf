/** ValidatePodCreate / ValidatePodSpec / ValidatePodUpdate, for the fields Nodeplane simulates. */
import { sameJson, type KubeObject } from '../../types';
import { duplicate, forbidden, invalidValue, notSupported, required, type Causes } from './field';
import { validateLabels, validateName } from './names';
import { validateResourceRequirements } from './resources';
import { validateObjectMeta } from './meta';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];

interface ContainerLike {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  ports?: { containerPort?: number; hostPort?: number; protocol?: string; name?: string }[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

function validateContainers(
  field: string,
  containers: ContainerLike[] | undefined,
  names: Set<string>
): Causes {
  // A stored (frozen) list that passed before passes again; its names still count for duplicates.
  const first = names.size === 0;
  if (first && containers && passedAlready(passedBefore.containers, containers)) {
    for (const c of containers) names.add(c.name!);
    return [];
  }
  const out = containerCauses(field, containers, names);
  if (first) remember(passedBefore.containers, containers, out);
  return out;
}

function containerCauses(field: string, containers: ContainerLike[] | undefined, names: Set<string>): Causes {
  const out: Causes = [];
  (containers ?? []).forEach((c, i) => {
    const p = `${field}[${i}]`;
    if (!c.name) out.push(required(`${p}.name`));
    else {
      out.push(...validateName(`${p}.name`, c.name, 'label'));
      if (names.has(c.name)) out.push(duplicate(`${p}.name`, c.name));
      names.add(c.name);
    }
    if (!c.image || !String(c.image).trim()) out.push(required(`${p}.image`));
    if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy)) {
      out.push(notSupported(`${p}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
    }
    (c.ports ?? []).forEach((port, j) => {
      const pp = `${p}.ports[${j}]`;
      const cp = port.containerPort;
      if (cp === undefined) out.push(required(`${pp}.containerPort`));
      else if (!Number.isInteger(cp) || cp < 1 || cp > 65535)
        out.push(invalidValue(`${pp}.containerPort`, cp, 'must be between 1 and 65535, inclusive'));
      if (port.hostPort !== undefined && port.hostPort !== 0 && (port.hostPort < 1 || port.hostPort > 65535))
        out.push(invalidValue(`${pp}.hostPort`, port.hostPort, 'must be between 1 and 65535, inclusive'));
      if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol))
        out.push(notSupported(`${pp}.protocol`, port.protocol, PROTOCOLS));
    });
    out.push(...validateResourceRequirements(`${p}.resources`, c.resources));
  });
  return out;
}

interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export function validateTolerations(field: string, tolerations: TolerationLike[] | undefined): Causes {
  if (tolerations && passedAlready(passedBefore.tolerations, tolerations)) return [];
  const out = tolerationCauses(field, tolerations);
  remember(passedBefore.tolerations, tolerations, out);
  return out;
}

/**
 * The tolerations that passed, by their fields (string or absent fields only; the seconds count
 * only as set or not): every pod gets the same DefaultTolerationSeconds pair, each a new object.
 */
const validTolerations = new Set<string>();
const VALID_TOLERATIONS_KEPT = 4096;

function tolerationText(t: TolerationLike): string | undefined {
  const key = field(t.key);
  const operator = field(t.operator);
  const value = field(t.value);
  const effect = field(t.effect);
  if (key === undefined || operator === undefined || value === undefined || effect === undefined)
    return undefined;
  const seconds = t.tolerationSeconds === undefined || t.tolerationSeconds === null ? '-' : '+';
  return key + operator + value + effect + seconds;
}

/** A string field as `-` (absent) or `+<length>:<text>`, so joined fields never run together. */
function field(v: unknown): string | undefined {
  if (v === undefined) return '-';
  return typeof v === 'string' ? `+${v.length}:${v}` : undefined;
}

function tolerationCauses(field: string, tolerations: TolerationLike[] | undefined): Causes {
  const out: Causes = [];
  (tolerations ?? []).forEach((t, i) => {
    const text = t !== null && typeof t === 'object' ? tolerationText(t) : undefined;
    if (text !== undefined && validTolerations.has(text)) return;
    const before = out.length;
    oneTolerationCauses(out, field, t, i);
    if (text !== undefined && out.length === before) {
      if (validTolerations.size >= VALID_TOLERATIONS_KEPT) validTolerations.clear();
      validTolerations.add(text);
    }
  });
  return out;
}

function oneTolerationCauses(out: Causes, field: string, t: TolerationLike, i: number): void {
  const p = `${field}[${i}]`;
  if (t.key) out.push(...validateLabels(`${p}.key`, { [t.key]: '' }));
  if (!t.key && t.operator !== 'Exists') {
    out.push(
      invalidValue(
        `${p}.operator`,
        t.operator ?? '',
        'operator must be Exists when `key` is empty, which means "match all values and all keys"'
      )
    );
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
    out.push(
      invalidValue(
        `${p}.effect`,
        t.effect ?? '',
        "effect must be 'NoExecute' when `tolerationSeconds` is set"
      )
    );
  }
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      if (t.value) out.push(...validateLabels(`${p}.value`, { k: t.value }));
      break;
    case 'Exists':
      if (t.value)
        out.push(invalidValue(`${p}.operator`, t.value, "value must be empty when `operator` is 'Exists'"));
      break;
    default:
      out.push(notSupported(`${p}.operator`, t.operator, ['Equal', 'Exists']));
  }
  if (t.effect && !TAINT_EFFECTS.includes(t.effect))
    out.push(notSupported(`${p}.effect`, t.effect, TAINT_EFFECTS));
}

/**
 * Stored objects are frozen and never change, so a frozen part that passed validation once passes
 * every time (validation is a function of the value; the field path only names where a cause is).
 * Only passes are remembered: anything with causes is validated again, with its messages built
 * as ever. A container or toleration list that passed while not yet frozen counts once it is
 * frozen: the API server validates its own copy of a request and freezes that copy, unchanged,
 * when it stores it (a pod created from a template has them validated once more at its binding
 * otherwise). A whole spec is remembered only frozen, as before: a pod's new spec is validated
 * once (an update that keeps it is not validated again), so remembering it would only hold memory.
 */
const passedBefore = {
  containers: new WeakSet<object>(),
  tolerations: new WeakSet<object>(),
  podSpec: new WeakSet<object>(),
  templateSpec: new WeakSet<object>()
};

function remember(set: WeakSet<object>, v: unknown, causes: Causes, ownCopy = true): void {
  if (causes.length === 0 && v !== null && typeof v === 'object' && (ownCopy || Object.isFrozen(v)))
    set.add(v);
}

/** A part that passed before and is frozen (so it is still the value that passed). */
function passedAlready(set: WeakSet<object>, v: object): boolean {
  return Object.isFrozen(v) && set.has(v);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function validatePodSpec(field: string, spec: any, opts: { template?: boolean } = {}): Causes {
  const passed = opts.template ? passedBefore.templateSpec : passedBefore.podSpec;
  if (spec && passedAlready(passed, spec)) return [];
  const out = podSpecCauses(field, spec, opts);
  remember(passed, spec, out, false);
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function podSpecCauses(field: string, spec: any, opts: { template?: boolean }): Causes {
  const out: Causes = [];
  if (!spec) return [required(field)];
  if (!Array.isArray(spec.containers) || spec.containers.length === 0)
    out.push(required(`${field}.containers`));
  const names = new Set<string>();
  out.push(...validateContainers(`${field}.initContainers`, spec.initContainers, names));
  out.push(...validateContainers(`${field}.containers`, spec.containers, names));
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    out.push(notSupported(`${field}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES));
  }
  if (spec.dnsPolicy !== undefined && !DNS_POLICIES.includes(spec.dnsPolicy)) {
    out.push(notSupported(`${field}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES));
  }
  if (
    spec.activeDeadlineSeconds !== undefined &&
    spec.activeDeadlineSeconds !== null &&
    spec.activeDeadlineSeconds < 1
  ) {
    out.push(
      invalidValue(
        `${field}.activeDeadlineSeconds`,
        spec.activeDeadlineSeconds,
        'must be between 1 and 2147483647, inclusive'
      )
    );
  }
  if (
    spec.terminationGracePeriodSeconds !== undefined &&
    spec.terminationGracePeriodSeconds < 0 &&
    !opts.template
  ) {
    out.push(
      invalidValue(
        `${field}.terminationGracePeriodSeconds`,
        spec.terminationGracePeriodSeconds,
        'must be greater than or equal to 0'
      )
    );
  }
  out.push(...validateLabels(`${field}.nodeSelector`, spec.nodeSelector));
  out.push(...validateTolerations(`${field}.tolerations`, spec.tolerations));
  if (spec.nodeName) out.push(...validateName(`${field}.nodeName`, spec.nodeName, 'subdomain'));
  if (spec.priorityClassName)
    out.push(...validateName(`${field}.priorityClassName`, spec.priorityClassName, 'subdomain'));
  return out;
}

export function validatePodCreate(pod: KubeObject): Causes {
  return [...validateObjectMeta(pod, 'subdomain'), ...validatePodSpec('spec', pod.spec)];
}

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/**
 * ValidatePodUpdate: the spec is immutable except container images, activeDeadlineSeconds,
 * additions to tolerations, and the binding (spec.nodeName set once, as the binding subresource does).
 */
export function validatePodUpdate(pod: KubeObject, old: KubeObject): Causes {
  const meta = validateObjectMeta(pod, 'subdomain');
  // An untouched spec is the stored one itself (copy on write); otherwise compare the JSON.
  if (pod.spec === old.spec || sameJson(pod.spec, old.spec)) return meta;
  const out: Causes = [...meta];
  out.push(...validatePodSpec('spec', pod.spec));
  // Copies to take the mutable fields out of: only the levels the deletions below change.
  const a = mutableView(pod.spec ?? {});
  const b = mutableView(old.spec ?? {});
  for (const s of [a, b]) {
    for (const c of [...(s.containers ?? []), ...(s.initContainers ?? [])]) delete c.image;
    delete s.activeDeadlineSeconds;
    delete s.tolerations;
  }
  if (!b.nodeName) delete a.nodeName;
  if (b.terminationGracePeriodSeconds < 0 && a.terminationGracePeriodSeconds === 1)
    delete b.terminationGracePeriodSeconds;
  if (b.terminationGracePeriodSeconds < 0 && a.terminationGracePeriodSeconds === 1)
    delete a.terminationGracePeriodSeconds;
  // Scheduling gates may only be removed.
  if (
    (a.schedulingGates ?? []).every((g: { name: string }) =>
      (b.schedulingGates ?? []).some((x: { name: string }) => x.name === g.name)
    )
  ) {
    delete a.schedulingGates;
    delete b.schedulingGates;
  }
  if (!sameJson(a, b)) out.push(forbidden('spec', POD_UPDATE_FORBIDDEN));
  const oldTolerations = (old.spec?.tolerations ?? []) as TolerationLike[];
  const newTolerations = (pod.spec?.tolerations ?? []) as TolerationLike[];
  const kept = oldTolerations.every((t) => newTolerations.some((n) => sameJson(n, t)));
  if (!kept) out.push(forbidden('spec', POD_UPDATE_FORBIDDEN));
  if (
    old.spec?.activeDeadlineSeconds !== undefined &&
    (pod.spec?.activeDeadlineSeconds === undefined ||
      pod.spec.activeDeadlineSeconds > old.spec.activeDeadlineSeconds)
  ) {
    out.push(
      invalidValue(
        'spec.activeDeadlineSeconds',
        pod.spec?.activeDeadlineSeconds ?? null,
        'must be less than or equal to previous value'
      )
    );
  }
  return dedupe(out);
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/**
 * A copy of a pod spec that the comparison above may delete from: the spec object and its
 * containers' objects are copied (keys in the same order), everything below them is shared and
 * only read. A spec of another shape gets a full deep copy.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function mutableView(spec: any): any {
  const lists = isPlain(spec) ? [spec.containers, spec.initContainers] : [];
  const shallow =
    isPlain(spec) &&
    lists.every((l) => l === undefined || l === null || (Array.isArray(l) && l.every(isPlain)));
  if (!shallow) return structuredClone(spec);
  const out: Record<string, unknown> = { ...spec };
  for (const k of ['containers', 'initContainers']) {
    const l = out[k];
    if (Array.isArray(l)) out[k] = l.map((c) => ({ ...c }));
  }
  return out;
}

function dedupe(causes: Causes): Causes {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const k = `${c.field}\u0000${c.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
