import type { AppContext } from '../context.ts';

/**
 * Ends every session of an account at once, in every process: refresh tokens revoked, every access
 * token refused from the next request on (token generation), every hub connection closed (through
 * the Redis backplane when there is one). The addresses and devices it signed in from stop being
 * known-good: whoever signed in with the old password (a device that was lent, an ex-partner who
 * knew it) no longer passes the login brakes. Used after a password change and a role change;
 * deletion does the same inside its erasure.
 */
export async function revokeAccount(ctx: AppContext, accountId: number): Promise<void> {
  await ctx.tokens.revokeAllForAccount(accountId);
  await ctx.throttle.forgetSubject(`account:${accountId}`);
  await ctx.hub.disconnectAccount(accountId);
}
