import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { login, startTestServer, type TestServer, postWithKey } from '../test-server.ts';
import { PENDING_ABANDONED_MS } from '../../../server/http/idempotency.ts';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => server.dispose());

const post = (key: string, body: unknown, as = token) =>
  postWithKey(server.url, '/portal/createclientlogs', { token: as, key, body });
const count = async (message: string) =>
  (await server.ctx.db.selectFrom('client_logs').select('id').where('message', '=', message).execute())
    .length;

describe('Idempotency-Key on create calls', () => {
  it('answers a retry with the same key and body with the first answer and creates nothing more', async () => {
    const key = randomUUID();
    const first = await post(key, { message: 'idempotent-1' });
    const again = await post(key, { message: 'idempotent-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count('idempotent-1')).toBe(1);
  });

  it('lets a retry take over a key whose first request never finished (its process killed)', async () => {
    const key = randomUUID();
    const first = await post(key, { message: 'idempotent-abandoned' });
    expect(first.status).toBe(201);
    // As a killed process leaves it: the placeholder of a request that never settled, and no row.
    await server.ctx.db.deleteFrom('client_logs').where('message', '=', 'idempotent-abandoned').execute();
    const placeholder = (createdAgo: number) =>
      server.ctx.db
        .updateTable('idempotency_keys')
        .set({
          status_code: 0,
          response_id: null,
          created_date: new Date(Date.now() - createdAgo).toISOString(),
        })
        .where('key', '=', key)
        .execute();
    await placeholder(PENDING_ABANDONED_MS - 5_000);
    const waiting = await post(key, { message: 'idempotent-abandoned' });
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('1');

    await placeholder(PENDING_ABANDONED_MS + 1_000);
    // Concurrent retries: exactly one takes the key over and writes, the others wait or replay it.
    const retries = await Promise.all([1, 2, 3].map(() => post(key, { message: 'idempotent-abandoned' })));
    expect(retries.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'))).toHaveLength(1);
    expect(retries.every((r) => r.status === 201 || r.status === 429)).toBe(true);
    expect(await count('idempotent-abandoned')).toBe(1);
  });

  it('refuses the same key with another body with 422', async () => {
    const key = randomUUID();
    await post(key, { message: 'idempotent-2' });
    const other = await post(key, { message: 'something else' });
    expect(other.status).toBe(422);
    expect(await count('something else')).toBe(0);
  });

  it('keeps keys per account: another user with the same key creates their own row', async () => {
    const key = randomUUID();
    const other = (await login(server.url, 'DEMOKOD-0001')).access_token;
    expect((await post(key, { message: 'idempotent-3' })).status).toBe(201);
    expect((await post(key, { message: 'idempotent-3' }, other)).status).toBe(201);
    expect(await count('idempotent-3')).toBe(2);
  });

  it('creates a row per request without a key, and refuses a malformed key', async () => {
    const plain = () =>
      fetch(`${server.url}/portal/createclientlogs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: 'no-key' }),
      });
    await plain();
    await plain();
    expect(await count('no-key')).toBe(2);
    expect((await post('x', { message: 'bad-key' })).status).toBe(400);
  });
});
