/**
 * Share links and export files: a recording (scenario text, virtual time, learner actions)
 * deflated with fflate and base64url-encoded into the URL fragment, so opening the link replays
 * the same experiment to the same moment without any server.
 */
import { deflateSync, inflateSync, strToU8, strFromU8 } from 'fflate';
import type { LabAction, LabRecording } from '$lib/sim/session/protocol';
import { isLabAction } from './action';

export { isLabAction };

const FRAGMENT_PREFIX = 'lab=';
export const RECORDING_FORMAT = 'nodeplane.dev/lab/v1';

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Check an untrusted value (a link, an imported file) and return it as a recording. */
export function parseRecording(value: unknown): LabRecording {
  const v = value as Record<string, unknown> | null;
  if (!v || typeof v !== 'object' || v.format !== RECORDING_FORMAT)
    throw new Error(`not a Nodeplane lab file (format ${RECORDING_FORMAT} expected)`);
  if (typeof v.scenario !== 'string' || typeof v.fileName !== 'string')
    throw new Error('the lab file has no scenario');
  if (typeof v.t !== 'number' || !Number.isFinite(v.t) || v.t < 0)
    throw new Error('the lab file has no valid time');
  if (!Array.isArray(v.actions) || !v.actions.every(isLabAction))
    throw new Error('the lab file has an invalid action list');
  return { scenario: v.scenario, fileName: v.fileName, t: v.t, actions: v.actions as LabAction[] };
}

export function recordingToJSON(r: LabRecording): string {
  return JSON.stringify({ format: RECORDING_FORMAT, ...r }, null, 2);
}

export function encodeFragment(r: LabRecording): string {
  const json = JSON.stringify({ format: RECORDING_FORMAT, ...r });
  return FRAGMENT_PREFIX + toBase64Url(deflateSync(strToU8(json), { level: 9 }));
}

/** Decode a `#lab=...` fragment (with or without the `#`); undefined when it holds no recording. */
export function decodeFragment(fragment: string): LabRecording | undefined {
  const f = fragment.replace(/^#/, '');
  if (!f.startsWith(FRAGMENT_PREFIX)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(strFromU8(inflateSync(fromBase64Url(f.slice(FRAGMENT_PREFIX.length)))));
  } catch (e) {
    // A link cut short or changed by hand: base64, deflate or JSON fails part-way.
    throw new Error(`the share link is damaged (${(e as Error).message || 'cannot be decoded'})`, {
      cause: e
    });
  }
  return parseRecording(value);
}
