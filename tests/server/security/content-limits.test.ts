import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { API_ERRORS } from '../../../contract/errors.ts';
import { RATE_LIMITS } from '../../../server/security/rate-limiter.ts';
import { holdClock } from '../hold-clock.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { callFrom, registerChild, startTarget, tally } from '../../../harness/attack.ts';

/**
 * Attack: flooding. 30 mails in 149 ms filled the counsellors' queue and 100 chat messages went in
 * 326 ms. Creation is now limited per account and per address, counted in the database (so every
 * process counts together); over a limit the answer is 429 with Retry-After and a Swedish message,
 * and a refused write keeps its Idempotency-Key free for the retry.
 */
let server: TestServer;
let counsellor: string;
beforeAll(async () => {
  server = await startTarget({ config: { registrationsPerAddress: 20 } });
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server?.dispose());
afterEach(() => vi.useRealTimers());

const parallel = <T>(n: number, make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

describe('creation limits', () => {
  it('let one child put at most the mail limit in the queue, however fast', async () => {
    holdClock();
    const child = await registerChild(server);
    const answers = await parallel(30, (i) =>
      callFrom(server.url, '/portal/mail', {
        token: child.token,
        body: { subject: `Flod ${i}`, text: `flod-${child.username}` },
      }),
    );
    const counts = tally(answers.map((a) => a.status));
    expect(counts[200]).toBe(RATE_LIMITS.mail.perAccount.count);
    expect(counts[429]).toBe(30 - RATE_LIMITS.mail.perAccount.count);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body).toEqual({ error: 'rate_limited', message: API_ERRORS.rate_limited.message });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    const queue = await api(server.url, '/portal/staff/queue', { token: counsellor });
    const queued = JSON.stringify(queue.body).split(`flod-${child.username}`).length - 1;
    expect(queued).toBeLessThanOrEqual(RATE_LIMITS.mail.perAccount.count);
  });

  it('take at most the message limit of a burst of chat messages', async () => {
    holdClock();
    const child = await registerChild(server);
    const chat = await api(server.url, '/portal/chat', {
      token: child.token,
      body: { subject: 'Hej', text: 'Hej' },
    });
    const id = Number(chat.body!.id);
    await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: counsellor, body: {} });
    const answers = await parallel(100, (i) =>
      callFrom(server.url, '/portal/conversationmessage', {
        token: child.token,
        body: { conversation: id, content: `m${i}` },
      }),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({
      201: RATE_LIMITS.message.perAccount.count,
      429: 100 - RATE_LIMITS.message.perAccount.count,
    });
  });

  it('hold per address across accounts', async () => {
    holdClock();
    const address = '203.0.113.77';
    const children = await parallel(7, () => registerChild(server));
    const answers = await Promise.all(
      children.flatMap((child) =>
        Array.from({ length: 10 }, () =>
          callFrom(server.url, '/portal/mail', {
            token: child.token,
            address,
            body: { text: 'Från samma adress' },
          }),
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(RATE_LIMITS.mail.perAddress.count);
  });

  it('keep a refused write’s Idempotency-Key for the retry after the wait', async () => {
    const child = await registerChild(server);
    holdClock();
    for (let i = 0; i < RATE_LIMITS.mail.perAccount.count; i++) {
      expect(
        (await callFrom(server.url, '/portal/mail', { token: child.token, body: { text: `brev ${i}` } }))
          .status,
      ).toBe(200);
    }
    const key = randomUUID();
    let token = child.token;
    const send = () =>
      callFrom(server.url, '/portal/mail', {
        token,
        body: { text: 'det viktiga' },
        headers: { 'Idempotency-Key': key },
      });
    const refused = await send();
    expect(refused.status).toBe(429);
    vi.setSystemTime(Date.now() + Number(refused.retryAfter) * 1000);
    // The wait may outlast the access token: the client signs in again and retries with the same key.
    token = (await login(server.url, child.username, child.password)).access_token;
    const accepted = await send();
    expect(accepted.status).toBe(200);
    const replayed = await send();
    expect(replayed.status).toBe(200);
    expect(replayed.body!.id).toBe(accepted.body!.id);
  });

  it('limit registrations per address', async () => {
    const address = '203.0.113.78';
    const answers = await parallel(25, (i) =>
      callFrom(server.url, '/portal/api/accounts/registercontact', {
        address,
        body: {
          username: `flod-${i}-${Date.now() % 100000}`,
          password: `Blå-Ballong-${i}-x`,
          properties: {},
        },
      }),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: 20, 429: 5 });
  });

  it('limit a group participant’s homework uploads', async () => {
    const group = await startTarget({ variant: 'gruppstod' });
    try {
      const token = (await login(group.url, 'DEMOKOD-0001')).access_token;
      const meetings = await api(
        group.url,
        '/portal/features/meetings/meetingsapplicationfeature-id/meetings',
        {
          token,
          variant: 'Gruppstod',
        },
      );
      const running = (meetings.body as { value: Array<{ id: number; state: string }> }).value.find(
        (m) => m.state !== 'Completed' && m.state !== 'Cancelled',
      )!;
      const upload = (i: number) => {
        const form = new FormData();
        form.set('Subject', 'Uppgift');
        form.set('Text', `Läxa ${i}`);
        form.set('MessageType', '1');
        form.set('MeetingRuid', String(running.id));
        form.set('DocumentName', `laxa-${i}.txt`);
        form.set('DocumentContent', new Blob([`Svar nummer ${i}`], { type: 'text/plain' }), `laxa-${i}.txt`);
        return fetch(`${group.url}/portal/features/meetings/meetingsapplicationfeature-id/meetingmessage`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Gruppstod' },
          body: form,
        }).then((r) => r.status);
      };
      const statuses = await parallel(25, upload);
      expect(tally(statuses)).toEqual({
        200: RATE_LIMITS.meetingMessage.perAccount.count,
        429: 25 - RATE_LIMITS.meetingMessage.perAccount.count,
      });
    } finally {
      await group.dispose();
    }
  });

  it('limit the hub connections one account holds', async () => {
    const child = await registerChild(server);
    const open: HubConnection[] = [];
    const connect = async () => {
      const connection = new HubConnectionBuilder()
        .withUrl(`${server.url}/hubs/portalaccountevents`, {
          transport: HttpTransportType.WebSockets,
          accessTokenFactory: () => child.token,
        })
        .configureLogging(LogLevel.None)
        .build();
      await connection.start();
      open.push(connection);
    };
    try {
      for (let i = 0; i < server.ctx.config.hubMaxConnectionsPerAccount; i++) await connect();
      await expect(connect()).rejects.toThrow(/429/);
      // Closing one makes room again.
      await open.pop()!.stop();
      await connect();
    } finally {
      await Promise.all(open.map((c) => c.stop()));
    }
  });
});
