/**
 * field.Error from k8s.io/apimachinery/pkg/util/validation/field, as StatusCauses: the message is
 * what follows `<field>: ` in kube-apiserver's `... is invalid: <field>: <message>`.
 */
import type { StatusCause } from '../../errors';

export type Causes = StatusCause[];

/** Go's `%#v`-like rendering used in `Invalid value: ...` for the value types Nodeplane reports. */
export function goValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0
    );
    if (entries.every(([, x]) => typeof x === 'string')) {
      return `map[string]string{${entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(', ')}}`;
    }
  }
  return JSON.stringify(v);
}

export function required(field: string, detail = ''): StatusCause {
  return {
    field,
    reason: 'FieldValueRequired',
    message: detail ? `Required value: ${detail}` : 'Required value'
  };
}

export function invalidValue(field: string, value: unknown, detail: string): StatusCause {
  return { field, reason: 'FieldValueInvalid', message: `Invalid value: ${goValue(value)}: ${detail}` };
}

export function notSupported(field: string, value: unknown, supported: string[]): StatusCause {
  return {
    field,
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${goValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`
  };
}

export function forbidden(field: string, detail: string): StatusCause {
  return { field, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
}

export function duplicate(field: string, value: unknown): StatusCause {
  return { field, reason: 'FieldValueDuplicate', message: `Duplicate value: ${goValue(value)}` };
}

export function tooLong(field: string, max: number): StatusCause {
  return { field, reason: 'FieldValueTooLong', message: `Too long: may not be more than ${max} bytes` };
}
