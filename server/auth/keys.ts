import { exportJWK, generateKeyPair, importJWK, calculateJwkThumbprint, type JWK } from 'jose';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';

export const SIGNING_ALG = 'ES256';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export interface KeySet {
  /** The key new tokens are signed with: the oldest, so that every process picks the same one. */
  signing: SigningKey;
  /** Every key a token may have been signed with, published in the JWKS. */
  all: SigningKey[];
}

/**
 * Loads the signing keys from the database, creating one on first start. Kept in the database (not a
 * file) so every server process of one site signs and verifies with the same key, and tokens survive
 * a restart. The private key is never logged.
 */
export async function loadKeySet(db: Db): Promise<KeySet> {
  const read = () =>
    db.selectFrom('signing_keys').selectAll().orderBy('created_date', 'asc').orderBy('kid', 'asc').execute();
  let rows = await read();
  if (rows.length === 0) {
    const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(jwk);
    await db
      .insertInto('signing_keys')
      .values({ kid, private_jwk: JSON.stringify(jwk), created_date: nowIso() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    rows = await read();
  }
  const all = await Promise.all(rows.map((r) => importKey(r.kid, r.private_jwk)));
  return { signing: all[0]!, all };
}

async function importKey(kid: string, json: string): Promise<SigningKey> {
  const privateJwk = JSON.parse(json) as JWK;
  const { d: _d, ...publicJwk } = privateJwk;
  return {
    kid,
    privateKey: (await importJWK(privateJwk, SIGNING_ALG)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, SIGNING_ALG)) as CryptoKey,
    publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' },
  };
}
