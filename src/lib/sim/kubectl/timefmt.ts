/** Time and size formatting exactly as kubectl, crictl and systemd print them. */

/** apimachinery util/duration.HumanDuration (AGE, LAST SEEN, RESTARTS "(2m ago)"). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** printers.go translateTimestampSince: `<unknown>` for a missing timestamp. */
export function since(ts: string | undefined | null, nowEpochMs: number): string {
  if (!ts) return '<unknown>';
  return humanDuration(nowEpochMs - Date.parse(ts));
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** Go time.RFC1123Z in UTC: `Thu, 01 Jan 2026 00:05:50 +0000` (kubectl describe). */
export function rfc1123z(ts: string | number | undefined | null): string {
  if (ts === undefined || ts === null || ts === '') return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(ts);
  return `${DAYS[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(
    d.getUTCHours()
  )}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

/** RFC 3339 without fractional seconds, as the API server writes timestamps. */
export function rfc3339(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `Jan 01 00:05:50` (journald short format, syslog style). */
export function syslogTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${MONTHS[d.getUTCMonth()]} ${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(
    d.getUTCSeconds()
  )}`;
}

/** klog header time: `0101 00:05:50.123456` (month, day, time with microseconds). */
export function klogTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(
    d.getUTCSeconds()
  )}.${String(d.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
}

/** systemd timestamp: `Thu 2026-01-01 00:05:50 UTC`. */
export function systemdTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(
    d.getUTCHours()
  )}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} UTC`;
}

/** `Thu Jan  1 00:05:50 2026` (C asctime, as iptables-save prints its header). */
export function asctime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p2(
    d.getUTCHours()
  )}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/** systemd format_timestamp_relative: `8s ago`, `5min ago`, `1h 5min ago`, `2 days ago`. */
export function systemdAgo(ms: number): string {
  const s = Math.floor(ms / 1000);
  const min = Math.floor(s / 60);
  const h = Math.floor(min / 60);
  const d = Math.floor(h / 24);
  if (d >= 7) return `${Math.floor(d / 7)} weeks ${d % 7} days ago`;
  if (d >= 2) return `${d} days ago`;
  if (h >= 25) return `1 day ${h - 24}h ago`;
  if (h >= 6) return `${h}h ago`;
  if (h >= 1) return `${h}h ${min % 60}min ago`;
  if (min >= 5) return `${min}min ago`;
  if (min >= 1) return `${min}min ${s % 60}s ago`;
  if (s >= 1) return `${s}s ago`;
  if (ms > 0) return `${ms}ms ago`;
  return 'now';
}

/** systemd format_timespan with millisecond accuracy: `5min 12.345s`, `2h 3min`. */
export function systemdTimespan(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000]
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0) {
    const sec = rest / 1000;
    parts.push(Number.isInteger(sec) ? `${sec}s` : `${sec.toFixed(3).replace(/0+$/, '')}s`);
  }
  return parts.join(' ') || '0';
}

/** docker/go-units HumanDuration + " ago" (crictl CREATED). */
export function unitsAgo(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  let s: string;
  if (seconds < 1) s = 'Less than a second';
  else if (seconds === 1) s = '1 second';
  else if (seconds < 60) s = `${seconds} seconds`;
  else {
    const minutes = Math.floor(seconds / 60);
    const hours = Math.floor(ms / 3_600_000 + 0.5);
    if (minutes === 1) s = 'About a minute';
    else if (minutes < 60) s = `${minutes} minutes`;
    else if (hours === 1) s = 'About an hour';
    else if (hours < 48) s = `${hours} hours`;
    else if (hours < 24 * 14) s = `${Math.floor(hours / 24)} days`;
    else if (hours < 24 * 60) s = `${Math.floor(hours / 24 / 7)} weeks`;
    else if (hours < 24 * 365 * 2) s = `${Math.floor(hours / 24 / 30)} months`;
    else s = `${Math.floor(ms / 3_600_000 / 24 / 365)} years`;
  }
  return `${s} ago`;
}

/** go-units HumanSizeWithPrecision(size, 3): decimal units, `%.3g`: 2.22MB, 72.3MB, 115MB, 742kB. */
export function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let size = bytes;
  let i = 0;
  while (size >= 1000 && i < units.length - 1) {
    size /= 1000;
    i++;
  }
  return `${Number(size.toPrecision(3))}${units[i]}`;
}
