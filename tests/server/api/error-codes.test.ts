import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS, type ApiErrorCode } from '../../../contract/errors.ts';
import { ANTI_FORGERY_COOKIE } from '../../../contract/anti-forgery.ts';
import type { Meeting } from '../../../contract/meetings.ts';
import { LOGIN_POLICY, type DelayRule } from '../../../server/auth/login-throttle.ts';
import { login, postWithKey, startTestServer, type TestServer } from '../../../harness/test-server.ts';

/**
 * Every code of contract/errors.ts, provoked over HTTP against a real server, answers the status
 * API_ERRORS gives it and exactly the body `{ error, message }` (a conflict also names its state).
 * The table is keyed by the code: a code added to API_ERRORS without a way to provoke it here does
 * not compile.
 */

interface Fixture {
  server: TestServer;
  url: string;
  /** The demo child's access token. */
  child: string;
}

interface Site {
  /** A server as the functional tests run it. */
  main: Fixture & { counsellor: string; participant: string };
  /** Production rate limits, one registration per address, and a brake after one wrong old password. */
  limits: Fixture;
  /** A SQLite server of its own, whose database file the test locks and damages under it. */
  broken: Fixture;
}

/** The change-password brake of the limits server: one free guess, then a minute's wait. */
const PAIR: DelayRule = { free: 1, baseMs: 60_000, maxMs: 60_000 };
const REGISTRATIONS_PER_ADDRESS = 1;
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';
const GOOD_PASSWORD = 'Grön-Tekanna-Dansar-7';

/** A request to the API as a client makes it, answered as it came (status, headers, body). */
function call(
  url: string,
  pathName: string,
  init: {
    method?: string;
    token?: string;
    json?: unknown;
    body?: BodyInit;
    variant?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'X-App-Variant': init.variant ?? 'Barn' };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  return fetch(`${url}${pathName}`, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...headers, ...init.headers },
    body,
  });
}

const newUsername = () => `felkod-${randomUUID().slice(0, 8)}`;
const register = (url: string, username: string, password: string) =>
  call(url, '/portal/api/accounts/registercontact', { json: { username, password } });
const clientLog = (site: Fixture, message = 'felkodstest') =>
  call(site.url, '/portal/createclientlogs', { token: site.child, json: { message } });
const changePassword = (site: Fixture, oldPassword: string) =>
  call(site.url, '/portal/api/accounts/changePassword', {
    token: site.child,
    json: { oldPassword, password: GOOD_PASSWORD },
  });

/** A status a step on the way to the provoked answer must have, else the provocation is wrong. */
async function expectStatus(res: Response, status: number, step: string) {
  if (res.status !== status) throw new Error(`${step}: ${res.status} ${await res.text()}`);
}

/** A second connection to the server's own SQLite file, closed once `use` is done, whatever it did. */
async function withFile<T>(server: TestServer, use: (file: Database.Database) => T | Promise<T>): Promise<T> {
  const file = new Database(server.databaseUrl);
  try {
    return await use(file);
  } finally {
    file.close();
  }
}

const PROVOKE: Record<ApiErrorCode, (site: Site) => Promise<Response>> = {
  unauthorized: ({ main }) => call(main.url, '/portal/accounts'),

  // A counsellor's token on the child app's API.
  forbidden: ({ main }) => call(main.url, '/portal/accounts', { token: main.counsellor }),

  not_found: ({ main }) =>
    call(main.url, '/portal/features/contacts/no-such-feature/detail', { token: main.child }),

  // An Idempotency-Key shorter than the 8 characters a key has.
  bad_request: ({ main }) =>
    postWithKey(main.url, '/portal/createclientlogs', {
      token: main.child,
      body: { message: 'felkodstest' },
      key: 'kort',
    }),

  unknown_variant: ({ main }) => call(main.url, '/portal/accounts', { token: main.child, variant: 'Okand' }),

  // A client log without its message: the route's schema refuses it.
  validation: ({ main }) =>
    call(main.url, '/portal/createclientlogs', { token: main.child, json: { level: 'error' } }),

  wrong_password: ({ main }) => changePassword(main, 'inte-mitt-losenord'),

  weak_password: ({ main }) => register(main.url, newUsername(), 'kort7'),

  common_password: ({ main }) => register(main.url, newUsername(), 'Sommar2024!'),

  // A username that reads as a staff title.
  name_not_allowed: ({ main }) => register(main.url, `kurator-${randomUUID().slice(0, 6)}`, GOOD_PASSWORD),

  foreign_origin: ({ main }) =>
    call(main.url, '/portal/createclientlogs', {
      token: main.child,
      json: { message: 'felkodstest' },
      headers: { Origin: 'https://evil.example' },
    }),

  // A public write that carries a cookie but not the cookie's value in the anti-forgery header.
  anti_forgery: ({ main }) =>
    call(main.url, '/portal/api/accounts/verifyusername', {
      json: { username: newUsername() },
      headers: { Cookie: `${ANTI_FORGERY_COOKIE}=${'a'.repeat(43)}` },
    }),

  username_taken: ({ main }) => register(main.url, 'demo', GOOD_PASSWORD),

  // A second chat while the first is open.
  conflict: async ({ main }) => {
    const first = await call(main.url, '/portal/chat', { token: main.child, json: { subject: 'Första' } });
    await expectStatus(first, 200, 'the first chat');
    return call(main.url, '/portal/chat', { token: main.child, json: { subject: 'Andra' } });
  },

  // The old password of a change guessed again before the brake lets another guess through.
  too_many_requests: async ({ limits }) => {
    for (let i = 0; i < PAIR.free; i++) {
      await expectStatus(await changePassword(limits, 'inte-mitt-losenord'), 400, `guess ${i + 1}`);
    }
    return changePassword(limits, 'inte-mitt-losenord');
  },

  // A registration from an address that has used its budget.
  rate_limited: async ({ limits }) => {
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS; i++) {
      await expectStatus(
        await register(limits.url, newUsername(), GOOD_PASSWORD),
        201,
        `registration ${i + 1}`,
      );
    }
    return register(limits.url, newUsername(), GOOD_PASSWORD);
  },

  // The same key again with another body.
  idempotency_mismatch: async ({ main }) => {
    const key = randomUUID();
    const first = await postWithKey(main.url, '/portal/createclientlogs', {
      token: main.child,
      body: { message: 'första' },
      key,
    });
    await expectStatus(first, 201, 'the first write');
    return postWithKey(main.url, '/portal/createclientlogs', {
      token: main.child,
      body: { message: 'en annan' },
      key,
    });
  },

  // A JSON body over Fastify's 1 MiB body limit.
  payload_too_large: ({ main }) => clientLog(main, 'x'.repeat(1024 * 1024 + 1)),

  // Homework named .pdf whose bytes are a Windows program.
  unsupported_type: async ({ main }) => {
    const list = await call(main.url, `${MEETINGS}/meetings`, { token: main.participant });
    await expectStatus(list, 200, 'the meetings');
    const { value } = (await list.json()) as { value: Meeting[] };
    const meeting = value.find((m) => m.state === 'InProgress');
    if (!meeting) throw new Error('the participant has no meeting in progress');
    const form = new FormData();
    form.set('Text', 'Min läxa');
    form.set('MeetingRuid', String(meeting.id));
    form.set('DocumentName', 'läxa.pdf');
    const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]);
    form.set('DocumentContent', new Blob([program], { type: 'application/pdf' }), 'läxa.pdf');
    return call(main.url, `${MEETINGS}/meetingmessage`, { token: main.participant, body: form });
  },

  // A form post to a route that reads JSON.
  unsupported_media: ({ main }) =>
    call(main.url, '/portal/createclientlogs', {
      token: main.child,
      body: new URLSearchParams({ message: 'felkodstest' }),
    }),

  // A table the route reads is gone from the database file.
  internal: async ({ broken }) => {
    await withFile(broken.server, (file) => file.exec('DROP TABLE notifications'));
    return call(broken.url, '/portal/api/notifications', { token: broken.child });
  },

  // Another connection holds SQLite's write lock past the server's busy_timeout (5 s): SQLITE_BUSY.
  unavailable: ({ broken }) =>
    withFile(broken.server, async (file) => {
      file.exec('BEGIN IMMEDIATE');
      try {
        file.prepare('INSERT INTO rate_buckets (key, full_at) VALUES (?, 0)').run('error-codes-lock');
        return await postWithKey(broken.url, '/portal/createclientlogs', {
          token: broken.child,
          body: { message: 'felkodstest' },
          key: randomUUID(),
        });
      } finally {
        file.exec('ROLLBACK');
      }
    }),
};

/** The fields a body carries besides `error` and `message` (server/errors.ts, toBody). */
const EXTRA: Partial<Record<ApiErrorCode, Record<string, unknown>>> = {
  conflict: { status: expect.stringMatching(/./) },
};
/** The codes whose answer says when to try again. */
const RETRY_AFTER: ReadonlySet<ApiErrorCode> = new Set(['unavailable', 'too_many_requests', 'rate_limited']);

let site: Site;
let brokenDir = '';
/** Every server started, so that each is stopped even when another failed to start. */
const started: TestServer[] = [];

async function fixture(options: Parameters<typeof startTestServer>[0]): Promise<Fixture> {
  const server = await startTestServer(options);
  started.push(server);
  return { server, url: server.url, child: (await login(server.url, 'demo', 'demo-losenord')).access_token };
}

beforeAll(async () => {
  // SQLite whatever DATABASE_URL says: the destructive cases lock and damage its file.
  brokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'error-codes-'));
  const [main, limits, broken] = await Promise.all([
    fixture({}),
    fixture({
      config: { rateLimitFactor: 1, registrationsPerAddress: REGISTRATIONS_PER_ADDRESS },
      build: { loginPolicy: { ...LOGIN_POLICY, pair: PAIR } },
    }),
    fixture({ databaseUrl: path.join(brokenDir, 'app.db') }),
  ]);
  site = {
    main: {
      ...main,
      counsellor: (await login(main.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token,
      participant: (await login(main.url, 'DEMOKOD-0001')).access_token,
    },
    limits,
    broken,
  };
});

afterAll(async () => {
  await Promise.all(started.map((server) => server.dispose()));
  if (brokenDir) fs.rmSync(brokenDir, { recursive: true, force: true });
});

describe('every API error code, provoked over HTTP', () => {
  it.each(Object.keys(PROVOKE) as ApiErrorCode[])(
    '%s',
    async (code) => {
      const res = await PROVOKE[code](site);
      const body: unknown = await res.json();
      expect({ status: res.status, body }).toStrictEqual({
        status: API_ERRORS[code].status,
        body: { error: code, message: API_ERRORS[code].message, ...EXTRA[code] },
      });
      if (RETRY_AFTER.has(code)) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    },
    20_000,
  );
});
