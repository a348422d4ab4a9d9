import { createHash } from 'node:crypto';
import { revocationKeys, type Principal } from '../auth/principal.ts';

/**
 * How long the hub trusts a verification of an access token it made itself: a client coming back
 * (negotiate, WebSocket upgrade, its subscriptions, all within a second or two) costs the database
 * one verification instead of three, which is what a reconnect storm queues for. A revocation
 * (logout, a refresh token used twice, a password or role change, deletion) reaches every process
 * through the backplane and drops the entries it names at once; this TTL bounds only what a process
 * could miss, and the cache is not used at all while the Redis backplane is away.
 */
export const VERIFIED_TOKEN_TTL_MS = 5000;

interface Entry {
  principal: Principal;
  until: number;
}

/**
 * What an entry is found by: the token's SHA-256, not the token. A reconnect storm puts thousands of
 * entries here within one TTL, and an access token is some 600 characters (the connection that holds
 * it keeps its own copy); a digest of 43 keeps the cache a tenth of that. Only the whole token finds
 * its entry, as before: nothing of the token short of all of it (its signature alone) does.
 */
const keyOf = (token: string): string => createHash('sha256').update(token).digest('base64url');
/** A principal's entry, for the checks made by its claims (`recheck`); no digest starts with '#'. */
const principalKey = (principal: Principal): string => `#${principal.tokenId}`;

/** Access tokens this process verified a moment ago, by the token's digest (keyOf). */
export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();
  /** Raised by every revocation heard: a verification that began before one is not kept. */
  private epoch = 0;
  private enabled = true;

  constructor(private readonly ttlMs: number = VERIFIED_TOKEN_TTL_MS) {}

  /** The principal of a token verified within the TTL and not revoked since, else undefined. */
  get(token: string, now = Date.now()): Principal | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now < entry.until && now < entry.principal.expiresAt * 1000) return entry.principal;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Verifies through `verify` unless a verification within the TTL is at hand (`fresh`: always);
   * keeps a good answer unless a revocation was heard while it was being made (it might have read
   * the database before the revocation's commit). A refused token is forgotten at once.
   */
  async verify(
    token: string,
    verify: (token: string) => Promise<Principal | null>,
    options: { fresh?: boolean } = {},
  ): Promise<Principal | null> {
    const cached = options.fresh ? undefined : this.get(token);
    if (cached) return cached;
    const epoch = this.epoch;
    const principal = await verify(token);
    const key = keyOf(token);
    if (!principal) this.entries.delete(key);
    else if (epoch === this.epoch) {
      this.keep(key, principal);
      // A check by the principal's claims within the TTL (a subscription right after) is this one.
      this.keep(principalKey(principal), principal);
    }
    return principal;
  }

  /**
   * Whether a principal verified before still holds, through `stillValid` unless this process
   * verified its token, or checked it so, within the TTL and no revocation has named it since.
   */
  async recheck(
    principal: Principal,
    stillValid: (principal: Principal) => Promise<boolean>,
  ): Promise<boolean> {
    const key = principalKey(principal);
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && now < entry.until && now < principal.expiresAt * 1000) return true;
    if (entry) this.entries.delete(key);
    const epoch = this.epoch;
    const holds = await stillValid(principal);
    if (holds && epoch === this.epoch) this.keep(key, principal);
    return holds;
  }

  private keep(key: string, principal: Principal): void {
    if (!this.enabled) return;
    const now = Date.now();
    this.prune(now);
    this.entries.delete(key);
    this.entries.set(key, { principal, until: now + this.ttlMs });
  }

  /** A token id or a login's revocation key was revoked (server/auth/principal.ts revocationKeys). */
  revokeKey(key: string): void {
    this.epoch++;
    for (const [digest, entry] of this.entries) {
      if (revocationKeys(entry.principal).includes(key)) this.entries.delete(digest);
    }
  }

  /** Every token of the account was revoked. */
  revokeAccount(accountId: number): void {
    this.epoch++;
    for (const [digest, entry] of this.entries) {
      if (entry.principal.accountId === accountId) this.entries.delete(digest);
    }
  }

  /** Revocations from other processes cannot arrive (the backplane is away): verify every time. */
  suspend(): void {
    this.epoch++;
    this.enabled = false;
    this.entries.clear();
  }

  resume(): void {
    this.enabled = true;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops the entries past their TTL (the hub's heartbeat calls it too, so a burst's entries go once
   * it is over rather than at the next verification). Entries go in in the order they expire (one
   * TTL for all), so the stale ones are at the front.
   */
  prune(now = Date.now()): void {
    for (const [digest, entry] of this.entries) {
      if (entry.until > now) return;
      this.entries.delete(digest);
    }
  }
}
