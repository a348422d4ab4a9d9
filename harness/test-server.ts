import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { buildApp, type App, type BuildOptions } from '../server/app.ts';
import { loadConfig, type ServerConfig, type VariantKey } from '../server/config.ts';

/**
 * A real server on a free port with its own database: a fresh SQLite file by default, or - when
 * DATABASE_URL points at PostgreSQL (npm run test:scale) - a fresh PostgreSQL database of its own, so
 * test files can run in parallel. REDIS_URL, when set, makes the hub use Redis.
 */
export interface TestServer extends App {
  url: string;
  databaseUrl: string;
  dispose(): Promise<void>;
}

/** The machine's PostgreSQL, for the tests of faults only PostgreSQL has (a connection cut by the server). */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createTestDatabase(
  base = process.env.DATABASE_URL,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (base?.startsWith('postgres')) {
    const name = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    const admin = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      url: base.replace(/\/[^/]*$/, `/${name}`),
      async drop() {
        const c = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
        await c.connect();
        // pg's Pool.end() resolves before its sockets have closed; forcing the drop while they
        // close makes the server kill them, and the pool reports that as an unhandled error.
        for (let i = 0; i < 50; i++) {
          const { rows } = await c.query<{ n: string }>(
            'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (Number(rows[0]?.n) === 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  return {
    url: path.join(dir, 'app.db'),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Functional tests do in seconds what a person does in an hour, all from one address: they run with
 * every content limit 50 times the production figure. The tests of the limits themselves
 * (tests/server/security) pass `config: { rateLimitFactor: 1 }`.
 */
export const TEST_RATE_LIMIT_FACTOR = 50;

export async function startTestServer(
  options: {
    variant?: VariantKey;
    databaseUrl?: string;
    build?: BuildOptions;
    config?: Partial<ServerConfig>;
  } = {},
): Promise<TestServer> {
  const database = options.databaseUrl ? null : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? database!.url;
  const config: ServerConfig = {
    ...loadConfig({ APP_VARIANT: options.variant ?? 'barn', DEMO_SEED: '1' }),
    databaseUrl,
    redisUrl: process.env.REDIS_URL || undefined,
    clientDir: path.join(os.tmpdir(), 'no-client-in-server-tests'),
    rateLimitFactor: TEST_RATE_LIMIT_FACTOR,
    ...options.config,
  };
  const app = await buildApp(config, options.build);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    ...app,
    url: `http://127.0.0.1:${port}`,
    databaseUrl,
    async dispose() {
      await app.close();
      await database?.drop();
    },
  };
}

export const CLIENT_ID = 'portal-web';
export const SCOPE = 'openid profile portal offline_access';

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  expires_in: number;
}

export async function tokenRequest(url: string, form: Record<string, string>) {
  const res = await fetch(`${url}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A refresh-token grant at the token endpoint, as the client `clientId` makes it. */
export const refreshRequest = (url: string, refreshToken: string, clientId = CLIENT_ID) =>
  tokenRequest(url, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/**
 * A password grant at the token endpoint with exactly `fields` besides the grant type: unlike
 * `login`, nothing is added, so a test can leave out the scope or the password.
 */
export const passwordRequest = (
  url: string,
  fields: { client_id: string; username: string; password?: string; scope?: string },
) => tokenRequest(url, { grant_type: 'password', ...fields });

export async function login(
  url: string,
  username: string,
  password = '',
  clientId = CLIENT_ID,
): Promise<Tokens> {
  const res = await tokenRequest(url, {
    grant_type: 'password',
    client_id: clientId,
    scope: SCOPE,
    username,
    password,
    portalId: 'portal',
  });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${JSON.stringify(res.body)}`);
  return res.body as unknown as Tokens;
}

/**
 * A write as the app's outbox sends it: POST with the token, the variant and an Idempotency-Key.
 * The raw answer, for a test that reads its status and headers (a replay says so in a header).
 */
export function postWithKey(
  url: string,
  pathName: string,
  { token, body, key, variant = 'Barn' }: { token: string; body: unknown; key: string; variant?: string },
): Promise<Response> {
  return fetch(`${url}${pathName}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'X-App-Variant': variant,
      'Idempotency-Key': key,
    },
    body: JSON.stringify(body),
  });
}

export async function api(
  url: string,
  pathName: string,
  init: { method?: string; token?: string; body?: unknown; variant?: string } = {},
) {
  const headers: Record<string, string> = { 'X-App-Variant': init.variant ?? 'Barn' };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${url}${pathName}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/**
 * An access token signed with the server's own key, as the server would make it, but with the
 * claims a test chooses (an expiry in the past, say): only what the test changes is wrong.
 */
export async function signAccessToken(
  server: TestServer,
  claims: { accountId: number; contactId: number; roles: string[]; clientId?: string; gen?: number },
  expiresInSeconds: number,
): Promise<string> {
  const { SignJWT } = await import('jose');
  const key = server.ctx.keys.current.signing;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    client_id: claims.clientId ?? 'portal-web',
    scope: SCOPE,
    role: claims.roles,
    contact_id: claims.contactId,
    gen: claims.gen ?? 0,
  })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(server.url)
    .setAudience('portal')
    .setSubject(String(claims.accountId))
    .setJti(randomUUID())
    .setIssuedAt(now - 60)
    .setExpirationTime(now + expiresInSeconds)
    .sign(key.privateKey);
}

/** A staff account straight in the database (no API creates staff): for a second counsellor, say. */
export async function createStaffAccount(
  server: TestServer,
  username: string,
  password: string,
  roles: Array<'counsellor' | 'group_leader' | 'admin'>,
  name = username,
): Promise<number> {
  const { createAccount } = await import('../server/db/seed.ts');
  return createAccount(server.ctx.db, name, roles, { username, password });
}

/** The account and contact ids a token was issued for (from its claims; the signature is not checked). */
export function claimsOf(token: string): { accountId: number; contactId: number } {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    sub: string;
    contact_id: number;
  };
  return { accountId: Number(payload.sub), contactId: payload.contact_id };
}
