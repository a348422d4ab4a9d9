/**
 * EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL for the counsellors' queue, the conversation lists and the
 * meeting lists, with the volume of bench:api seeded (npm run bench:explain).
 * The statements are the server's own: a server in this process, on a fresh PostgreSQL database,
 * answers each list call while it records what it runs, and each list query it ran (on
 * conversations or meetings, single-row lookups by id left out) is explained with its parameters.
 * Prints, per call, how many statements it ran and how long it took, then the plans.
 *
 * BENCH_WITHOUT_LIST_INDEXES=1 drops the indexes of migration 0006-list-indexes first (the "before").
 */
import os from 'node:os';
import path from 'node:path';
import { sql, type CompiledQuery } from 'kysely';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { LIST_INDEXES } from '../server/db/migrations/0006-list-indexes.ts';
import { api, createTestDatabase, login } from '../harness/test-server.ts';
import { BENCH_PASSWORD, DEFAULT_SIZE, seedVolume } from './api-seed.ts';
import { runBench } from './support.ts';
import { PRODUCTION_ENV } from '../harness/server-process.ts';

const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT = Number(process.env.BENCH_PORT ?? 8351);
const WITHOUT_INDEXES = process.env.BENCH_WITHOUT_LIST_INDEXES === '1';

const APP = '/portal/features/conversations/conversationsapplication-id';
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';

/** The list queries of a call: on conversations or meetings, and not a lookup of one row by id. */
const isListQuery = (q: CompiledQuery) =>
  /^\s*select/i.test(q.sql) &&
  /from "(conversations|meetings)"/.test(q.sql) &&
  !/where "id" = \$1$/.test(q.sql.trim());

async function main() {
  process.env.DATABASE_URL = POSTGRES_URL;
  const database = await createTestDatabase();
  let recording = false;
  const recorded: CompiledQuery[] = [];
  const server = await buildApp(
    {
      ...loadConfig({ APP_VARIANT: 'peers', DEMO_SEED: '1', ...PRODUCTION_ENV }),
      databaseUrl: database.url,
      clientDir: path.join(os.tmpdir(), 'no-client-in-server-tests'),
    },
    { onQuery: (q) => void (recording && recorded.push(q)) },
  );
  try {
    await server.app.listen({ port: PORT, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${PORT}`;
    const { db } = server.ctx;
    if (WITHOUT_INDEXES) {
      for (const name of Object.keys(LIST_INDEXES)) await sql`DROP INDEX ${sql.id(name)}`.execute(db);
    }
    const seeded = await seedVolume(db, DEFAULT_SIZE);
    await sql`ANALYZE`.execute(db);
    console.info(`Seeded on PostgreSQL: ${JSON.stringify(seeded.rows)}`);
    console.info(`List indexes (0006-list-indexes): ${WITHOUT_INDEXES ? 'dropped (before)' : 'present'}\n`);

    const staff = (name: string) => login(url, name, BENCH_PASSWORD, 'portal-staff');
    const counsellor = (await staff(seeded.counsellors[0]!)).access_token;
    const leader = (await staff(seeded.leaders[0]!)).access_token;
    const child = (await login(url, seeded.children[1]!.username, BENCH_PASSWORD)).access_token;
    const participant = (await login(url, seeded.participants[0]!.code)).access_token;
    const calls: Array<[string, string, string]> = [
      ["The counsellors' queue", counsellor, '/portal/staff/queue'],
      ["A counsellor's conversations", counsellor, '/portal/staff/conversations'],
      [
        "A child's conversations (mine: chats and mail threads)",
        child,
        `${APP}/conversations?take=9999&skip=0&selection=mine`,
      ],
      ["A child's conversations (active)", child, `${APP}/conversations?take=999&skip=0&selection=active`],
      [
        "A participant's conversations (group chats)",
        participant,
        `${APP}/conversations?take=9999&skip=0&selection=mine`,
      ],
      ["A participant's meeting list", participant, `${MEETINGS}/meetings`],
      ["A group leader's meeting list", leader, '/portal/staff/meetings'],
    ];
    for (const [title, token, pathName] of calls) {
      recorded.length = 0;
      recording = true;
      const started = performance.now();
      const res = await api(url, pathName, { token, variant: 'Peers' });
      const ms = performance.now() - started;
      recording = false;
      if (res.status !== 200) throw new Error(`${title}: ${res.status} ${JSON.stringify(res.body)}`);
      const items = (res.body as { value: unknown[] }).value.length;
      console.info(`=== ${title}: GET ${pathName.split('?')[0]}`);
      console.info(
        `    ${items} items, ${recorded.length} statements, ${ms.toFixed(1)} ms (one call, warm)\n`,
      );
      const lists = [...new Map(recorded.filter(isListQuery).map((q) => [q.sql, q])).values()];
      for (const query of lists) {
        // The recorded statement with its parameters, through the server's own driver.
        const explained = await db.executeQuery<{ 'QUERY PLAN': string }>({
          ...query,
          sql: `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`,
        });
        console.info(`  ${query.sql}`);
        console.info(`  parameters: ${JSON.stringify(query.parameters)}`);
        for (const row of explained.rows) console.info(`    ${row['QUERY PLAN']}`);
        console.info('');
      }
    }
  } finally {
    await server.close();
    await database.drop();
  }
}

runBench(main);
