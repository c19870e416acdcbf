/** How the kubelet words times and errors in its log and objects (klog / client-go). */
import { ConnectionError } from '../api/errors';

/** metav1.MicroTime as it is serialised: RFC 3339 with six fractional digits. */
export function microTime(epochMs: number): string {
  // toISOString always ends in ".sssZ": the three more digits go before the Z.
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, -1)}000Z`;
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
