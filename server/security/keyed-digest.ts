import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';

const SECRET_NAME = 'keyed-digest';

/**
 * HMAC-SHA256 under a random secret kept in the database (one per site, shared by its processes),
 * mixed with SIGNING_KEY_SECRET from the environment when one is given: counters and known-good
 * marks are keyed by usernames and addresses without holding either in clear. With the
 * environment secret, a copy of the database alone does not let anyone hash the IPv4 space back
 * to the addresses; without it, it only keeps them from being read at a glance (docs/security.md).
 */
export class KeyedDigest {
  private secret: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Db,
    private readonly environmentSecret?: string,
  ) {}

  async of(value: string): Promise<string> {
    return createHmac('sha256', await this.key())
      .update(value)
      .digest('base64url');
  }

  private key(): Promise<Buffer> {
    this.secret ??= this.load().catch((error: unknown) => {
      this.secret = null;
      throw error;
    });
    return this.secret;
  }

  private async load(): Promise<Buffer> {
    await this.db
      .insertInto('server_secrets')
      .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', SECRET_NAME)
      .executeTakeFirstOrThrow();
    const stored = Buffer.from(row.value, 'base64url');
    if (!this.environmentSecret) return stored;
    return Buffer.from(hkdfSync('sha256', this.environmentSecret, stored, 'portal-keyed-digest', 32));
  }
}
