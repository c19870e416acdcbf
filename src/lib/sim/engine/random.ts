/**
 * Seeded pseudo-random numbers (sfc32). The whole state is four 32-bit integers, so it
 * serialises into a snapshot and a restored run draws exactly the same numbers.
 */
export type RandomState = [number, number, number, number];

/** Two lower-case hex digits per byte value. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

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
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  getState(): RandomState {
    return [...this.s] as RandomState;
  }
}
