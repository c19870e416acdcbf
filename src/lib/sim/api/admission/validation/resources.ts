/** ValidateResourceRequirements (pkg/apis/core/validation): names, non-negative quantities, requests vs limits. */
import { tryParseQuantity } from '../../quantity';
import { invalidValue, required, type Causes } from './field';

const QUANTITY_RE_MSG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

const isHugePages = (name: string) => name.startsWith('hugepages-');
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');

/** Extended resources (nvidia.com/gpu) and hugepages cannot be overcommitted: request must equal limit. */
export function isOvercommitAllowed(name: string): boolean {
  return isNative(name) && !isHugePages(name);
}

function quantityString(q: unknown): string {
  return typeof q === 'number' ? String(q) : String(q);
}

function validateResourceName(field: string, name: string): Causes {
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
      return [invalidValue(field, name, 'must be a standard resource for containers')];
    }
    return [];
  }
  if (!isNative(name) && name.split('/').length !== 2) {
    return [invalidValue(field, name, "doesn't follow extended resource name standard")];
  }
  return [];
}

/** Parse every quantity of a resource list; bad syntax and negative values become causes. */
function parseList(
  field: string,
  list: Record<string, unknown> | undefined,
  out: Causes
): Map<string, number> {
  const parsed = new Map<string, number>();
  for (const [name, q] of Object.entries(list ?? {})) {
    const f = `${field}[${name}]`;
    out.push(...validateResourceName(f, name));
    const v = tryParseQuantity(q);
    if (v === undefined) {
      out.push(invalidValue(f, quantityString(q), QUANTITY_RE_MSG));
      continue;
    }
    if (v < 0) out.push(invalidValue(f, quantityString(q), 'must be greater than or equal to 0'));
    parsed.set(name, v);
  }
  return parsed;
}

export function validateResourceRequirements(
  field: string,
  resources: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } | undefined
): Causes {
  const out: Causes = [];
  const limPath = `${field}.limits`;
  const reqPath = `${field}.requests`;
  const limits = parseList(limPath, resources?.limits, out);
  const requests = parseList(reqPath, resources?.requests, out);
  for (const [name, req] of requests) {
    const lim = limits.get(name);
    const reqStr = quantityString(resources!.requests![name]);
    if (lim !== undefined) {
      const limStr = quantityString(resources!.limits![name]);
      if (req !== lim && !isOvercommitAllowed(name)) {
        out.push(invalidValue(reqPath, reqStr, `must be equal to ${name} limit of ${limStr}`));
      } else if (req > lim) {
        out.push(invalidValue(reqPath, reqStr, `must be less than or equal to ${name} limit of ${limStr}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      out.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  return out;
}

/** Node capacity / allocatable: every quantity parses and is not negative. */
export function validateResourceList(field: string, list: Record<string, unknown> | undefined): Causes {
  const out: Causes = [];
  for (const [name, q] of Object.entries(list ?? {})) {
    const f = `${field}[${name}]`;
    const v = tryParseQuantity(q);
    if (v === undefined) out.push(invalidValue(f, quantityString(q), QUANTITY_RE_MSG));
    else if (v < 0) out.push(invalidValue(f, quantityString(q), 'must be greater than or equal to 0'));
  }
  return out;
}
