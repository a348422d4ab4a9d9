import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';

export interface ChildAccount {
  username: string;
  password: string;
}

/**
 * A fresh child registered through the public registration call, so that a test's chat is not held
 * back by the once-a-day rule or another test's queue.
 */
export async function registerChild(request: APIRequestContext, prefix = 'barn'): Promise<ChildAccount> {
  const account = { username: `${prefix}-${randomUUID().slice(0, 8)}`, password: 'hemligt-losen-1' };
  const res = await request.post('/portal/api/accounts/registercontact', {
    headers: { 'X-App-Variant': 'Barn' },
    data: { ...account, properties: { birthYear: String(new Date().getFullYear() - 13), gender: 'male' } },
  });
  if (!res.ok()) throw new Error(`registration answered ${res.status()}`);
  return account;
}

/**
 * The child's own access token, for server-side checks a test makes after the UI acted. Without
 * `offline_access` in `scope` the server stores no refresh token for this login, so that the app's
 * logins are the child's only ones with refresh tokens.
 */
export async function childToken(
  request: APIRequestContext,
  account: ChildAccount,
  scope = 'openid profile portal offline_access',
): Promise<string> {
  const res = await request.post('/connect/token', {
    form: {
      grant_type: 'password',
      client_id: 'portal-web',
      scope,
      username: account.username,
      password: account.password,
      portalId: 'portal',
    },
  });
  if (!res.ok()) throw new Error(`child login failed: ${res.status()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
