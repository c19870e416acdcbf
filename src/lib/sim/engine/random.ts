/**
 * Seeded pseudo-random numbers (sfc32). The whole state is four 32-bit integers, so it
 * serialises into a snapshot and a restored run draws exactly the same numbers.
 */
export type RandomState = [number, number, number, number];

/** Two lower-case hex digits per byte value. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const HEX_CODES = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
/** A uid's characters (8-4-4-4-12 hex digits), dashes set; `UID_PLACE[i]` is where hex digit i goes. */
const UID_CODES: number[] = Array.from('xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx', (ch) => ch.charCodeAt(0));
const UID_PLACE = Array.from(
  { length: 32 },
  (_, i) => i + (i >= 8 ? 1 : 0) + (i >= 12 ? 1 : 0) + (i >= 16 ? 1 : 0) + (i >= 20 ? 1 : 0)
);

export class Random {
  private s: RandomState;

  constructor(seed: number | RandomState) {
    if (Array.isArray(seed)) {
      this.s = [...seed] as RandomState;
    } else {
      // splitmix32 spreads a small integer seed over the four words.
      let x = seed >>> 0;
      const next = () => {
        x = (x + 0x9e3779b9) >>> 0;
        let z = x;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
        return (z ^ (z >>> 16)) >>> 0;
      };
      this.s = [next(), next(), next(), next()];
      for (let i = 0; i < 12; i++) this.nextUint32();
    }
  }

  nextUint32(): number {
    // The four words are updated in place: the scheduler draws one per tied node.
    const s = this.s;
    const a = s[0];
    const b = s[1];
    const c = s[2];
    const d = s[3];
    const t = (((a + b) >>> 0) + d) >>> 0;
    const c2 = (c << 21) | (c >>> 11);
    s[0] = (b ^ (b >>> 9)) >>> 0;
    s[1] = (c + (c << 3)) >>> 0;
    s[2] = (c2 + t) >>> 0;
    s[3] = (d + 1) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Lower-case hex string of `len` characters (container ids, uids). */
  hex(len: number): string {
    let out = '';
    while (out.length < len) {
      const n = this.nextUint32();
      out += BYTE_HEX[n >>> 24] + BYTE_HEX[(n >>> 16) & 255] + BYTE_HEX[(n >>> 8) & 255] + BYTE_HEX[n & 255];
    }
    return out.length === len ? out : out.slice(0, len);
  }

  /** Kubernetes generateName suffix: 5 characters from the alphabet apimachinery uses. */
  nameSuffix(len = 5): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let out = '';
    for (let i = 0; i < len; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }

  uid(): string {
    // The 32 hex digits of four draws, as `hex(32)` gives them, with the version and variant
    // digits set and the dashes in place, made into one flat string: a uid joined from slices is
    // a tree of ten strings (about 400 bytes, not 56), and every object keeps its uid.
    const c = UID_CODES;
    for (let w = 0; w < 4; w++) {
      const n = this.nextUint32();
      for (let k = 0; k < 8; k++) c[UID_PLACE[w * 8 + k]] = HEX_CODES[(n >>> (28 - 4 * k)) & 15];
    }
    c[UID_PLACE[12]] = 0x34; // '4'
    c[UID_PLACE[16]] = 0x61; // 'a'
    return String.fromCharCode.apply(null, c);
  }

  getState(): RandomState {
    return [...this.s] as RandomState;
  }
}
