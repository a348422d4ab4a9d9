import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { login, startTestServer, type TestServer, postWithKey } from '../../../harness/test-server.ts';
import type { FastifyRequest } from 'fastify';
import { createOnce, PENDING_ABANDONED_MS, recordKeyOf } from '../../../server/http/idempotency.ts';
import type { Db } from '../../../server/db/database.ts';

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

/**
 * A database fault planted as a trigger: `statement` runs before each `op` on `table` (RAISE, or a
 * write of its own). On SQLite and PostgreSQL alike; the returned function removes it.
 */
async function plant(db: Db, postgres: boolean, table: string, op: 'INSERT' | 'DELETE', statement: string) {
  const name = `fault_${table}_${op.toLowerCase()}`;
  if (postgres) {
    await sql
      .raw(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${statement}; RETURN ${op === 'DELETE' ? 'OLD' : 'NEW'}; END $$;
         CREATE TRIGGER ${name} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`,
      )
      .execute(db);
    return async () => void (await sql.raw(`DROP FUNCTION ${name}() CASCADE`).execute(db));
  }
  await sql.raw(`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} BEGIN ${statement}; END`).execute(db);
  return async () => void (await sql.raw(`DROP TRIGGER ${name}`).execute(db));
}

describe('a key whose create failed while the database failed too', () => {
  const postgres = () => server.databaseUrl.startsWith('postgres');
  const raise = () =>
    postgres() ? "RAISE EXCEPTION 'planted fault'" : "SELECT RAISE(ABORT, 'planted fault')";
  const newMail = async () => {
    const res = await postWithKey(server.url, '/portal/mail', {
      token,
      key: randomUUID(),
      body: { subject: 'Nyckel', text: 'Första' },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  };
  const messages = async (conversation: number, text: string) =>
    (
      await server.ctx.db
        .selectFrom('conversation_messages')
        .select('id')
        .where('conversation_id', '=', conversation)
        .where('message', '=', text)
        .execute()
    ).length;

  it('is freed in the background once the database answers again, so the retry writes at once', async () => {
    const conversation = await newMail();
    const body = { conversation, content: `Efter felet ${randomUUID()}` };
    const key = randomUUID();
    const send = () => postWithKey(server.url, '/portal/conversationmessage', { token, key, body });
    // The write fails, and so does freeing its key (as when the database goes away mid-request).
    const healInsert = await plant(server.ctx.db, postgres(), 'conversation_messages', 'INSERT', raise());
    const healDelete = await plant(server.ctx.db, postgres(), 'idempotency_keys', 'DELETE', raise());
    expect((await send()).status).toBe(500);
    expect((await send()).status).toBe(429);
    await healInsert();
    await healDelete();

    // Without the background settling this stays 429 for PENDING_ABANDONED_MS (a minute).
    const deadline = Date.now() + 10_000;
    let retry = await send();
    while (retry.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      retry = await send();
    }
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await messages(conversation, body.content)).toBe(1);
  });

  it('a create whose key a retry took over meanwhile stores nothing: only one of the two writes', async () => {
    const db = server.ctx.db;
    const key = randomUUID();
    const message = `Övertagen ${key}`;
    const { id: accountId } = await db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    // This request's claim, stamped when it began; a retry has since taken the key over (a new stamp).
    const claim = { accountId, key, since: '2026-01-01T00:00:00.000Z' };
    await db
      .insertInto('idempotency_keys')
      .values({
        account_id: accountId,
        key,
        route: '/createclientlogs',
        request_digest: 'x',
        status_code: 0,
        response_id: null,
        created_date: '2026-01-01T00:01:05.000Z',
      })
      .execute();
    const write = createOnce(db, recordKeyOf({ idempotency: claim } as FastifyRequest), (trx) =>
      trx
        .insertInto('client_logs')
        .values({
          account_id: accountId,
          message,
          stack: null,
          url: null,
          level: 'info',
          variant: null,
          created_date: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    await expect(write).rejects.toThrow(/taken over/);
    expect(await count(message)).toBe(0);
    // The key is the retry's: this request changed nothing of it.
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['status_code', 'created_date'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status_code: 0, created_date: '2026-01-01T00:01:05.000Z' });
  });
});
