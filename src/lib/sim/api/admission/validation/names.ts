/** Name and label checks with the messages of k8s.io/apimachinery/pkg/util/validation. */
import { invalidValue, type Causes } from './field';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';

const full = (re: string) => new RegExp(`^${re}$`);
const dns1123LabelRe = full(DNS1123_LABEL);
const dns1123SubdomainRe = full(DNS1123_SUBDOMAIN);
const dns1035LabelRe = full(DNS1035_LABEL);
const qualifiedNameRe = full(QUALIFIED_NAME);
const labelValueRe = full(LABEL_VALUE);

export const DNS1123_SUBDOMAIN_MSG = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`;
export const DNS1123_LABEL_MSG = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`;
export const DNS1035_LABEL_MSG = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL}')`;
const QUALIFIED_NAME_MSG = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}')`;
const LABEL_VALUE_MSG = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`;

export type NameRule = 'subdomain' | 'label' | 'dns1035';

/** IsDNS1123Subdomain / IsDNS1123Label / IsDNS1035Label: the list of problems (empty when valid). */
export function nameProblems(name: string, rule: NameRule): string[] {
  const out: string[] = [];
  const max = rule === 'subdomain' ? 253 : 63;
  if (name.length > max) out.push(`must be no more than ${max} characters`);
  const re = rule === 'subdomain' ? dns1123SubdomainRe : rule === 'label' ? dns1123LabelRe : dns1035LabelRe;
  const msg =
    rule === 'subdomain' ? DNS1123_SUBDOMAIN_MSG : rule === 'label' ? DNS1123_LABEL_MSG : DNS1035_LABEL_MSG;
  if (!re.test(name)) out.push(msg);
  return out;
}

export function validateName(field: string, name: string, rule: NameRule): Causes {
  // A name is checked on every write of its object: the names that passed are remembered, a few
  // thousand per rule (the check is a function of the text).
  const ok = validNames[rule];
  if (ok.has(name)) return [];
  const problems = nameProblems(name, rule);
  if (problems.length === 0) {
    if (ok.size >= VALID_NAMES_KEPT) ok.clear();
    ok.add(name);
    return [];
  }
  return problems.map((p) => invalidValue(field, name, p));
}

const VALID_NAMES_KEPT = 8192;
const validNames: Record<NameRule, Set<string>> = {
  subdomain: new Set(),
  label: new Set(),
  dns1035: new Set()
};

/** IsQualifiedName: an optional DNS subdomain prefix and a name part of at most 63 characters. */
function qualifiedNameProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`
    ];
  }
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  const out: string[] = [];
  if (prefix !== undefined) {
    if (!prefix) out.push('prefix part must be non-empty');
    else for (const p of nameProblems(prefix, 'subdomain')) out.push(`prefix part ${p}`);
  }
  if (!name) out.push('name part must be non-empty');
  else {
    if (name.length > 63) out.push('name part must be no more than 63 characters');
    if (!qualifiedNameRe.test(name)) out.push(QUALIFIED_NAME_MSG);
  }
  return out;
}

/** IsQualifiedName: no problems. */
export function isQualifiedName(key: string): boolean {
  return qualifiedNameProblems(key).length === 0;
}

/** IsValidLabelValue: at most 63 characters of the label-value alphabet (empty is valid). */
export function isValidLabelValue(value: string): boolean {
  return value.length <= 63 && labelValueRe.test(value);
}

/** ValidateLabels: keys are qualified names, values valid label values (63 characters at most). */
/**
 * Label maps and annotation maps of stored objects are frozen and shared from version to version:
 * one that passed once passes again (only passes are remembered). A map that passed as the API
 * server's own copy of a request counts once it is frozen (stored as it passed).
 */
const passedLabels = new WeakSet<object>();
const passedAnnotationKeys = new WeakSet<object>();

function passed(set: WeakSet<object>, v: object | undefined, ownCopy: boolean, run: () => Causes): Causes {
  if (v && Object.isFrozen(v) && set.has(v)) return [];
  const out = run();
  if (out.length === 0 && v !== null && typeof v === 'object' && (ownCopy || Object.isFrozen(v))) set.add(v);
  return out;
}

/**
 * `ownCopy`: `labels` is the API server's own copy of a request's map, which it stores (frozen)
 * unchanged if the write goes through; a pass is then remembered before it is frozen.
 */
export function validateLabels(
  field: string,
  labels: Record<string, unknown> | undefined,
  ownCopy = false
): Causes {
  return passed(passedLabels, labels, ownCopy, () => labelCauses(field, labels));
}

function labelCauses(field: string, labels: Record<string, unknown> | undefined): Causes {
  const out: Causes = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const p of qualifiedNameProblems(k)) out.push(invalidValue(field, k, p));
    const value = String(v ?? '');
    if (value.length > 63) out.push(invalidValue(field, value, 'must be no more than 63 characters'));
    if (!labelValueRe.test(value)) out.push(invalidValue(field, value, LABEL_VALUE_MSG));
  }
  return out;
}

/** Annotation keys are qualified names too. */
export function validateAnnotationKeys(
  field: string,
  annotations: Record<string, unknown> | undefined,
  ownCopy = false
): Causes {
  return passed(passedAnnotationKeys, annotations, ownCopy, () => annotationKeyCauses(field, annotations));
}

function annotationKeyCauses(field: string, annotations: Record<string, unknown> | undefined): Causes {
  const out: Causes = [];
  for (const k of Object.keys(annotations ?? {})) {
    for (const p of qualifiedNameProblems(k)) out.push(invalidValue(field, k, p));
  }
  return out;
}
