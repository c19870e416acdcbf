/** How the kubelet words times and errors in its log and objects (klog / client-go). */
import { ConnectionError } from '../api/errors';

/** The last second `microTime` formatted ("YYYY-MM-DDTHH:MM:SS."), and which second it was. */
let microSecond = NaN;
let microPrefix = '';

/**
 * metav1.MicroTime as it is serialised: RFC 3339 with six fractional digits (what
 * `new Date(epochMs).toISOString()` gives, with three more digits before the Z). Every Lease
 * renewal writes one, so the date and time of day are formatted once per second, not each time.
 */
export function microTime(epochMs: number): string {
  // A Date holds whole milliseconds (TimeClip truncates).
  const ms = Math.trunc(epochMs);
  const second = Math.floor(ms / 1000);
  if (second !== microSecond) {
    microPrefix = new Date(second * 1000).toISOString().slice(0, -4);
    microSecond = second;
  }
  const frac = ms - second * 1000;
  return `${microPrefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}000Z`;
}

export function errText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/"/g, '\\"');
}

const API_SERVER = 'https://10.0.0.10:6443';

/**
 * How client-go words a failed request in the kubelet's log: a transport error carries the verb
 * and URL (`Put "https://…": dial tcp …: i/o timeout`), an API error its status message.
 */
export function clientErr(e: unknown, method: string, path: string): string {
  if (e instanceof ConnectionError) {
    const dial = e.message.startsWith('dial tcp')
      ? e.message
      : 'dial tcp 10.0.0.10:6443: connect: connection refused';
    return errText(new Error(`${method} "${API_SERVER}${path}?timeout=10s": ${dial}`));
  }
  return errText(e);
}
