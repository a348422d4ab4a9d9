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

/** Access tokens this process verified a moment ago, by the token itself. */
export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();
  /** Raised by every revocation heard: a verification that began before one is not kept. */
  private epoch = 0;
  private enabled = true;

  constructor(private readonly ttlMs: number = VERIFIED_TOKEN_TTL_MS) {}

  /** The principal of a token verified within the TTL and not revoked since, else undefined. */
  get(token: string, now = Date.now()): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now < entry.until && now < entry.principal.expiresAt * 1000) return entry.principal;
    this.entries.delete(token);
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
    if (!principal) this.entries.delete(token);
    else if (this.enabled && epoch === this.epoch) {
      const now = Date.now();
      this.prune(now);
      this.entries.delete(token);
      this.entries.set(token, { principal, until: now + this.ttlMs });
    }
    return principal;
  }

  /** A token id or a login's revocation key was revoked (server/auth/principal.ts revocationKeys). */
  revokeKey(key: string): void {
    this.epoch++;
    for (const [token, entry] of this.entries) {
      if (revocationKeys(entry.principal).includes(key)) this.entries.delete(token);
    }
  }

  /** Every token of the account was revoked. */
  revokeAccount(accountId: number): void {
    this.epoch++;
    for (const [token, entry] of this.entries) {
      if (entry.principal.accountId === accountId) this.entries.delete(token);
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

  /** Entries go in in the order they expire (one TTL for all), so the stale ones are at the front. */
  private prune(now: number): void {
    for (const [token, entry] of this.entries) {
      if (entry.until > now) return;
      this.entries.delete(token);
    }
  }
}
