import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runMaintenance } from '../../../server/jobs/maintenance.ts';
import { eraseLateWrites, LATE_WRITE_WINDOW_MS } from '../../../server/conversations/erasure.ts';
import { nowIso } from '../../../server/db/database.ts';
import { conversationRow, messageRow } from '../../../server/conversations/writes.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { callFrom, registerChild, startTarget, tryLogin } from '../../../harness/attack.ts';

/**
 * Attack: reading what a deleted child left behind. After deletion their messages kept the
 * username and contact id, the conversation properties (age, gender, device) stayed, the
 * idempotency store kept message bodies for 48 hours after the child deleted a conversation, and
 * login counters (usernames, addresses, a 500 kB username) were never pruned.
 */
let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.dispose();
  server = undefined;
});

const CONVERSATIONS = '/portal/features/conversations/conversationsapplication-id';
const WORDS = 'Min pappa slår mig';

/** Every row of every table, as text: what a database dump would show. */
async function dump(s: TestServer): Promise<string> {
  const tables = [
    'contacts',
    'accounts',
    'contact_properties',
    'conversations',
    'conversation_properties',
    'conversation_messages',
    'conversation_connections',
    'idempotency_keys',
    'notifications',
    'client_logs',
    'meeting_messages',
    'meeting_message_files',
    'login_attempts',
    'known_login_addresses',
    'login_devices',
    'login_record',
    'rate_buckets',
    'refresh_tokens',
    'file_blobs',
    'account_storage',
  ] as const;
  const rows = await Promise.all(tables.map((t) => s.ctx.db.selectFrom(t).selectAll().execute()));
  return JSON.stringify(rows);
}

describe('erasure', () => {
  it('leaves nothing of a deleted child: no name, id, properties, words, replays or sessions', async () => {
    server = await startTarget();
    const s = server;
    const child = await registerChild(s, 'radera');
    const kim = (await login(s.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const properties = { age: '13', gender: 'non-binary', device: 'Mobile, Android, PWA: Ja' };
    const chat = await api(s.url, '/portal/chat', {
      token: child.token,
      body: { subject: 'Hemma', text: WORDS, properties },
    });
    const chatId = Number(chat.body!.id);
    await api(s.url, `/portal/staff/conversations/${chatId}/accept`, { token: kim, body: {} });
    await api(s.url, `/portal/staff/conversations/${chatId}/messages`, {
      token: kim,
      body: { content: 'Tack för att du berättar' },
    });
    const keyed = await callFrom(s.url, '/portal/conversationmessage', {
      token: child.token,
      body: { conversation: chatId, content: `${WORDS} igen` },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(keyed.status).toBe(201);
    await api(s.url, '/portal/mail', {
      token: child.token,
      body: { subject: 'Brev', text: `${WORDS} i brevet`, properties },
    });
    await api(s.url, '/portal/createclientlogs', {
      token: child.token,
      body: { message: 'fel', level: 'error' },
    });
    const contactId = Number((await api(s.url, '/portal/accounts', { token: child.token })).body!.contactId);

    expect((await api(s.url, '/portal/deleteContact', { token: child.token, body: {} })).status).toBe(200);

    const all = await dump(s);
    for (const trace of [child.username, WORDS, 'non-binary', 'PWA: Ja']) expect(all).not.toContain(trace);
    const db = s.ctx.db;
    expect(
      await db.selectFrom('conversation_messages').select('id').where('contact_id', '=', contactId).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('conversations').select('id').where('contact_id', '=', contactId).execute(),
    ).toEqual([]);
    // The counsellor's chat ended with the account, and shows nobody.
    const held = await api(s.url, `/portal/staff/conversations/${chatId}/messages`, { token: kim });
    expect(JSON.stringify(held.body)).not.toContain(WORDS);
    const account = await db
      .selectFrom('accounts')
      .selectAll()
      .where('contact_id', '=', contactId)
      .executeTakeFirstOrThrow();
    for (const table of ['idempotency_keys', 'notifications', 'client_logs', 'refresh_tokens'] as const) {
      expect(await db.selectFrom(table).selectAll().where('account_id', '=', account.id).execute()).toEqual(
        [],
      );
    }
  });

  it('erases the reason a child wrote when leaving the queue, on a delete from history and on erasure', async () => {
    server = await startTarget();
    const s = server;
    const child = await registerChild(s);
    const reason = 'Jag heter Lisa Andersson, 0701234567';
    const first = Number(
      (await api(s.url, '/portal/chat', { token: child.token, body: { text: 'Hej' } })).body!.id,
    );
    await api(s.url, `${CONVERSATIONS}/cancel`, {
      token: child.token,
      method: 'PUT',
      body: { conversation: first, reason },
    });
    await api(s.url, `${CONVERSATIONS}/delete`, {
      token: child.token,
      method: 'PUT',
      body: { conversation: first },
    });
    expect(JSON.stringify(await s.ctx.db.selectFrom('conversations').selectAll().execute())).not.toContain(
      'Lisa',
    );
    const mailId = Number(
      (await api(s.url, '/portal/mail', { token: child.token, body: { text: 'Fråga' } })).body!.id,
    );
    await api(s.url, `${CONVERSATIONS}/cancel`, {
      token: child.token,
      method: 'PUT',
      body: { conversation: mailId, reason },
    });
    await api(s.url, '/portal/deleteContact', { token: child.token, body: {} });
    expect(await dump(s)).not.toContain('Lisa');
  });

  it('erases again what a request in flight at the erasure wrote after it', async () => {
    server = await startTarget();
    const s = server;
    const { db } = s.ctx;
    const child = await registerChild(s, 'sent');
    const chatId = Number(
      (await api(s.url, '/portal/chat', { token: child.token, body: { subject: 'Hemma', text: 'Hej' } }))
        .body!.id,
    );
    const account = await db
      .selectFrom('accounts')
      .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
      .select(['accounts.id', 'accounts.contact_id'])
      .where('accounts.username', '=', child.username)
      .executeTakeFirstOrThrow();
    expect((await api(s.url, '/portal/deleteContact', { token: child.token, body: {} })).status).toBe(200);

    // What requests checked just before the erasure and committed just after it leave behind: a
    // message in the chat it had detached, a new mail with its first message, a changed name.
    const message = (conversationId: number, text: string) =>
      messageRow(
        {
          conversationId,
          authorKind: 'contact',
          contactId: account.contact_id,
          authorName: child.username,
          message: text,
        },
        false,
      );
    await db
      .insertInto('conversation_messages')
      .values(message(chatId, `${WORDS} sent`))
      .execute();
    const mail = await db
      .insertInto('conversations')
      .values(
        conversationRow({
          contact_id: account.contact_id,
          system_type: 'mail',
          subject: `${WORDS} i ämnet`,
          state: 'New',
          last_contact_ping_date: nowIso(),
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('conversation_messages')
      .values(message(mail.id, `${WORDS} i brevet`))
      .execute();
    await db
      .updateTable('contacts')
      .set({ name: child.username })
      .where('id', '=', account.contact_id)
      .execute();
    expect(await dump(s)).toContain(WORDS);

    expect(await eraseLateWrites(s.ctx)).toBeGreaterThanOrEqual(1);
    const all = await dump(s);
    for (const trace of [child.username, WORDS]) expect(all).not.toContain(trace);
    expect(
      await db
        .selectFrom('conversations')
        .select('id')
        .where('contact_id', '=', account.contact_id)
        .execute(),
    ).toEqual([]);
    expect(
      (
        await db
          .selectFrom('conversations')
          .select('state')
          .where('id', '=', mail.id)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe('Cancelled');
    // Once no request can still be in flight, the account is no longer looked at.
    const later = Date.now() + LATE_WRITE_WINDOW_MS + 1_000;
    expect(await eraseLateWrites(s.ctx, later)).toBe(0);
  });

  it('empties a message that lands between the erasure own-chat and group-chat steps', async () => {
    server = await startTarget();
    const s = server;
    const { db, dbKind } = s.ctx;
    const child = await registerChild(s, 'mellan');
    const chatId = Number(
      (await api(s.url, '/portal/chat', { token: child.token, body: { subject: 'Hemma', text: 'Hej' } }))
        .body!.id,
    );
    const account = await db
      .selectFrom('accounts')
      .select(['id', 'contact_id'])
      .where('username', '=', child.username)
      .executeTakeFirstOrThrow();
    expect((await api(s.url, '/portal/deleteContact', { token: child.token, body: {} })).status).toBe(200);
    // A late message in the detached chat; when the sweep empties it, a second late message commits
    // (as a concurrent request's would between two statements of the sweep on PostgreSQL).
    await db
      .insertInto('conversation_messages')
      .values({
        conversation_id: chatId,
        author_kind: 'contact',
        contact_id: account.contact_id,
        agent_account_id: null,
        author_name: null,
        message: `${WORDS} först`,
        logged_date: nowIso(),
        created_after_closed: 1,
      })
      .execute();
    const insert = sql`INSERT INTO conversation_messages
      (conversation_id, author_kind, contact_id, message, logged_date, created_after_closed)
      VALUES (${sql.lit(chatId)}, 'contact', ${sql.lit(account.contact_id)}, ${sql.lit(`${WORDS} sen`)},
      ${sql.lit(nowIso())}, 1)`;
    const when = sql`OLD.message = ${sql.lit(`${WORDS} först`)} AND NEW.message = ''`;
    if (dbKind === 'postgres') {
      await sql`CREATE FUNCTION late_write() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN ${insert}; RETURN NULL; END $$`.execute(db);
      await sql`CREATE TRIGGER late_write AFTER UPDATE ON conversation_messages FOR EACH ROW
        WHEN (${when}) EXECUTE FUNCTION late_write()`.execute(db);
    } else {
      await sql`CREATE TRIGGER late_write AFTER UPDATE ON conversation_messages
        WHEN ${when} BEGIN ${insert}; END`.execute(db);
    }
    try {
      await eraseLateWrites(s.ctx);
    } finally {
      await sql`DROP TRIGGER late_write${sql.raw(dbKind === 'postgres' ? ' ON conversation_messages' : '')}`.execute(
        db,
      );
      if (dbKind === 'postgres') await sql`DROP FUNCTION late_write()`.execute(db);
    }
    // The next sweep finds the second one by its author and empties it.
    await eraseLateWrites(s.ctx);
    expect(await dump(s)).not.toContain(WORDS);
  });

  it('leaves no words of a child who writes while their account is erased', async () => {
    server = await startTarget();
    const s = server;
    const child = await registerChild(s, 'samtidigt');
    const chatId = Number(
      (await api(s.url, '/portal/chat', { token: child.token, body: { subject: 'Hemma', text: 'Hej' } }))
        .body!.id,
    );
    // Real concurrency: messages and mail on their way while the account is deleted.
    const writes = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? api(s.url, '/portal/conversationmessage', {
            token: child.token,
            body: { conversation: chatId, content: `${WORDS} ${i}` },
          })
        : api(s.url, '/portal/mail', {
            token: child.token,
            body: { subject: 'Brev', text: `${WORDS} ${i}` },
          }),
    );
    const deleted = api(s.url, '/portal/deleteContact', { token: child.token, body: {} });
    await Promise.all([...writes, deleted]);
    expect((await deleted).status).toBe(200);
    await eraseLateWrites(s.ctx);
    const all = await dump(s);
    for (const trace of [child.username, WORDS]) expect(all).not.toContain(trace);
  });

  it('keeps no message body beside an Idempotency-Key: a replay after deleting the chat shows it erased', async () => {
    server = await startTarget();
    const s = server;
    const child = await registerChild(s);
    const kim = (await login(s.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    const chatId = Number(
      (await api(s.url, '/portal/chat', { token: child.token, body: { text: 'Hej' } })).body!.id,
    );
    await api(s.url, `/portal/staff/conversations/${chatId}/accept`, { token: kim, body: {} });
    const key = randomUUID();
    const send = () =>
      callFrom(s.url, '/portal/conversationmessage', {
        token: child.token,
        body: { conversation: chatId, content: WORDS },
        headers: { 'Idempotency-Key': key },
      });
    const first = await send();
    expect(first.body!.message).toBe(WORDS);
    expect(JSON.stringify(await s.ctx.db.selectFrom('idempotency_keys').selectAll().execute())).not.toContain(
      WORDS,
    );
    await api(s.url, `${CONVERSATIONS}/delete`, {
      token: child.token,
      method: 'PUT',
      body: { conversation: chatId },
    });
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.body!.id).toBe(first.body!.id);
    expect(JSON.stringify(replay.body)).not.toContain(WORDS);
  });

  it('refuses an oversized username before writing anything, and prunes login counters', async () => {
    server = await startTarget();
    const s = server;
    const huge = await fetch(`${s.url}/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'portal-web',
        username: 'x'.repeat(500_000),
        password: 'y',
      }),
    });
    expect(huge.status).toBe(400);
    const long = await tryLogin(s.url, 'x'.repeat(101), 'fel', '203.0.113.5');
    expect(long.status).toBe(400);
    expect(await s.ctx.db.selectFrom('login_attempts').selectAll().execute()).toEqual([]);

    await tryLogin(s.url, 'demo', 'fel-losenord', '203.0.113.5');
    await tryLogin(s.url, 'demo', 'demo-losenord', '203.0.113.6');
    const stored = await dump(s);
    // Counters and known addresses are keyed by digests: no username or address in clear.
    expect(stored).not.toContain('203.0.113.5');
    expect(stored).not.toMatch(/pair:demo/);
    expect((await s.ctx.db.selectFrom('login_attempts').selectAll().execute()).length).toBeGreaterThan(0);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 100 * 24 * 3600_000 });
    expect(await runMaintenance(s.ctx)).toEqual([]);
    for (const table of [
      'login_attempts',
      'known_login_addresses',
      'login_devices',
      'login_record',
      'rate_buckets',
      'idempotency_keys',
    ] as const) {
      expect(await s.ctx.db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
  });
});

describe('accounts deleted before erasure existed', () => {
  it('are erased by the migration that brought it', async () => {
    const { createTestDatabase } = await import('../../../harness/test-server.ts');
    const { migrateToLatest, openDatabase } = await import('../../../server/db/database.ts');
    const database = await createTestDatabase();
    const open = openDatabase(database.url);
    try {
      await migrateToLatest(open, '0002-meeting-deleted-date');
      const db = open.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const now = new Date().toISOString();
      // What the old deletion left: the name gone, but the words, the author and the properties kept.
      const contact = await db
        .insertInto('contacts')
        .values({ name: '', created_date: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const account = await db
        .insertInto('accounts')
        .values({
          contact_id: contact.id,
          username: null,
          password_hash: null,
          personal_code_digest: null,
          created_date: now,
          deleted_date: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const chat = await db
        .insertInto('conversations')
        .values({
          contact_id: null,
          channel_id: null,
          meeting_id: null,
          system_type: 'chat',
          subject: 'Hemma',
          state: 'Cancelled',
          logged_date: now,
          cancel_reason: 'Jag heter Lisa',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('conversation_messages')
        .values({
          conversation_id: chat.id,
          author_kind: 'contact',
          contact_id: contact.id,
          author_name: 'lisa-a',
          message: WORDS,
          logged_date: now,
          created_after_closed: 0,
        })
        .execute();
      await db
        .insertInto('conversation_properties')
        .values({ conversation_id: chat.id, property_id: 'gender', value: 'non-binary' })
        .execute();
      await db
        .insertInto('notifications')
        .values({
          account_id: account.id,
          entity: `Conversation:${chat.id}`,
          notification_type: 'NewMessage',
          is_processed: 0,
          created_date: now,
        })
        .execute();

      await migrateToLatest(open);
      const tables = ['conversations', 'conversation_messages', 'conversation_properties', 'notifications'];
      const left = JSON.stringify(
        await Promise.all(tables.map((t) => db.selectFrom(t).selectAll().execute())),
      );
      for (const trace of [WORDS, 'lisa-a', 'Lisa', 'non-binary', 'Hemma', 'NewMessage'])
        expect(left).not.toContain(trace);
    } finally {
      await open.close();
      await database.drop();
    }
  });
});
