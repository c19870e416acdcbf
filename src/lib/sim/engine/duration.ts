/** Durations as Go and Kubernetes write them ("90s", "5m", "1h30m", "250ms"), in milliseconds. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) throw new Error(`invalid duration ${input}`);
    return input * 1000;
  }
  const s = input.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
  let total = 0;
  let consumed = 0;
  for (const m of s.matchAll(re)) {
    if (m.index !== consumed) break;
    total += parseFloat(m[1]) * UNIT_MS[m[2]];
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== s.length) {
    throw new Error(`invalid duration "${input}": use a number with a unit, like 90s, 5m or 1h30m`);
  }
  return Math.round(total);
}

/** Go's time.Duration.String() for whole milliseconds: 5m0s, 1h2m3s, 1.5s, 300ms. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  let out = '';
  if (h) out += `${h}h`;
  if (h || m) out += `${m}m`;
  out += `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  return (neg ? '-' : '') + out;
}

/** Short virtual clock display used by the UI and CLI: 5m50s, 1h2m, 42s. */
export function formatClock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}h${String(m).padStart(2, '0')}m${String(s).padStart(2, '0')}s`;
  if (m) return `${m}m${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}
