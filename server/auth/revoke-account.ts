import type { AppContext } from '../context.ts';

/**
 * Ends every session of an account at once, in every process: refresh tokens revoked, every access
 * token refused from the next request on (token generation), every hub connection closed (through
 * the Redis backplane when there is one). Used after a password change and a role change; deletion
 * does the same inside its erasure.
 */
export async function revokeAccount(ctx: AppContext, accountId: number): Promise<void> {
  await ctx.tokens.revokeAllForAccount(accountId);
  await ctx.hub.disconnectAccount(accountId);
}
