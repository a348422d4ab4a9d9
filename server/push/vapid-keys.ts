import webpush from 'web-push';
import type { Db } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import { ENCRYPTED_PREFIX, KeyCipher } from '../auth/keys.ts';

/** A VAPID key pair as web-push takes it: base64url, the public half an uncompressed P-256 point. */
export interface VapidKey {
  id: number;
  publicKey: string;
  privateKey: string;
}

/**
 * Web Push's VAPID keys, kept with the signing keys: in the database (every process of one site
 * signs with the same key, and subscriptions outlive a restart), the private half encrypted with
 * SIGNING_KEY_SECRET (a key of its own derived from it). The first is made at the first start.
 * A browser subscribes with the public key, and its push service then takes only pushes signed
 * with that key: so each subscription remembers its key, and a rotation deletes the subscriptions
 * of the old key (the app subscribes again when the key it is served changes).
 */
export class VapidKeys {
  private readonly cipher: KeyCipher | null;
  /** Private keys already decrypted, by id: a send decrypts nothing twice. */
  private readonly revealed = new Map<number, string>();

  constructor(
    private readonly db: Db,
    secret: string | undefined,
  ) {
    this.cipher = secret ? new KeyCipher(secret, 'portal-vapid-keys') : null;
  }

  /**
   * Makes the first key on a new database and encrypts any private key found in clear. Throws when
   * the keys are encrypted and SIGNING_KEY_SECRET is unset or does not decrypt them (as KeyRing
   * does): a key made then would be stored in clear, or under a secret the servers do not have.
   */
  async load(): Promise<void> {
    if (!this.cipher) {
      const encrypted = await this.db
        .selectFrom('vapid_keys')
        .select('id')
        .where('private_key', 'like', `${ENCRYPTED_PREFIX}%`)
        .limit(1)
        .executeTakeFirst();
      if (encrypted) throw new Error('The VAPID keys are encrypted: set SIGNING_KEY_SECRET');
      if (!(await this.currentRow())) await this.insertKey();
      return;
    }
    const stored = await this.db
      .selectFrom('vapid_keys')
      .select(['id', 'private_key'])
      .where('private_key', 'like', `${ENCRYPTED_PREFIX}%`)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    // Throws "SIGNING_KEY_SECRET does not decrypt the keys (portal-vapid-keys)" for a wrong secret.
    if (stored) this.reveal(stored.id, stored.private_key);
    if (!(await this.currentRow())) await this.insertKey();
    const clear = await this.db
      .selectFrom('vapid_keys')
      .select(['id', 'private_key'])
      .where('private_key', 'not like', `${ENCRYPTED_PREFIX}%`)
      .execute();
    for (const row of clear) {
      await this.db
        .updateTable('vapid_keys')
        .set({ private_key: this.cipher.encrypt(row.private_key) })
        .where('id', '=', row.id)
        .where('private_key', '=', row.private_key)
        .execute();
    }
  }

  /** The key browsers subscribe with now: read each time, so a rotation by another process shows at once. */
  async current(): Promise<{ id: number; publicKey: string }> {
    let row = await this.currentRow();
    if (!row) {
      await this.insertKey();
      row = await this.currentRow();
    }
    if (!row) throw new Error('no VAPID key');
    return { id: row.id, publicKey: row.public_key };
  }

  /** The private half of a key, as stored (encrypted or not). */
  reveal(id: number, stored: string): string {
    const known = this.revealed.get(id);
    if (known) return known;
    let plain = stored;
    if (stored.startsWith(ENCRYPTED_PREFIX)) {
      if (!this.cipher) throw new Error('The VAPID keys are encrypted: set SIGNING_KEY_SECRET');
      plain = this.cipher.decrypt(stored);
    }
    this.revealed.set(id, plain);
    return plain;
  }

  /**
   * A new key, the others retired, and every subscription made with another key deleted: its push
   * service would refuse a push signed with the new key, and the old one is no longer to be used.
   */
  async rotate(): Promise<{ id: number; publicKey: string }> {
    await this.insertKey();
    // One key stays in charge: the newest (as KeyRing.rotate). Each rotation retires the others after
    // its own insert, so of two rotating at once the later sees both keys and keeps the same one.
    const newest = this.db
      .selectFrom('vapid_keys')
      .select('id')
      .where('retired_date', 'is', null)
      .orderBy('id', 'desc')
      .limit(1);
    await this.db
      .updateTable('vapid_keys')
      .set({ retired_date: nowIso() })
      .where('retired_date', 'is', null)
      .where('id', 'not in', newest)
      .execute();
    const current = await this.current();
    await this.db.deleteFrom('push_subscriptions').where('vapid_key_id', '!=', current.id).execute();
    return current;
  }

  /** The newest key not retired (two processes making the first key at once agree on it). */
  private currentRow() {
    return this.db
      .selectFrom('vapid_keys')
      .select(['id', 'public_key'])
      .where('retired_date', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  private async insertKey(): Promise<number> {
    const { publicKey, privateKey } = webpush.generateVAPIDKeys();
    const row = await this.db
      .insertInto('vapid_keys')
      .values({
        public_key: publicKey,
        private_key: this.cipher ? this.cipher.encrypt(privateKey) : privateKey,
        created_date: nowIso(),
        retired_date: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
}
