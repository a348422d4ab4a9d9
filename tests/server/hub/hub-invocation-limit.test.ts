import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import {
  INVOCATION_BURST,
  INVOCATIONS_PER_SECOND,
  THROTTLED_BEFORE_CLOSE,
} from '../../../server/hub/connection.ts';
import { TokenBucket } from '../../../server/hub/token-bucket.ts';
import {
  buildClient,
  canSubscribe,
  makeTokens,
  startServer,
  stopServer,
  type TestServer,
} from './helpers.ts';

/**
 * Attack: a flood of hub invocations. Each SubscribeToEntity reads the database twice (the token,
 * then the right to see the entity); a client that sent them without end had every one run. Now a
 * connection has a bucket of invocations; past it the answer is an error at once, and nothing is read.
 */
describe('hub invocations', () => {
  let server: TestServer | undefined;
  const clients: HubConnection[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    await stopServer(server);
    server = undefined;
  });

  it('are refused past the bucket, before any database read; a connection a little over it stays', async () => {
    const tokens = makeTokens();
    let reads = 0;
    let checks = 0;
    server = await startServer(
      {
        authenticate: async (token) => {
          reads++;
          return tokens.get(token) ?? null;
        },
        // The access check, one per subscription served (its token's verification may be the hub's
        // of a moment ago, server/hub/verified-tokens.ts).
        canSubscribe: async (principal, key) => {
          checks++;
          return canSubscribe(principal, key);
        },
      },
      tokens,
    );
    const client = buildClient(server.hubUrl, 'token-a1', HttpTransportType.WebSockets);
    clients.push(client);
    await client.start();
    const readsAtStart = reads;

    // Over the budget, but not so often that the connection is taken for a flood (that closes it:
    // tests/server/security/hub-invocation-flood.test.ts).
    const flood = INVOCATION_BURST + THROTTLED_BEFORE_CLOSE / 2;
    const started = Date.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: flood }, () => client.invoke('SubscribeToEntity', 'Contact:1')),
    );
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    const served = flood - refused.length;
    // The burst, and what refilled while the flood was being answered.
    expect(refused.length).toBeGreaterThan(0);
    expect(served).toBeGreaterThanOrEqual(INVOCATION_BURST);
    expect(served).toBeLessThanOrEqual(INVOCATION_BURST + INVOCATIONS_PER_SECOND * seconds);
    expect(
      refused.every((o) => String((o as PromiseRejectedResult).reason).includes('Too many requests.')),
    ).toBe(true);
    expect(checks).toBe(served);
    expect(reads - readsAtStart).toBeLessThanOrEqual(served);
    expect(client.state).toBe('Connected');
  });

  it('refill at their rate: a connection that waited may invoke again', () => {
    const t0 = 1_000_000;
    const bucket = new TokenBucket(INVOCATION_BURST, INVOCATIONS_PER_SECOND, t0);
    for (let i = 0; i < INVOCATION_BURST; i++) expect(bucket.take(t0)).toBe(true);
    const interval = 1000 / INVOCATIONS_PER_SECOND;
    expect(bucket.take(t0)).toBe(false);
    expect(bucket.take(t0 + interval / 2)).toBe(false);
    expect(bucket.take(t0 + interval)).toBe(true);
    expect(bucket.take(t0 + interval)).toBe(false);
    // A long wait refills the burst, never more.
    const later = t0 + 3_600_000;
    for (let i = 0; i < INVOCATION_BURST; i++) expect(bucket.take(later)).toBe(true);
    expect(bucket.take(later)).toBe(false);
  });
});
