// upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity)
import { describe, expect, it } from 'vitest';
import { QuantityError, parseQuantity, tryParseQuantity } from './quantity';

describe('parseQuantity parses each text once', () => {
  it('gives the same milli-units on every read of the same text', () => {
    for (let i = 0; i < 3; i++) {
      expect(parseQuantity('128Mi')).toBe(128 * 2 ** 20 * 1000);
      expect(parseQuantity(' 1.5 ')).toBe(1500);
      expect(parseQuantity('500m')).toBe(500);
      expect(parseQuantity('1e3')).toBe(1_000_000);
      expect(tryParseQuantity('2Gi')).toBe(2 * 2 ** 30 * 1000);
    }
  });

  it('rejects bad text with the API server wording every time, and tryParseQuantity with undefined', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => parseQuantity('12 apples')).toThrow(QuantityError);
      expect(() => parseQuantity('12 apples')).toThrow(
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
      );
      expect(tryParseQuantity('12 apples')).toBeUndefined();
    }
    expect(tryParseQuantity(Number.NaN)).toBeUndefined();
    expect(tryParseQuantity({})).toBeUndefined();
    expect(tryParseQuantity(2)).toBe(2000);
  });

  it('keeps parsing correctly past the bound of kept texts', () => {
    for (let i = 0; i < 5000; i++) expect(parseQuantity(`${i}Ki`)).toBe(i * 1024 * 1000);
    expect(parseQuantity('128Mi')).toBe(128 * 2 ** 20 * 1000);
  });
});
