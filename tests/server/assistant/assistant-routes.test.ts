import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AssistantAnswer, AssistantContent } from '../../../contract/assistant.ts';
import { DEFAULT_ASSISTANT_CONTENT_FILE } from '../../../server/config.ts';
import { holdClock } from '../hold-clock.ts';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';

afterEach(() => vi.useRealTimers());

/** Everything the server logged, line by line. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

const original = JSON.parse(fs.readFileSync(DEFAULT_ASSISTANT_CONTENT_FILE, 'utf8')) as AssistantContent;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-content-'));
const contentFile = path.join(dir, 'content.sv.json');
const log = new LogCapture();
let server: TestServer;
let mtime = Date.now() / 1000;

/** Writes the content file with a later modification time (as an editor's save would). */
function writeContent(text: string) {
  fs.writeFileSync(contentFile, text);
  mtime += 10;
  fs.utimesSync(contentFile, mtime, mtime);
}

beforeAll(async () => {
  writeContent(JSON.stringify(original));
  server = await startTestServer({
    variant: 'assistent',
    build: { logger: true, logStream: log },
    config: { assistantContentFile: contentFile },
  });
});
afterAll(async () => {
  await server?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const variant = 'Assistent';
async function assistantToken(url = server.url): Promise<string> {
  const res = await api(url, '/portal/api/assistant/token', { method: 'POST', variant });
  expect(res.status).toBe(200);
  return String(res.body?.access_token);
}
const content = (token?: string) => api(server.url, '/portal/api/assistant/content', { token, variant });
const ask = (token: string | undefined, body: unknown) =>
  api(server.url, '/portal/api/assistant/ask', { token, body, variant });

describe('the public assistant token', () => {
  it('is issued without a login, for the assistant only, and expires', async () => {
    const res = await api(server.url, '/portal/api/assistant/token', { method: 'POST', variant });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', scope: 'assistant', expires_in: 14_400 });
    expect(res.body).not.toHaveProperty('refresh_token');
  });

  it('opens no other API and not the hub', async () => {
    const token = await assistantToken();
    expect((await api(server.url, '/portal/accounts', { token, variant })).status).toBe(401);
    expect((await api(server.url, '/portal/api/notifications/count', { token, variant })).status).toBe(401);
    expect((await api(server.url, '/portal/staff/queue', { token, variant })).status).toBe(401);
    const userinfo = await fetch(`${server.url}/connect/userinfo`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(userinfo.status).toBe(401);
    const negotiate = await fetch(`${server.url}/hubs/portalaccountevents/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(negotiate.status).toBe(401);
  });

  it('is limited per address', async () => {
    const limited = await startTestServer({ variant: 'assistent', config: { rateLimitFactor: 1 } });
    try {
      holdClock();
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) {
        statuses.push(
          (await api(limited.url, '/portal/api/assistant/token', { method: 'POST', variant })).status,
        );
      }
      expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
      expect(statuses[120]).toBe(429);
    } finally {
      await limited.dispose();
    }
  });

  it('is not offered where the assistant is off (Barn)', async () => {
    const barn = await startTestServer({ variant: 'barn' });
    try {
      expect((await api(barn.url, '/portal/api/assistant/token', { method: 'POST' })).status).toBe(404);
    } finally {
      await barn.dispose();
    }
  });
});

describe('the assistant content and questions', () => {
  it('refuse no token, a child or staff token and a forged one', async () => {
    const user = await login(server.url, 'demo', 'demo-losenord');
    const staff = await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff');
    expect((await content(staff.access_token)).status).toBe(401);
    expect((await ask(staff.access_token, { question: 'ledsen' })).status).toBe(401);
    expect((await content()).status).toBe(401);
    expect((await content(user.access_token)).status).toBe(401);
    expect((await content('not.a.token')).status).toBe(401);
    expect((await ask(undefined, { question: 'ledsen' })).status).toBe(401);
    expect((await ask(user.access_token, { question: 'ledsen' })).status).toBe(401);
  });

  it('serves the content with an ETag and answers 304 when unchanged', async () => {
    const token = await assistantToken();
    const res = await fetch(`${server.url}/portal/api/assistant/content`, {
      headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': variant },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AssistantContent;
    expect(body.version).toBe(original.version);
    expect(body.topics.map((t) => t.title)).toContain('Känslor');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${server.url}/portal/api/assistant/content`, {
      headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': variant, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('matches a question by keywords, and an unmatched one gets the counsellor paths', async () => {
    const token = await assistantToken();
    const sad = await ask(token, { question: 'Jag är så JÄTTELEDSEN idag!!' });
    expect(sad.status).toBe(200);
    expect((sad.body as unknown as AssistantAnswer).topicId).toBe('kanslor');
    const school = await ask(token, { question: 'Jag blir mobbad i skolan' });
    expect((school.body as unknown as AssistantAnswer).topicId).toBe('skola-och-kompisar');
    // The most urgent topic wins a tie: it is listed first.
    const urgent = await ask(token, { question: 'jag vill skada mig och är ledsen' });
    expect((urgent.body as unknown as AssistantAnswer).topicId).toBe('skada-sig-sjalv');
    const unknown = await ask(token, { question: 'Vad kostar en cykel?' });
    expect(unknown.body).toEqual({ topicId: null, ...original.unmatched, version: original.version });
    expect((unknown.body as unknown as AssistantAnswer).nextSteps).toContain('chat');
  });

  it('refuses what does not fit the schema', async () => {
    const token = await assistantToken();
    expect((await ask(token, { question: 'x'.repeat(501) })).status).toBe(400);
    expect((await ask(token, { question: '' })).status).toBe(400);
    expect((await ask(token, {})).status).toBe(400);
    expect((await ask(token, { question: 'ledsen\u0000' })).status).toBe(400);
    const huge = await fetch(`${server.url}/portal/api/assistant/ask`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'X-App-Variant': variant,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ question: 'a'.repeat(100_000) }),
    });
    expect(huge.status).toBe(413);
  });

  it('limits the questions of one token', async () => {
    const limited = await startTestServer({ variant: 'assistent', config: { rateLimitFactor: 1 } });
    try {
      holdClock();
      const token = await assistantToken(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await api(limited.url, '/portal/api/assistant/ask', {
          token,
          body: { question: 'ledsen' },
          variant,
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
      // Another token (another person) from the same address still gets answers.
      const other = await assistantToken(limited.url);
      const res = await api(limited.url, '/portal/api/assistant/ask', {
        token: other,
        body: { question: 'ledsen' },
        variant,
      });
      expect(res.status).toBe(200);
    } finally {
      await limited.dispose();
    }
  });

  it('logs nothing of what the child asks', async () => {
    const token = await assistantToken();
    const secret = 'hemlighetsfullt-ord-xq7 min pappa slår mig';
    expect((await ask(token, { question: secret })).status).toBe(200);
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.text).toContain('/portal/api/assistant/ask');
    expect(log.text).not.toContain('hemlighetsfullt');
    expect(log.text).not.toContain('slår');
  });
});

describe('the content file', () => {
  it('is read again when edited, and a broken edit keeps the last good version', async () => {
    const token = await assistantToken();
    const edited = { ...original, version: 'edited-2', greeting: 'Hej från en ny version!' };
    writeContent(JSON.stringify(edited));
    const after = await content(token);
    expect(after.body).toMatchObject({ version: 'edited-2', greeting: 'Hej från en ny version!' });

    writeContent('{ "version": "trasig", ');
    expect((await content(token)).body).toMatchObject({ version: 'edited-2' });
    expect(log.text).toContain('Assistant content is not valid JSON');

    writeContent(JSON.stringify({ ...edited, version: 'no-topics', topics: [] }));
    expect((await content(token)).body).toMatchObject({ version: 'edited-2' });
    expect(log.text).toContain('Assistant content is not valid; the last good version stays');

    writeContent(
      JSON.stringify({ ...edited, version: 'twice', topics: [original.topics[0], original.topics[0]] }),
    );
    expect((await content(token)).body).toMatchObject({ version: 'edited-2' });
    expect(log.text).toContain('appears twice');

    writeContent(JSON.stringify(original));
    expect((await content(token)).body).toMatchObject({ version: original.version });
  });
});
