/**
 * resource.Quantity as Kubernetes writes it: "500m", "2", "1.5", "128Mi", "1G", "1e3".
 * Values are held in milli-units as numbers (exact for every quantity a node can have).
 */
const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60
};
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18
};

const QUANTITY_RE = /^([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

export class QuantityError extends Error {}

/**
 * Quantities already parsed, by their text: a node's capacity, thresholds and pod requests are
 * read again every period with the same few strings. Text that is not a quantity is kept as NaN
 * and throws the same error each time; the map starts again when it reaches its bound, so
 * hostile input cannot grow it.
 */
const parsed = new Map<string, number>();
const PARSED_LIMIT = 4096;

/** Parse a quantity into milli-units. Throws QuantityError with kube-apiserver's wording. */
export function parseQuantity(q: string | number): number {
  if (typeof q === 'number') {
    if (!Number.isFinite(q)) throw new QuantityError('quantities must match the regular expression');
    return Math.round(q * 1000);
  }
  const milli = lookup(q);
  if (Number.isNaN(milli)) throw new QuantityError(QUANTITY_FORMAT);
  return milli;
}

/** Same as parseQuantity but returns undefined instead of throwing. */
export function tryParseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? Math.round(q * 1000) : undefined;
  if (typeof q !== 'string') return undefined;
  const milli = lookup(q);
  return Number.isNaN(milli) ? undefined : milli;
}

const QUANTITY_FORMAT =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The milli-units of a quantity's text (NaN when it is not one), parsed once per text. */
function lookup(q: string): number {
  if (typeof q !== 'string') return parseText(String(q));
  let milli = parsed.get(q);
  if (milli === undefined) {
    milli = parseText(q);
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(q, milli);
  }
  return milli;
}

function parseText(q: string): number {
  const s = q.trim();
  const m = QUANTITY_RE.exec(s);
  if (!m) return NaN;
  const num = parseFloat(m[1]);
  const suffix = m[2] ?? '';
  let mult: number;
  if (suffix in BINARY) mult = BINARY[suffix];
  else if (suffix in DECIMAL) mult = DECIMAL[suffix];
  else mult = Math.pow(10, parseInt(suffix.slice(1), 10));
  return Math.round(num * mult * 1000);
}

/** Whole units (bytes, pods, GPUs) from milli-units. */
export function milliToUnits(milli: number): number {
  return Math.floor(milli / 1000);
}

/** CPU as Kubernetes prints it: "1", "500m", "2500m". */
export function formatCPU(milli: number): string {
  if (milli % 1000 === 0) return String(milli / 1000);
  return `${Math.round(milli)}m`;
}

/**
 * Memory and storage in the canonical binary form when exact ("128Mi", "28.5Gi" is written "29184Mi"
 * by Kubernetes), else plain bytes.
 */
export function formatBytes(milli: number): string {
  const bytes = Math.round(milli / 1000);
  if (bytes === 0) return '0';
  for (const [suffix, mult] of [
    ['Ei', BINARY.Ei],
    ['Pi', BINARY.Pi],
    ['Ti', BINARY.Ti],
    ['Gi', BINARY.Gi],
    ['Mi', BINARY.Mi],
    ['Ki', BINARY.Ki]
  ] as const) {
    if (bytes % mult === 0) return `${bytes / mult}${suffix}`;
  }
  return String(bytes);
}

/** Format a resource value by name: cpu in cores/millicores, memory-like in bytes, counts as integers. */
export function formatResource(name: string, milli: number): string {
  if (name === 'cpu') return formatCPU(milli);
  if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-'))
    return formatBytes(milli);
  return String(Math.round(milli / 1000));
}
