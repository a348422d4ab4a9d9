import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  CLIENT_ID,
  login,
  refreshRequest,
  startTestServer,
  type TestServer,
} from '../../../harness/test-server.ts';

/**
 * A refresh whose answer never reached the client (the tab closed during the startup refresh, the
 * phone's line dropped): the client still holds the token it sent, and presents it again. That must
 * not end the login - the child would be signed out and their cached chats wiped - while a leaked
 * token must still end it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.dispose());

const refresh = (token: string) => refreshRequest(server.url, token);
const refreshToken = (res: { body: Record<string, unknown> }) => String(res.body.refresh_token);
const revoke = (token: string) =>
  fetch(`${server.url}/connect/revocation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: 'refresh_token', client_id: CLIENT_ID }),
  });
/** The token endpoint's answer to a refresh token that does not (or no longer) work. */
const REFUSED = { status: 400, body: { error: 'invalid_grant' } };
const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The family's tokens that would still be swapped (neither used nor revoked). */
async function liveTokensOfFamily(token: string) {
  const { db } = server.ctx;
  const row = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_digest', '=', digest(token))
    .executeTakeFirstOrThrow();
  return db
    .selectFrom('refresh_tokens')
    .select('token_digest')
    .where('family_id', '=', row.family_id)
    .where('used_date', 'is', null)
    .where('revoked_date', 'is', null)
    .execute();
}

describe('a refresh whose answer was lost', () => {
  it('swaps the same token again, and the answer that was lost no longer works', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const lost = await refresh(first.refresh_token);
    expect(lost.status).toBe(200);
    // The client never saw `lost`: it presents `first` again.
    const retry = await refresh(first.refresh_token);
    expect(retry.status).toBe(200);
    expect(refreshToken(retry)).not.toBe(refreshToken(lost));
    expect(await liveTokensOfFamily(first.refresh_token)).toEqual([
      { token_digest: digest(refreshToken(retry)) },
    ]);
    // The login goes on from the retry's answer.
    const next = await refresh(refreshToken(retry));
    expect(next.status).toBe(200);
    expect(await refresh(refreshToken(next))).toMatchObject({ status: 200 });
  });

  it('survives several lost answers in a row', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    for (let lostAnswers = 0; lostAnswers < 3; lostAnswers++) {
      expect((await refresh(first.refresh_token)).status).toBe(200);
    }
    const received = await refresh(first.refresh_token);
    expect((await refresh(refreshToken(received))).status).toBe(200);
  });

  it('ends the login when the answer was not lost after all: someone else retried a leaked token', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    // The child received `second` and keeps it for its next refresh; an attacker holding a copy of
    // `first` presents it meanwhile and gets in, until the child's next refresh...
    const second = await refresh(first.refresh_token);
    const attacker = await refresh(first.refresh_token);
    expect(attacker.status).toBe(200);
    // ...which presents a token that was retired: reuse, so the whole login ends, the attacker's too.
    expect(await refresh(refreshToken(second))).toMatchObject(REFUSED);
    expect(await refresh(refreshToken(attacker))).toMatchObject(REFUSED);
    expect(await refresh(first.refresh_token)).toMatchObject(REFUSED);
    expect(await liveTokensOfFamily(first.refresh_token)).toEqual([]);
  });

  it('does not bring back a token the user revoked', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const second = await refresh(first.refresh_token);
    const revoked = await revoke(refreshToken(second));
    expect(revoked.status).toBe(200);
    expect(await refresh(first.refresh_token)).toMatchObject(REFUSED);
    expect(await liveTokensOfFamily(first.refresh_token)).toEqual([]);
  });

  it('leaves one usable token at most when the same token is presented many times at once', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(first.refresh_token)));
    const issued = answers.filter((a) => a.status === 200).map(refreshToken);
    const live = await liveTokensOfFamily(first.refresh_token);
    if (server.ctx.dbKind === 'sqlite') {
      // One connection: the requests run one after another, each a retry of the one before.
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(live).toHaveLength(1);
    } else {
      // Concurrent transactions: a retry that loses a race is reuse, and may end the login.
      expect(live.length).toBeLessThanOrEqual(1);
    }
    // The one left is an answer given, and it works; whatever else was given is spent.
    for (const row of live) {
      const survivor = issued.find((token) => digest(token) === row.token_digest);
      expect(survivor).toBeDefined();
      expect((await refresh(survivor!)).status).toBe(200);
    }
  });

  it('refuses a token whose login was revoked while it was being issued', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const second = await refresh(first.refresh_token);
    // What a revocation leaves when it ran before `second` was committed (PostgreSQL sees no row of
    // an open transaction): every token of the login revoked but the new one.
    await server.ctx.db
      .updateTable('refresh_tokens')
      .set({ revoked_date: new Date().toISOString() })
      .where('token_digest', '=', digest(first.refresh_token))
      .execute();
    expect(await refresh(refreshToken(second))).toMatchObject(REFUSED);
    expect(await liveTokensOfFamily(first.refresh_token)).toEqual([]);
  });

  it('leaves nothing usable when the login is revoked while a refresh is being answered', async () => {
    // On PostgreSQL a revocation does not see a successor whose transaction has not committed yet.
    for (let round = 0; round < 20; round++) {
      const { refresh_token } = await login(server.url, 'demo', 'demo-losenord');
      const [answer, revoked] = await Promise.all([refresh(refresh_token), revoke(refresh_token)]);
      expect(revoked.status).toBe(200);
      if (answer.status === 200) {
        expect(await refresh(refreshToken(answer))).toMatchObject(REFUSED);
      }
    }
  });

  it('leaves the token unused when storing its successor fails, so the next try is a plain refresh', async () => {
    const first = await login(server.url, 'demo', 'demo-losenord');
    const { db, dbKind } = server.ctx;
    // A real fault in the database: storing any successor token fails until the trigger goes.
    if (dbKind === 'postgres') {
      await sql`CREATE FUNCTION fail_successor() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'fault'; END $$`.execute(db);
      await sql`CREATE TRIGGER fail_successor BEFORE INSERT ON refresh_tokens FOR EACH ROW
        WHEN (NEW.parent_id IS NOT NULL) EXECUTE FUNCTION fail_successor()`.execute(db);
    } else {
      await sql`CREATE TRIGGER fail_successor BEFORE INSERT ON refresh_tokens
        WHEN NEW.parent_id IS NOT NULL BEGIN SELECT RAISE(ABORT, 'fault'); END`.execute(db);
    }
    try {
      const failed = await refresh(first.refresh_token);
      expect(failed.status).toBe(500);
    } finally {
      await sql`DROP TRIGGER fail_successor${sql.raw(dbKind === 'postgres' ? ' ON refresh_tokens' : '')}`.execute(
        db,
      );
    }
    // Had the token been marked used without a successor, this would be reuse and end the login.
    expect(await liveTokensOfFamily(first.refresh_token)).toEqual([
      { token_digest: digest(first.refresh_token) },
    ]);
    const next = await refresh(first.refresh_token);
    expect(next.status).toBe(200);
    expect((await refresh(refreshToken(next))).status).toBe(200);
  });
});
