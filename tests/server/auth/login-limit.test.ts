import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_ID, SCOPE, startTestServer, tokenRequest, type TestServer } from '../test-server.ts';
import { LOGIN_LIMITS } from '../../../server/auth/login-throttle.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const attempt = (username: string, password: string) =>
  tokenRequest(server!.url, {
    grant_type: 'password',
    client_id: CLIENT_ID,
    scope: SCOPE,
    username,
    password,
  });

describe('login limits', () => {
  it('locks a username after its failed attempts, even for the right password', async () => {
    server = await startTestServer();
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      expect((await attempt('demo', `fel-${i}`)).status).toBe(400);
    }
    const locked = await attempt('demo', 'demo-losenord');
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe('invalid_grant');
  });

  it('limits failed attempts from one client address across usernames and personal codes', async () => {
    server = await startTestServer();
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      expect((await attempt(`KOD-GISSNING-${i}`, '')).status).toBe(400);
    }
    expect((await attempt('DEMOKOD-0001', '')).status).toBe(429);
  });

  it('clears the username counter after a successful login', async () => {
    server = await startTestServer();
    for (let i = 0; i < LOGIN_LIMITS.perAccount - 1; i++) await attempt('demo', `fel-${i}`);
    expect((await attempt('demo', 'demo-losenord')).status).toBe(200);
    expect((await attempt('demo', 'fel-igen')).status).toBe(400);
    expect((await attempt('demo', 'demo-losenord')).status).toBe(200);
  });
});
