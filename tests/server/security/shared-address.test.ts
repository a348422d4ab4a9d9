import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RATE_LIMITS } from '../../../server/security/rate-limiter.ts';
import { holdClock } from '../hold-clock.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { callFrom, registerChild, startTarget, tally, tryLogin } from '../../../harness/attack.ts';

/**
 * Attack: one account behind a shared address (a school, a family's router, a mobile operator's
 * NAT) spends everyone's budget. Requests the account's own limit refused still counted against the
 * address: one child sent 310 messages in a second and every other child at that address got 429
 * for the rest of the minute; 61 refused chat starts kept the others from starting a chat for 26
 * minutes. And fixed windows let twice a limit through around a window's turn. Now the account's
 * limit is asked first and only what it lets through is counted against the address, and every
 * limit is a token bucket.
 */
const SCHOOL = '198.51.100.30';
const MINUTE = 60_000;

let server: TestServer;
let counsellor: string;
beforeAll(async () => {
  server = await startTarget({ variant: 'assistent' });
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server?.dispose());
afterEach(() => vi.useRealTimers());

const parallel = <T>(n: number, make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const variant = { 'X-App-Variant': 'Assistent' };
const fromSchool = (path: string, init: { token?: string; body?: unknown; method?: string } = {}) =>
  callFrom(server.url, path, { ...init, address: SCHOOL, headers: variant });

/** A child with a chat a counsellor has accepted, so it can take messages. */
async function childInChat() {
  const child = await registerChild(server);
  const chat = await api(server.url, '/portal/chat', {
    token: child.token,
    body: { subject: 'Hej', text: 'Hej' },
    variant: 'Assistent',
  });
  const id = Number(chat.body!.id);
  await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: counsellor, body: {} });
  return { ...child, conversation: id };
}

const message = (child: { token: string; conversation: number }, text: string) =>
  fromSchool('/portal/conversationmessage', {
    token: child.token,
    body: { conversation: child.conversation, content: text },
  });

describe('one account behind a shared address', () => {
  it('spends its own message budget, not its classmates’', async () => {
    holdClock();
    const flooder = await childInChat();
    const classmate = await childInChat();
    const flood = await parallel(310, (i) => message(flooder, `flod ${i}`));
    expect(tally(flood.map((a) => a.status))).toEqual({
      201: RATE_LIMITS.message.perAccount.count,
      429: 310 - RATE_LIMITS.message.perAccount.count,
    });
    expect((await message(classmate, 'Hej, är du där?')).status).toBe(201);
  });

  it('keeps no classmate from starting a chat by starting chats over and over', async () => {
    holdClock();
    const flooder = await registerChild(server);
    const starts = await parallel(61, (i) =>
      fromSchool('/portal/chat', { token: flooder.token, body: { subject: 'Hej', text: `start ${i}` } }),
    );
    expect(tally(starts.map((a) => a.status))[429]).toBeGreaterThanOrEqual(
      61 - RATE_LIMITS.chat.perAccount.count,
    );
    const classmate = await registerChild(server);
    const start = await fromSchool('/portal/chat', {
      token: classmate.token,
      body: { subject: 'Hej', text: 'Jag behöver prata' },
    });
    expect(start.status).toBe(200);
  });
});

describe('a limit', () => {
  it('lets no more than its count through around the turn of a minute', async () => {
    const child = await childInChat();
    // 100 ms before a minute turns: a fixed window would start counting again 200 ms later.
    const turn = Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
    holdClock(turn - 100);
    const before = await parallel(30, (i) => message(child, `före ${i}`));
    vi.setSystemTime(turn + 100);
    const after = await parallel(30, (i) => message(child, `efter ${i}`));
    const passed = [...before, ...after].filter((a) => a.status === 201).length;
    expect(passed).toBe(RATE_LIMITS.message.perAccount.count);
  });
});

describe('a school’s 30 children behind one address', () => {
  // 30 registrations and logins, each a real password hash: given room on a busy machine.
  it(
    'all check a name, register, sign in, ask the assistant, start a chat and write a mail',
    { timeout: 180_000 },
    async () => {
      const results = await parallel(30, async (i) => {
        const username = `klass-${i}-${randomUUID().slice(0, 6)}`;
        const password = `Blå-${randomUUID().slice(0, 6)}-Ballong`;
        const statuses: number[] = [];
        const step = async (answer: Promise<{ status: number; body: Record<string, unknown> | null }>) => {
          const { status, body } = await answer;
          statuses.push(status);
          return body;
        };
        // A name typed in three goes, as the registration form checks it.
        for (const name of [username.slice(0, 5), username.slice(0, 9), username]) {
          await step(fromSchool('/portal/api/accounts/verifyusername', { body: { username: name } }));
        }
        await step(
          fromSchool('/portal/api/accounts/registercontact', {
            body: {
              username,
              password,
              properties: { birthYear: '2012', gender: 'female', device: 'Mobile' },
            },
          }),
        );
        const signedIn = await tryLogin(server.url, username, password, SCHOOL);
        statuses.push(signedIn.status);
        const token = String(signedIn.body.access_token);
        const assistant = await step(fromSchool('/portal/api/assistant/token', { method: 'POST' }));
        for (const question of ['ledsen', 'bråk hemma']) {
          await step(
            fromSchool('/portal/api/assistant/ask', {
              token: String(assistant?.access_token),
              body: { question },
            }),
          );
        }
        await step(fromSchool('/portal/chat', { token, body: { subject: 'Hej', text: 'Kan jag prata?' } }));
        await step(
          fromSchool('/portal/mail', { token, body: { subject: 'Fråga', text: 'Hej, jag undrar.' } }),
        );
        return statuses;
      });
      const refused = results.flat().filter((status) => status >= 300);
      expect(refused).toEqual([]);
      expect(results.flat()).toHaveLength(30 * 10);
    },
  );
});
