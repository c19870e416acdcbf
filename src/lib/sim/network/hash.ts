/**
 * SHA-256 and RFC 4648 base32 in plain TypeScript: kube-proxy names its chains from
 * base32(sha256(...)) and the simulator runs in the browser, where node:crypto is not available.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2
]);

const ENCODER = new TextEncoder();

/** Message schedule, reused between calls (the simulator is single-threaded). */
const W = new Uint32Array(64);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** Input bytes with padding, reused between calls and grown when a longer string comes. */
let block = new Uint8Array(128);
const H = new Uint32Array(8);

/** UTF-8 bytes of `input` padded to whole 64-byte blocks in `block`; returns the padded length. */
function pad(input: string): number {
  let n = input.length;
  let ascii = true;
  for (let i = 0; i < n; i++) if (input.charCodeAt(i) > 0x7f) ascii = false;
  let bytes: Uint8Array | null = null;
  if (!ascii) {
    bytes = ENCODER.encode(input);
    n = bytes.length;
  }
  const padded = ((n + 9 + 63) >> 6) << 6;
  if (block.length < padded) block = new Uint8Array(padded * 2);
  if (bytes) block.set(bytes);
  else for (let i = 0; i < n; i++) block[i] = input.charCodeAt(i);
  block.fill(0, n, padded);
  block[n] = 0x80;
  const bitLen = n * 8;
  const hi = Math.floor(bitLen / 0x100000000);
  const lo = bitLen >>> 0;
  block[padded - 8] = hi >>> 24;
  block[padded - 7] = (hi >>> 16) & 255;
  block[padded - 6] = (hi >>> 8) & 255;
  block[padded - 5] = hi & 255;
  block[padded - 4] = lo >>> 24;
  block[padded - 3] = (lo >>> 16) & 255;
  block[padded - 2] = (lo >>> 8) & 255;
  block[padded - 1] = lo & 255;
  return padded;
}

/** SHA-256 of `input` into H (eight big-endian words). */
function digest(input: string): Uint32Array {
  const len = pad(input);
  const m = block;
  const h = H;
  h[0] = 0x6a09e667;
  h[1] = 0xbb67ae85;
  h[2] = 0x3c6ef372;
  h[3] = 0xa54ff53a;
  h[4] = 0x510e527f;
  h[5] = 0x9b05688c;
  h[6] = 0x1f83d9ab;
  h[7] = 0x5be0cd19;
  const w = W;
  for (let off = 0; off < len; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4;
      w[i] = ((m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3]) >>> 0;
    }
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let a = h[0],
      b = h[1],
      c = h[2],
      d = h[3],
      e = h[4],
      f = h[5],
      g = h[6],
      hh = h[7];
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  return h;
}

export function sha256(input: string): Uint8Array {
  const h = digest(input);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = (h[i] >>> 16) & 255;
    out[i * 4 + 2] = (h[i] >>> 8) & 255;
    out[i * 4 + 3] = h[i] & 255;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * base32(sha256(input))[:16], the prefix kube-proxy's chain names use: the first 80 bits of the
 * digest, five bits per character (the same characters base32 gives for the whole digest).
 */
export function sha256Base32Prefix16(input: string): string {
  const h = digest(input);
  // 80 bits: h[0] h[1] and the top 16 bits of h[2].
  const b0 = h[0];
  const b1 = h[1];
  const b2 = h[2] >>> 16;
  let out = '';
  // Take five bits at a time from the 80-bit big-endian number b0:b1:b2.
  for (let i = 0; i < 16; i++) {
    const bit = i * 5;
    let v: number;
    if (bit + 5 <= 32) v = (b0 >>> (27 - bit)) & 31;
    else if (bit < 32) v = ((b0 << (bit - 27)) | (b1 >>> (59 - bit))) & 31;
    else if (bit + 5 <= 64) v = (b1 >>> (59 - bit)) & 31;
    else if (bit < 64) v = ((b1 << (bit - 59)) | (b2 >>> (16 - (bit + 5 - 64)))) & 31;
    else v = (b2 >>> (16 - (bit + 5 - 64))) & 31;
    out += ALPHABET[v];
  }
  return out;
}

export function sha256Hex(input: string): string {
  return [...sha256(input)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Go's base32.StdEncoding (RFC 4648 alphabet, '=' padding). */
export function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}
