/**
 * A short fingerprint of a string (length plus two independent 32-bit hashes), for state that only
 * needs to know whether a value changed since it was last written: the kubelet keeps the
 * fingerprint of each pod's last posted status instead of the whole JSON, which kept snapshots large.
 */
export function fingerprint(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 15), 0xc2b2ae35);
  return `#${s.length.toString(36)}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
}
