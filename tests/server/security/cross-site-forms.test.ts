import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../harness/test-server.ts';
import { startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a page on another site posts the registration form (a child visiting it creates an
 * account they never asked for, or a flood of them). The API now reads JSON only - an HTML form
 * cannot send JSON across sites without the browser asking first - and refuses any write whose
 * Origin is another site.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTarget({ config: { publicOrigin: 'https://stod.example' } });
});
afterAll(async () => server?.dispose());

const register = (username: string, headers: Record<string, string>, body: string) =>
  fetch(`${server.url}/portal/api/accounts/registercontact`, { method: 'POST', headers, body });
const exists = async (username: string) =>
  !!(await server.ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst());
const form = (username: string) =>
  new URLSearchParams({ username, password: 'Grön-Tekanna-Dansar-7' }).toString();
const json = (username: string) => JSON.stringify({ username, password: 'Grön-Tekanna-Dansar-7' });

describe('registration posted from another site', () => {
  it('as an HTML form is refused and creates nothing', async () => {
    const res = await register(
      'formbarn',
      { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
      form('formbarn'),
    );
    expect([403, 415]).toContain(res.status);
    const plain = await register(
      'formbarn',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      form('formbarn'),
    );
    expect(plain.status).toBe(415);
    expect(await exists('formbarn')).toBe(false);
  });

  it('as JSON from a page of another origin is refused with a Swedish message', async () => {
    const res = await register(
      'jsonbarn',
      { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      json('jsonbarn'),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'foreign_origin',
      message: 'Förfrågan kom från en annan webbplats.',
    });
    expect(await exists('jsonbarn')).toBe(false);
  });

  it('from the site itself works', async () => {
    const res = await register(
      'egetbarn',
      { 'Content-Type': 'application/json', Origin: 'https://stod.example' },
      json('egetbarn'),
    );
    expect(res.status).toBe(201);
  });
});
