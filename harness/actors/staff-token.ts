import type { APIRequestContext } from '@playwright/test';

/** A staff member's access token (client `portal-staff`), for tests that act as the staff API's user. */
export async function staffToken(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/connect/token', {
    form: {
      grant_type: 'password',
      client_id: 'portal-staff',
      scope: 'openid profile portal offline_access',
      username,
      password,
      portalId: 'portal',
    },
  });
  if (!res.ok()) throw new Error(`staff login of ${username} failed: ${res.status()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
