/** Virtual time as the lab's clock shows it: `0s`, `50s`, `5m50s`, `1h2m3s` (kubectl-style units). */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

/** A countdown with tenths below ten seconds, so a ticking eviction is visible at high speed. */
export function formatCountdown(ms: number): string {
  return ms < 10_000 ? `${(Math.max(0, ms) / 1000).toFixed(1)}s` : formatClock(ms);
}
