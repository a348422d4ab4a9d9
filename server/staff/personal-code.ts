import { randomInt } from 'node:crypto';

/**
 * 32 symbols without look-alikes (no I, O, 0, 1), so a code read aloud or copied by hand survives.
 * 10 symbols give 32^10 (about 10^15) codes, 50 bits: with no brake over all addresses, the code
 * space alone makes guessing hopeless (docs/security.md, Login limits, gives the figures).
 */
export const PERSONAL_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const GROUPS = [4, 4, 2];

/** The entropy of every code newPersonalCode() issues. */
export const PERSONAL_CODE_BITS =
  GROUPS.reduce((sum, n) => sum + n, 0) * Math.log2(PERSONAL_CODE_ALPHABET.length);

/** A fresh random personal code such as `K7QX-M2PA-HR`, from the crypto RNG without modulo bias. */
export function newPersonalCode(): string {
  return GROUPS.map((n) =>
    Array.from({ length: n }, () => PERSONAL_CODE_ALPHABET[randomInt(PERSONAL_CODE_ALPHABET.length)]).join(
      '',
    ),
  ).join('-');
}
