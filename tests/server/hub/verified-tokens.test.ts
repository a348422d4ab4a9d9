/**
 * The bound on the hub's trust in its own recent token verifications (server/hub/verified-tokens.ts):
 * a token revoked where this process never heard of it (no backplane message) still counts for a
 * subscription within VERIFIED_TOKEN_TTL_MS of the last verification, and never after it; long
 * polling verifies every request and is not affected.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../../server/auth/principal.ts';
import { VERIFIED_TOKEN_TTL_MS } from '../../../server/hub/verified-tokens.ts';
import { RawClient, startServer, stopServer, type TestServer } from './helpers.ts';

let server: TestServer | undefined;
const raws: RawClient[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const raw of raws.splice(0)) raw.close();
  await stopServer(server);
  server = undefined;
});

async function connected(token: string): Promise<RawClient> {
  const res = await fetch(`${server!.hubUrl}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const { connectionToken } = (await res.json()) as { connectionToken: string };
  const raw = new RawClient(`${server!.wsUrl}?id=${connectionToken}&access_token=${token}`);
  raws.push(raw);
  expect(await raw.opened()).toBe(101);
  await raw.handshake();
  return raw;
}

/** Subscribes and resolves with the completion's error, or null; or the close's error, if closed. */
function subscribe(raw: RawClient, id: string, key: string): Promise<string | null> {
  return new Promise((resolve) => {
    const check = () => {
      const done = raw.messages().find((m) => (m.type === 3 && m.invocationId === id) || m.type === 7);
      if (!done) return;
      raw.socket.off('message', check);
      resolve(typeof done.error === 'string' ? done.error : null);
    };
    raw.socket.on('message', check);
    raw.send({ type: 1, invocationId: id, target: 'SubscribeToEntity', arguments: [key] });
  });
}

describe('the hub’s recent token verifications', () => {
  it('count for a revoked token it never heard of for at most the TTL', async () => {
    let verifications = 0;
    const tokens = new Map<string, Principal>();
    // What asks the database: a verification of the token, or a check again by its claims.
    server = await startServer({
      authenticate: async (token) => {
        verifications++;
        return tokens.get(token) ?? null;
      },
      stillValid: async (principal) => {
        verifications++;
        return [...tokens.values()].includes(principal);
      },
    });
    for (const [token, principal] of server.tokens) tokens.set(token, principal);
    // The hub's clock, held still so that only the test moves it.
    const verifiedAt = Date.now();
    let clock = verifiedAt;
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const raw = await connected('token-a1');
    expect(await subscribe(raw, '1', 'Contact:1')).toBeNull();
    // The negotiate verified it; the upgrade and the subscription took that verification.
    expect(verifications).toBe(1);

    tokens.delete('token-a1'); // revoked, and no disconnectToken reaches this process
    // The TTL after the verification, all but a millisecond; then that millisecond too.
    clock = verifiedAt + VERIFIED_TOKEN_TTL_MS - 1;
    expect(await subscribe(raw, '2', 'Contact:1:a')).toBeNull();
    clock = verifiedAt + VERIFIED_TOKEN_TTL_MS;
    expect(await subscribe(raw, '3', 'Contact:1:b')).toBe('The access token is no longer valid.');
    expect(verifications).toBe(2);
  });

  it('are dropped at once by disconnectToken and disconnectAccount', async () => {
    server = await startServer();
    const tokenId = server.tokens.get('token-a1')!.tokenId;
    for (const [token, drop] of [
      ['token-a1', () => server!.hub.disconnectToken(tokenId)],
      ['token-b2', () => server!.hub.disconnectAccount(2)],
    ] as const) {
      const raw = await connected(token);
      expect(await subscribe(raw, '1', token === 'token-a1' ? 'Contact:1' : 'Contact:2')).toBeNull();
      const negotiated = await fetch(`${server.hubUrl}/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      const { connectionToken } = (await negotiated.json()) as { connectionToken: string };
      server.tokens.delete(token);
      await drop();
      // The upgrade of a connection negotiated before: refused, not answered from the verification.
      const late = new RawClient(`${server.wsUrl}?id=${connectionToken}&access_token=${token}`);
      raws.push(late);
      expect(await late.opened()).toBe(401);
    }
  });
});
