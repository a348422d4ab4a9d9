import { describe, expect, it } from 'vitest';
import {
  newPersonalCode,
  PERSONAL_CODE_ALPHABET,
  PERSONAL_CODE_BITS,
} from '../../../server/staff/personal-code.ts';

// Personal codes have no brake over all addresses (a flood of wrong codes must not keep participants
// out), so their whole defence is the code space: at least 50 bits in every code the server issues.
describe('a personal code', () => {
  it('carries at least 50 bits: 10 symbols, each of 32, drawn independently', () => {
    const code = newPersonalCode();
    const symbols = code.replaceAll('-', '');
    expect(new Set(PERSONAL_CODE_ALPHABET).size).toBe(32);
    expect(symbols).toHaveLength(10);
    expect(PERSONAL_CODE_BITS).toBe(symbols.length * Math.log2(PERSONAL_CODE_ALPHABET.length));
    expect(PERSONAL_CODE_BITS).toBeGreaterThanOrEqual(50);
  });

  it('uses every symbol at every position about as often (no bias a guesser could use)', () => {
    const draws = 32_000;
    const counts = Array.from({ length: 10 }, () => new Map<string, number>());
    for (let i = 0; i < draws; i++) {
      [...newPersonalCode().replaceAll('-', '')].forEach((symbol, position) => {
        counts[position]!.set(symbol, (counts[position]!.get(symbol) ?? 0) + 1);
      });
    }
    for (const atPosition of counts) {
      expect(atPosition.size).toBe(32);
      // Expected 1,000 each; a fair draw stays within ±20 % with overwhelming probability.
      for (const n of atPosition.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
    }
  });
});
