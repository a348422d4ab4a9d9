import { describe, expect, it } from 'vitest';
import { HubConnection } from '../../../server/hub/connection.ts';
import { Credentials } from '../../../server/hub/credentials.ts';
import { principal } from './helpers.ts';

const timing = { keepAliveIntervalMs: 15_000, clientTimeoutMs: 30_000 };
const events = { onOpen: () => undefined, onMessage: () => undefined, onClose: () => undefined };

/** What connections opened with one access token share, so each idle one costs no copy of it. */
describe('hub credentials', () => {
  it('gives the connections of one token one copy of it and of its principal', () => {
    const credentials = new Credentials();
    const open = () =>
      new HubConnection(principal(1, 'jti-1'), 'token-1', timing, events, undefined, credentials);
    const [a, b] = [open(), open()];
    expect(a.principal).toBe(b.principal);
    expect(a.currentToken).toBe('token-1');
    expect(credentials.size).toBe(1);
    a.close({ frame: false });
    expect(credentials.size).toBe(1);
    b.close({ frame: false });
    expect(credentials.size).toBe(0);
    // A closed connection still reads its token (a queued invocation may look at it).
    expect(b.currentToken).toBe('token-1');
  });

  it('shares no principal between verifications that differ', () => {
    const credentials = new Credentials();
    const a = new HubConnection(principal(1, 'jti-1'), 'token-1', timing, events, undefined, credentials);
    const b = new HubConnection(
      { ...principal(1, 'jti-1'), roles: ['group_leader'] },
      'token-1',
      timing,
      events,
      undefined,
      credentials,
    );
    expect(a.principal).not.toBe(b.principal);
    expect(b.principal.roles).toEqual(['group_leader']);
  });

  it('moves a connection to a newer token and lets go of the old one', () => {
    const credentials = new Credentials();
    const first = principal(1, 'jti-1');
    const connection = new HubConnection(first, 'token-1', timing, events, undefined, credentials);
    connection.useToken({ ...principal(1, 'jti-2'), expiresAt: first.expiresAt + 60 }, 'token-2');
    expect(connection.currentToken).toBe('token-2');
    expect(credentials.size).toBe(1);
    // The connection still belongs to the principal it was opened with.
    expect(connection.principal.tokenId).toBe('jti-1');
    // An older token than the one held changes nothing.
    connection.useToken(first, 'token-1');
    expect(connection.currentToken).toBe('token-2');
  });

  it('shares the role and scope lists of principals of different tokens', () => {
    const a = new HubConnection(principal(1, 'jti-1'), 'token-1', timing, events);
    const b = new HubConnection(principal(2, 'jti-2'), 'token-2', timing, events);
    expect(a.principal.scopes).toBe(b.principal.scopes);
    expect(a.principal.roles).toBe(b.principal.roles);
    expect(Object.isFrozen(a.principal.scopes)).toBe(true);
  });
});
