import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEUTRAL_AUTHOR_NAME, type PeerPostWire } from '../../../contract/peers.ts';
import { CONTACTS_FEATURE_IDS } from '../../../contract/profile.ts';
import {
  api,
  createTestDatabase,
  login,
  startTestServer,
  type TestServer,
} from '../../../harness/test-server.ts';

/**
 * A login name is never the name others see: Peers used to show a new account's username as the
 * author of its posts to every child, half of the credentials an attacker needs.
 */
const V = 'Peers';
const PASSWORD = 'blå-ballong-73';
const CONTACTS = `/portal/features/contacts/${CONTACTS_FEATURE_IDS.main}`;
let server: TestServer;
let counsellor = '';

async function register(username: string): Promise<string> {
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD },
    variant: V,
  });
  expect(res.status).toBe(201);
  return (await login(server.url, username, PASSWORD)).access_token;
}

const call = (path: string, token: string, body?: unknown) =>
  api(server.url, path, { token, body, variant: V });

async function publishedPost(author: string, subject: string): Promise<PeerPostWire> {
  const created = await call('/portal/api/peers/posts', author, {
    subject,
    text: 'Någon annan som känner så?',
  });
  expect(created.status).toBe(201);
  const id = (created.body as unknown as PeerPostWire).id;
  expect((await call(`/portal/staff/peers/posts/${id}/approve`, counsellor, {})).status).toBe(200);
  return created.body as unknown as PeerPostWire;
}

beforeAll(async () => {
  server = await startTestServer({ variant: 'peers' });
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => {
  await server?.dispose();
});

describe('a new account on Peers', () => {
  it('has no name until the child chooses one, and its posts show the neutral name, never the username', async () => {
    const username = 'alva.andersson2012';
    const alva = await register(username);
    const reader = await register('laesare-1');
    const detail = await call(`${CONTACTS}/detail`, alva);
    expect((detail.body as { info: { contact: { name: string } } }).info.contact.name).toBe('');

    await publishedPost(alva, 'Ensam');
    const board = JSON.stringify((await call('/portal/api/peers/posts', reader)).body);
    expect(board).toContain('Ensam');
    expect(board).toContain(NEUTRAL_AUTHOR_NAME);
    expect(board.toLowerCase()).not.toContain('alva');
  });

  it('refuses the username as the name to be seen by, in any case, and shows a chosen one', async () => {
    const kim = await register('kim.k');
    for (const name of ['kim.k', 'Kim.K', ' KIM.K ']) {
      const refused = await call(`${CONTACTS}/update`, kim, { name });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'name_not_allowed' });
    }
    expect((await call(`${CONTACTS}/update`, kim, { name: 'Molnet' })).status).toBe(200);
    const post = await publishedPost(kim, 'Skolan');
    expect(post.authorName).toBe('Molnet');
  });
});

describe('names that were usernames', () => {
  it('are cleared by the migration, and the posts that carry them show the neutral name', async () => {
    const { migrateToLatest, openDatabase, nowIso } = await import('../../../server/db/database.ts');
    const database = await createTestDatabase();
    const open = openDatabase(database.url);
    try {
      await migrateToLatest(open, '0009-rate-buckets');
      const db = open.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const now = nowIso();
      const account = async (username: string, name: string, role = 'child') => {
        const contact = await db
          .insertInto('contacts')
          .values({ name, created_date: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const row = await db
          .insertInto('accounts')
          .values({ contact_id: contact.id, username, password_hash: 'x', created_date: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db.insertInto('account_roles').values({ account_id: row.id, role }).execute();
        for (const table of ['peer_posts', 'peer_replies'] as const) {
          const values = {
            author_account_id: row.id,
            author_name: name,
            text: 'Hej',
            state: 'published',
            created_date: now,
            published_date: now,
          };
          if (table === 'peer_posts')
            await db
              .insertInto(table)
              .values({ ...values, subject: 'Rubrik' })
              .execute();
          else {
            const post = await db.selectFrom('peer_posts').select('id').executeTakeFirstOrThrow();
            await db
              .insertInto(table)
              .values({ ...values, post_id: post.id })
              .execute();
          }
        }
        return contact.id as number;
      };
      const alva = await account('alva.andersson2012', 'Alva.Andersson2012');
      const sam = await account('sam.s', 'Sam');
      const kim = await account('kim', 'Kim', 'counsellor');

      await migrateToLatest(open);
      const names = await db.selectFrom('contacts').select(['id', 'name']).orderBy('id').execute();
      expect(names).toEqual([
        { id: alva, name: '' },
        { id: sam, name: 'Sam' },
        { id: kim, name: 'Kim' },
      ]);
      for (const table of ['peer_posts', 'peer_replies']) {
        const authors = await db.selectFrom(table).select('author_name').orderBy('id').execute();
        expect(authors.map((a) => a.author_name)).toEqual([NEUTRAL_AUTHOR_NAME, 'Sam', 'Kim']);
      }
    } finally {
      await open.close();
      await database.drop();
    }
  });
});
