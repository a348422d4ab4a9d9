import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../../contract/errors.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';

/**
 * Attack: a participant who passes for staff by name in a group chat ('Kurator Kim', the provider's
 * name, right-to-left overrides that reverse what follows). Names are now cleaned of invisible and
 * direction-changing characters, and names that look like a staff title are refused - at
 * registration (the username is the first name shown), at a name change, and when a leader adds a
 * participant.
 */
let server: TestServer;
let group: TestServer;
beforeAll(async () => {
  server = await startTarget();
  group = await startTarget({ variant: 'gruppstod' });
});
afterAll(async () => {
  await server?.dispose();
  await group?.dispose();
});

const UPDATE = '/portal/features/contacts/contactsapplicationfeature-id/update';

describe('display names', () => {
  const staffLike = [
    'Kurator Kim',
    'kurator',
    'K u r a t o r',
    'Kur4tor',
    'КУРАТОР',
    'Stödlinjen',
    'Stodlinjen Kim',
    'Gruppledare',
    'Admin',
    'Mod\u200Berator',
  ];
  for (const name of staffLike) {
    it(`refuses ${JSON.stringify(name)} as a name`, async () => {
      const child = await registerChild(server);
      const res = await api(server.url, UPDATE, { token: child.token, body: { name } });
      expect(res.body).toEqual({ error: 'name_not_allowed', message: API_ERRORS.name_not_allowed.message });
    });
  }

  it('strips direction overrides and invisible characters from a name', async () => {
    const child = await registerChild(server);
    const res = await api(server.url, UPDATE, {
      token: child.token,
      body: { name: 'Alex\u202Erotaruk\u202C\u200B' },
    });
    expect(res.status).toBe(200);
    expect((res.body as { info: { contact: { name: string } } }).info.contact.name).toBe('Alexrotaruk');
  });

  it('refuses a staff-like username at registration, and says it is not available', async () => {
    for (const username of ['kurator', 'kurator.kim', 'stodlinjen', 'gruppledare-1', 'admin']) {
      const res = await api(server.url, '/portal/api/accounts/registercontact', {
        body: { username, password: 'Grön-Tekanna-Dansar-7', properties: {} },
      });
      expect(res.status).toBe(400);
      expect(res.body!.error).toBe('name_not_allowed');
      const check = await api(server.url, '/portal/api/accounts/verifyusername', { body: { username } });
      expect(check.body).toEqual({ available: false });
    }
  });

  it('refuses a staff-like participant name from a group leader', async () => {
    const leader = (await login(group.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const res = await api(group.url, '/portal/staff/series/1/participants', {
      token: leader,
      body: { name: 'Kurator' },
    });
    expect(res.status).toBe(400);
    expect(
      (
        await api(group.url, '/portal/staff/series/1/participants', {
          token: leader,
          body: { name: 'Nova\u202E' },
        })
      ).body,
    ).toMatchObject({ name: 'Nova' });
  });
});
