import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  calculateJwkThumbprint,
  type CryptoKey,
  type JWK,
} from 'jose';
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
  /** The key new tokens are signed with: the newest one not retired. */
  signing: SigningKey;
  /** Every key a live token may have been signed with, published in the JWKS. */
  all: SigningKey[];
}

/** A retired key still verifies for this long: the longest token it signed (15 min) plus clock skew. */
export const RETIRED_KEY_GRACE_MS = 30 * 60_000;
/** Another process may have rotated: an unknown kid reloads the keys, at most this often. */
const RELOAD_ON_UNKNOWN_KID_MS = 1000;
export const ENCRYPTED_PREFIX = 'enc:v1:';

/**
 * AES-256-GCM with a key derived from SIGNING_KEY_SECRET; the private key never lies in clear. Each
 * kind of key has its own derived key (`label`): the signing keys', Web Push's VAPID keys'.
 */
export class KeyCipher {
  private readonly key: Buffer;
  constructor(
    secret: string,
    private readonly label = 'portal-signing-keys',
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, label, 'aes-256-gcm v1', 32));
  }
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${ENCRYPTED_PREFIX}${[iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join(':')}`;
  }
  decrypt(stored: string): string {
    const [iv, body, tag] = stored.slice(ENCRYPTED_PREFIX.length).split(':');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    try {
      return Buffer.concat([
        decipher.update(Buffer.from(body ?? '', 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new Error(`SIGNING_KEY_SECRET does not decrypt the keys (${this.label})`);
    }
  }
}

/**
 * The signing keys, kept in the database (not a file) so every server process of one site signs
 * and verifies with the same keys and tokens survive a restart. With SIGNING_KEY_SECRET the private
 * halves are encrypted at rest (rows found in clear are encrypted at start). Rotation adds a new
 * key and retires the old one, which keeps verifying until its tokens have ended. Private keys are
 * never logged.
 */
export class KeyRing {
  private set: KeySet | null = null;
  /** When an unknown kid last made us look: random kids cannot make us reload more than once a second. */
  private lastLookup = 0;
  private readonly cipher: KeyCipher | null;

  constructor(
    private readonly db: Db,
    secret: string | undefined,
  ) {
    this.cipher = secret ? new KeyCipher(secret) : null;
  }

  get current(): KeySet {
    if (!this.set) throw new Error('signing keys not loaded');
    return this.set;
  }

  /** Loads the keys, creating the first one on a new database and encrypting any found in clear. */
  async load(): Promise<KeySet> {
    if ((await this.rows()).length === 0) await this.insertKey();
    const rows = await this.rows();
    if (this.cipher) {
      for (const row of rows.filter((r) => !r.private_jwk.startsWith(ENCRYPTED_PREFIX))) {
        await this.db
          .updateTable('signing_keys')
          .set({ private_jwk: this.cipher.encrypt(row.private_jwk) })
          .where('kid', '=', row.kid)
          .where('private_jwk', '=', row.private_jwk)
          .execute();
      }
    }
    const live = rows.filter(
      (r) => !r.retired_date || Date.parse(r.retired_date) > Date.now() - RETIRED_KEY_GRACE_MS,
    );
    const all = await Promise.all(live.map((r) => importKey(r.kid, this.reveal(r.private_jwk))));
    const signingRow = live.find((r) => !r.retired_date) ?? live[0]!;
    this.set = { signing: all.find((k) => k.kid === signingRow.kid)!, all };
    return this.set;
  }

  /** A verification key by kid; an unknown kid may be a key another process has just made. */
  async find(kid: string | undefined): Promise<SigningKey | undefined> {
    const known = this.current.all.find((k) => k.kid === kid);
    if (known || !kid || Date.now() - this.lastLookup < RELOAD_ON_UNKNOWN_KID_MS) return known;
    this.lastLookup = Date.now();
    await this.load();
    return this.current.all.find((k) => k.kid === kid);
  }

  /** Makes a new signing key and retires the others; tokens they signed keep verifying a while. */
  async rotate(): Promise<string> {
    const { kid } = await this.insertKey();
    // One key stays in charge: the newest current one, by creation time and then kid (the order
    // `rows()` reads them in). Each rotation retires the others after its own insert, so the last
    // of two processes rotating at once sees both keys and keeps exactly one, whatever their times.
    const newest = this.db
      .selectFrom('signing_keys')
      .select('kid')
      .where('retired_date', 'is', null)
      .orderBy('created_date', 'desc')
      .orderBy('kid', 'desc')
      .limit(1);
    await this.db
      .updateTable('signing_keys')
      .set({ retired_date: nowIso() })
      .where('retired_date', 'is', null)
      .where('kid', '!=', newest)
      .execute();
    await this.load();
    return kid;
  }

  /** Rotates when the signing key is older than `maxAgeDays`; drops retired keys past their grace. */
  async maintain(maxAgeDays: number): Promise<void> {
    const cutoff = new Date(Date.now() - RETIRED_KEY_GRACE_MS).toISOString();
    await this.db.deleteFrom('signing_keys').where('retired_date', '<', cutoff).execute();
    const rows = await this.rows();
    const signing = rows.find((r) => !r.retired_date);
    if (!signing || Date.parse(signing.created_date) < Date.now() - maxAgeDays * 24 * 3600_000) {
      await this.rotate();
    } else {
      await this.load();
    }
  }

  private rows() {
    return this.db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('created_date', 'desc')
      .orderBy('kid', 'desc')
      .execute();
  }

  private reveal(stored: string): string {
    if (!stored.startsWith(ENCRYPTED_PREFIX)) return stored;
    if (!this.cipher) throw new Error('The signing keys are encrypted: set SIGNING_KEY_SECRET to start');
    return this.cipher.decrypt(stored);
  }

  private async insertKey(): Promise<{ kid: string; createdDate: string }> {
    const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(jwk);
    const json = JSON.stringify(jwk);
    const createdDate = nowIso();
    await this.db
      .insertInto('signing_keys')
      .values({
        kid,
        private_jwk: this.cipher ? this.cipher.encrypt(json) : json,
        created_date: createdDate,
        retired_date: null,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return { kid, createdDate };
  }
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
