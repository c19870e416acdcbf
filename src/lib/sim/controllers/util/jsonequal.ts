/**
 * `JSON.stringify(a) === JSON.stringify(b)` for JSON data (plain objects, arrays, strings, numbers,
 * booleans, null, undefined), without building either string: the controllers compare a desired
 * object with a stored one on every sync, and most syncs find them equal.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = jsonType(a);
  const tb = jsonType(b);
  if (ta !== tb) {
    // NaN is written as null, a Date as a string: compare what is written.
    const written = (t: JsonType) => t === 'number' || t === 'tojson';
    return written(ta) || written(tb) ? JSON.stringify(a) === JSON.stringify(b) : false;
  }
  switch (ta) {
    case 'omit':
    case 'null':
      return true;
    case 'number':
    case 'tojson':
      // NaN and ±Infinity are written as null; a Date (toJSON) as its own string.
      return JSON.stringify(a) === JSON.stringify(b);
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        // In an array, a value JSON omits is written as null.
        const u = jsonType(x[i]) === 'omit' ? null : x[i];
        const v = jsonType(y[i]) === 'omit' ? null : y[i];
        if (!jsonEqual(u, v)) return false;
      }
      return true;
    }
    case 'object': {
      const kx = writtenKeys(a as Record<string, unknown>);
      const ky = writtenKeys(b as Record<string, unknown>);
      if (kx.length !== ky.length) return false;
      for (let i = 0; i < kx.length; i++) {
        if (kx[i] !== ky[i]) return false;
        if (!jsonEqual((a as Record<string, unknown>)[kx[i]], (b as Record<string, unknown>)[ky[i]]))
          return false;
      }
      return true;
    }
    default:
      return false;
  }
}

type JsonType = 'omit' | 'null' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'tojson';

function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'undefined':
    case 'function':
    case 'symbol':
      return 'omit';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      if (Array.isArray(v)) return 'array';
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return 'tojson';
      return 'object';
  }
}

/** The keys JSON.stringify writes, in its order. */
function writtenKeys(o: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(o)) if (jsonType(o[k]) !== 'omit') out.push(k);
  return out;
}
