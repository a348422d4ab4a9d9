import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { CLIENT_ID, api, login, tokenRequest, type TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: keep a hub connection past its token. A WebSocket went on receiving events and accepted
 * SubscribeToEntity after its access token expired. Now the server closes it at expiry, telling
 * the client it may reconnect - which the official client does, with a fresh token.
 */
const TOKEN_SECONDS = 3;
let server: TestServer;
let contactKey: string;
beforeAll(async () => {
  server = await startTarget({ build: { accessTokenSeconds: TOKEN_SECONDS } });
  const { access_token } = await login(server.url, 'demo', 'demo-losenord');
  const detail = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/detail', {
    token: access_token,
  });
  contactKey = `Contact:${(detail.body as { info: { contact: { id: number } } }).info.contact.id}`;
});
afterAll(async () => server?.dispose());

/** Fails the test if `event` has not happened by `ms`: the bound of an awaited event, not a sleep. */
const within = <T>(event: Promise<T>, ms: number, what: string) =>
  Promise.race([
    event,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)),
  ]);

describe('a hub connection whose access token expires', () => {
  for (const transport of [HttpTransportType.WebSockets, HttpTransportType.LongPolling]) {
    it(`is closed at expiry (${HttpTransportType[transport]})`, async () => {
      const { access_token, expires_in } = await login(server.url, 'demo', 'demo-losenord');
      expect(expires_in).toBe(TOKEN_SECONDS);
      const issuedAt = Date.now();
      const connection = new HubConnectionBuilder()
        .withUrl(`${server.url}/hubs/portalaccountevents`, {
          transport,
          accessTokenFactory: () => access_token,
        })
        .configureLogging(LogLevel.None)
        .build();
      const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
      await connection.start();
      await connection.invoke('SubscribeToEntity', contactKey);
      const error = await within(closed, TOKEN_SECONDS * 1000 + 10_000, 'close');
      expect(Date.now() - issuedAt).toBeGreaterThanOrEqual(TOKEN_SECONDS * 1000 - 1000);
      expect(connection.state).toBe('Disconnected');
      // Long polling learns it at its next poll, which the expired token no longer opens.
      if (transport === HttpTransportType.WebSockets) expect(String(error)).toMatch(/expired/);
      await expect(connection.invoke('SubscribeToEntity', contactKey)).rejects.toThrow();
    });
  }

  it('comes back with a fresh token through the official client’s automatic reconnect', async () => {
    let tokens = await login(server.url, 'demo', 'demo-losenord');
    const connection = new HubConnectionBuilder()
      .withUrl(`${server.url}/hubs/portalaccountevents`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: async () => {
          // As the app's worker does: a token about to end is refreshed first.
          const res = await tokenRequest(server.url, {
            grant_type: 'refresh_token',
            client_id: CLIENT_ID,
            refresh_token: tokens.refresh_token,
          });
          if (res.status === 200) tokens = res.body as unknown as typeof tokens;
          return tokens.access_token;
        },
      })
      .withAutomaticReconnect([0, 0, 0])
      .configureLogging(LogLevel.None)
      .build();
    const reconnected = new Promise<void>((resolve) => connection.onreconnected(() => resolve()));
    await connection.start();
    await within(reconnected, TOKEN_SECONDS * 1000 + 10_000, 'reconnect');
    await expect(connection.invoke('SubscribeToEntity', contactKey)).resolves.toBeNull();
    await connection.stop();
  });

  it('refuses a raw long poll with the expired token', async () => {
    const { access_token } = await login(server.url, 'demo', 'demo-losenord');
    const negotiate = await fetch(`${server.url}/hubs/portalaccountevents/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}` },
    });
    const { connectionToken } = (await negotiate.json()) as { connectionToken: string };
    const poll = () =>
      fetch(`${server.url}/hubs/portalaccountevents?id=${connectionToken}`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
    expect((await poll()).status).toBe(200);
    // The next poll is held until the server has something to say: at expiry, that it is over.
    const held = await within(poll(), TOKEN_SECONDS * 1000 + 10_000, 'answer to the held poll');
    expect([200, 204]).toContain(held.status);
    expect((await poll()).status).toBe(401);
  });
});
