/** IPv4 arithmetic for CIDRs, pod ranges and Service ranges. */
export function ipToInt(ip: string): number {
  const p = ip.split('.').map((x) => parseInt(x, 10));
  if (p.length !== 4 || p.some((x) => !(x >= 0 && x <= 255))) throw new Error(`invalid IPv4 address "${ip}"`);
  return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0;
}

export function intToIp(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

export interface Cidr {
  base: number;
  bits: number;
  size: number;
}

export function parseCidr(cidr: string): Cidr {
  const [ip, b] = cidr.split('/');
  const bits = parseInt(b ?? '32', 10);
  const size = 2 ** (32 - bits);
  const base = bits === 0 ? 0 : (ipToInt(ip) & ~(size - 1)) >>> 0;
  return { base, bits, size };
}

export function cidrContains(cidr: string, ip: string): boolean {
  const c = parseCidr(cidr);
  const n = ipToInt(ip);
  return n >= c.base && n < c.base + c.size;
}

/** The i-th subnet of `mask` bits inside `cidr` (node pod CIDRs: 10.244.0.0/16, 24, 2 → 10.244.2.0/24). */
export function subnet(cidr: string, mask: number, i: number): string {
  const c = parseCidr(cidr);
  const step = 2 ** (32 - mask);
  return `${intToIp((c.base + i * step) >>> 0)}/${mask}`;
}

/** Address at offset `i` from the start of `cidr`. */
export function addrAt(cidr: string, i: number): string {
  return intToIp((parseCidr(cidr).base + i) >>> 0);
}
