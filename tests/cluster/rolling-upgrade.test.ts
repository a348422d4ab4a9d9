import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { freeClusterPort, startCluster, type Cluster } from '../../harness/cluster/cluster.ts';
import { prepareRelease, type Release } from '../../scripts/release.ts';
import { createTestDatabase, LOCAL_POSTGRES_URL, login, postWithKey } from '../../harness/test-server.ts';
import { BENCH_LIMITS } from '../../harness/server-process.ts';
import { withFailingMigration, withProbeMigration, PROBE_COLUMN } from '../../harness/next-release.ts';

/**
 * A rolling upgrade of `npm run cluster` while children write: two processes on PostgreSQL and
 * Redis behind nginx are replaced one at a time by a release whose server adds a column (its first
 * process migrates the shared database while the other still runs the old code) and whose client has
 * a new build. Every acknowledged message is stored once, the old and the new release serve side by
 * side, and a page of either build finds its code through nginx at every moment.
 */
let cluster: Cluster;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let release: Release;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rolling-upgrade-'));

/** A built client as the server serves it: its page, its service worker and a hashed asset. */
function standInClient(build: string): string {
  const dir = path.join(scratch, `client-${build}`);
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="sv"><head><script type="module" src="/assets/app-${build}.js"></script></head><body><div id="root"></div></body></html>`,
  );
  fs.writeFileSync(path.join(dir, 'sw.js'), `// build ${build}\n`);
  fs.writeFileSync(path.join(dir, 'assets', `app-${build}.js`), `export const build = '${build}';\n`);
  return dir;
}

beforeAll(async () => {
  database = await createTestDatabase(LOCAL_POSTGRES_URL);
  const oldClient = standInClient('old');
  for (let attempt = 0; ; attempt++) {
    try {
      cluster = await startCluster({
        processes: 2,
        port: await freeClusterPort(2),
        databaseUrl: database.url,
        redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        clientDir: oldClient,
        demoSeed: true,
        env: BENCH_LIMITS,
      });
      break;
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('is taken')) throw error;
    }
  }
  release = withProbeMigration(
    await prepareRelease({
      id: `test-${randomUUID().slice(0, 8)}`,
      dir: scratch,
      client: standInClient('new'),
      previousClientDir: oldClient,
    }),
  );
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
  await database?.drop();
  fs.rmSync(scratch, { recursive: true, force: true });
}, 60_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes messages one after another as the outbox does: each with its own key, sent again with the
 * same key after a failure or a refusal to wait, until the server acknowledges it. Answers what was
 * acknowledged.
 */
async function writeUntil(done: () => boolean, token: string, conversation: number, name: string) {
  const acknowledged: string[] = [];
  for (let i = 0; !done(); i++) {
    const content = `${name} ${i}`;
    const key = randomUUID();
    for (;;) {
      const res = await postWithKey(cluster.url, '/portal/conversationmessage', {
        token,
        key,
        body: { conversation, content },
      }).catch(() => null);
      if (res?.status === 201) break;
      if (res && res.status < 500 && res.status !== 429) {
        throw new Error(`${content}: ${res.status} ${await res.text()}`);
      }
      await pause(100);
    }
    acknowledged.push(content);
  }
  return acknowledged;
}

async function text(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

describe('a rolling upgrade while children write', () => {
  it('loses and doubles nothing, serves both releases side by side, and ends on the new one', async () => {
    const { access_token: token } = await login(cluster.url, 'demo', 'demo-losenord');
    const mails = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const res = await postWithKey(cluster.url, '/portal/mail', {
          token,
          key: randomUUID(),
          body: { subject: `Uppgradering ${n}`, text: 'Hej' },
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { id: number }).id;
      }),
    );

    let upgraded = false;
    const writers = mails.map((conversation, n) =>
      writeUntil(() => upgraded, token, conversation, `skribent ${n}`),
    );
    // What a page of either build asks of the site meanwhile: its code, through nginx.
    const assetAnswers: number[] = [];
    let newAssetAsked = 0;
    const probing = (async () => {
      while (!upgraded) {
        assetAnswers.push((await fetch(`${cluster.url}/assets/app-old.js`)).status);
        const sw = await text(`${cluster.url}/sw.js`);
        // A page of the new build, from whichever process nginx picks for each of its requests
        // (round robin: the old one too, while it runs).
        if (sw.body.includes('build new')) {
          for (let i = 0; i < 4; i++) {
            assetAnswers.push((await fetch(`${cluster.url}/assets/app-new.js`)).status);
            newAssetAsked++;
          }
        }
        await pause(50);
      }
    })();
    const sideBySide: string[] = [];
    await cluster.upgrade(release, async () => {
      if (sideBySide.length > 0) return;
      // The first process runs the new release, the second still the old: each serves its own build.
      for (const node of cluster.nodes) sideBySide.push((await text(`${node.url}/sw.js`)).body.trim());
      // Both serve for a while (as when an operator checks each new process before the next): pages
      // of the new build ask for their code meanwhile.
      const deadline = Date.now() + 20_000;
      while (newAssetAsked < 12 && Date.now() < deadline) await pause(50);
    });
    // Some writing on the new release alone before the writers stop.
    const { access_token: after } = await login(cluster.url, 'demo', 'demo-losenord');
    expect(after).toBeTruthy();
    upgraded = true;
    const acknowledged = (await Promise.all(writers)).flat();
    await probing;

    expect(sideBySide).toEqual(['// build new', '// build old']);
    for (const node of cluster.nodes) expect((await text(`${node.url}/sw.js`)).body).toContain('build new');
    expect(cluster.release().id).toBe(release.id);
    expect(newAssetAsked).toBeGreaterThanOrEqual(12);
    expect(assetAnswers.filter((status) => status !== 200)).toEqual([]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows: columns } = await client.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'conversations' AND column_name = $1`,
        [PROBE_COLUMN],
      );
      expect(columns).toHaveLength(1);
      const { rows } = await client.query<{ message: string; n: string }>(
        `SELECT message, count(*) AS n FROM conversation_messages WHERE conversation_id = ANY($1) AND message LIKE 'skribent %' GROUP BY message`,
        [mails],
      );
      const stored = new Map(rows.map((r) => [r.message, Number(r.n)]));
      expect(acknowledged.length).toBeGreaterThan(10);
      expect(acknowledged.filter((m) => stored.get(m) !== 1)).toEqual([]);
      expect([...stored.values()].filter((n) => n !== 1)).toEqual([]);
    } finally {
      await client.end();
    }
  }, 180_000);

  it('a release that cannot start is rolled back on the process it stopped, and the site serves on', async () => {
    const before = cluster.release();
    const broken = withFailingMigration(
      await prepareRelease({
        id: `broken-${randomUUID().slice(0, 8)}`,
        dir: scratch,
        client: before.clientDir,
      }),
    );
    await expect(cluster.upgrade(broken)).rejects.toThrow(/did not start on release broken-/);
    expect(cluster.release().id).toBe(before.id);
    expect(cluster.nodes.every((node) => node.running())).toBe(true);
    for (const node of cluster.nodes) expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
    const { access_token: token } = await login(cluster.url, 'demo', 'demo-losenord');
    expect(token).toBeTruthy();
  }, 120_000);
});
