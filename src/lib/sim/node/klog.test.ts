// upstream: staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/micro_time.go (RFC3339Micro)
import { describe, expect, it } from 'vitest';
import { microTime } from './klog';

describe('microTime', () => {
  it('writes RFC 3339 with six fractional digits, as a Lease renewTime is serialised', () => {
    const epoch = Date.UTC(2026, 0, 1);
    expect(microTime(epoch)).toBe('2026-01-01T00:00:00.000000Z');
    expect(microTime(epoch + 10_100)).toBe('2026-01-01T00:00:10.100000Z');
    expect(microTime(epoch + 86_399_999)).toBe('2026-01-01T23:59:59.999000Z');
  });

  it('is toISOString with three more digits for any instant, in any order (the second is formatted once)', () => {
    const epoch = Date.UTC(2026, 0, 1);
    const at = [0, 5, 5.7, 999, 1000, 1001, 10_050, 10_009.99, 59_999, 60_000, 3_600_000, 7, 86_400_123];
    for (const ms of [...at, ...[...at].reverse()]) {
      const iso = new Date(epoch + ms).toISOString();
      expect(microTime(epoch + ms)).toBe(`${iso.slice(0, -1)}000Z`);
    }
  });
});
