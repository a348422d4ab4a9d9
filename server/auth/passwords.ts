import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  pw: string,
  salt: Buffer | string,
  len: number,
  opts: object,
) => Promise<Buffer>;
// N=2^15 costs ~50 ms on one core: slow for a guesser, quick enough for a login.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** scrypt's cost: what a stored hash names, so verifying needs no setting. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * `scrypt$N$r$p$salt$hash`, all base64url, so parameters can be raised later. `cost` is for data
 * made in bulk outside the product (benchmarks' thousands of accounts); the product never passes it.
 */
export async function hashPassword(password: string, cost: ScryptCost = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, 32, { ...cost, maxmem: PARAMS.maxmem });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** Checks a password against a dummy hash, so an unknown username costs as much time as a known one. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummyHash);
}

/**
 * A personal code is both the identifier and the secret, so it must be found by a deterministic
 * digest. scrypt with a fixed salt keeps that digest slow to brute-force if the database leaks.
 */
export function normalizePersonalCode(code: string): string {
  return code.trim().toUpperCase();
}
export async function personalCodeDigest(code: string): Promise<string> {
  const hash = await scrypt(normalizePersonalCode(code), 'portal-personal-code-v1', 32, PARAMS);
  return hash.toString('base64url');
}
