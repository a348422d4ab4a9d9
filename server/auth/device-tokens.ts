import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { KeyedDigest } from '../security/keyed-digest.ts';

/** A device token as the server issues it: 32 random bytes, base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Tokens kept per account, newest first: its phone, a tablet, a school computer... A token whose
 * answer was lost, or whose browser was cleared, is never presented again; the oldest go.
 */
export const DEVICES_PER_ACCOUNT = 10;

/**
 * Device tokens (docs/security.md, "Login limits"): the server issues one to the child's app at
 * registration and at every successful password login, for that account only, and the login it
 * comes back with replaces it. It spares its holder the brakes that guessers from many addresses
 * arm, and nothing else: the password is checked as always. A copy goes stale at the owner's next
 * login; until then its failures count against the token alone (`device:` counter), and once that
 * counter makes it wait the token is ignored, so a copy can never leave the owner worse off than
 * having no token. Stored as keyed digests only, like known-good addresses.
 */
export class DeviceTokens {
  constructor(
    private readonly db: Db,
    private readonly digest: KeyedDigest,
    /** How long a token spares its holder without being used (the known-address lifetime). */
    private readonly keepMs: number,
  ) {}

  /** The throttle's counter of a token's failures: the token alone, whatever the username. */
  static counterKey(token: string): string {
    return `device:${token}`;
  }

  /** The token's digest when it is one this server issued to `subject` and still keeps; else null. */
  async known(subject: string, token: string | undefined): Promise<string | null> {
    if (!token || !TOKEN_PATTERN.test(token)) return null;
    const digest = await this.digestOf(token);
    const row = await this.db
      .selectFrom('login_devices')
      .select('token_digest')
      .where('token_digest', '=', digest)
      .where('subject', '=', subject)
      .where('last_used_at', '>', Date.now() - this.keepMs)
      .executeTakeFirst();
    return row ? digest : null;
  }

  /**
   * A new token for `subject`, in place of the one (by digest) its login came with: from now on
   * only the new one spares anyone. At most DEVICES_PER_ACCOUNT are kept per account.
   */
  async issue(subject: string, replacing: string | null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const digest = await this.digestOf(token);
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      if (replacing) {
        await trx
          .deleteFrom('login_devices')
          .where('token_digest', '=', replacing)
          .where('subject', '=', subject)
          .execute();
      }
      await trx
        .insertInto('login_devices')
        .values({ token_digest: digest, subject, created_at: now, last_used_at: now })
        .execute();
      const newest = trx
        .selectFrom('login_devices')
        .select('token_digest')
        .where('subject', '=', subject)
        .orderBy('last_used_at', 'desc')
        .orderBy('token_digest')
        .limit(DEVICES_PER_ACCOUNT);
      await trx
        .deleteFrom('login_devices')
        .where('subject', '=', subject)
        .where('token_digest', 'not in', newest)
        .execute();
    });
    return token;
  }

  /** A password or role change, or an erasure: no device of the account is spared any more. */
  async forget(subject: string): Promise<void> {
    await this.db.deleteFrom('login_devices').where('subject', '=', subject).execute();
  }

  async prune(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('login_devices')
      .where('last_used_at', '<', now - this.keepMs)
      .execute();
  }

  private digestOf(token: string): Promise<string> {
    return this.digest.of(`device-token:${token}`);
  }
}
