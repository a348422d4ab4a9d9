import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';

let server: TestServer;
let child: string;
beforeAll(async () => {
  server = await startTestServer();
  child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => server.dispose());

const DETAIL = '/portal/features/contacts/contactsapplicationfeature-id/detail';

describe('profile and account', () => {
  it('answers 401 without a token on every authenticated route', async () => {
    for (const [method, path] of [
      ['GET', DETAIL],
      ['GET', '/portal/features/contacts/meetingcontactsapplicationfeature-id/detail'],
      ['GET', '/portal/accounts'],
      ['POST', '/portal/features/contacts/contactsapplicationfeature-id/update'],
      ['POST', '/portal/deleteContact'],
      ['POST', '/portal/api/accounts/changePassword'],
      ['GET', '/portal/features/contacts/contactsapplicationfeature-id/contactname?contactId=1'],
      ['POST', '/portal/createclientlogs'],
    ] as const) {
      const res = await api(server.url, path, { method, body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('reads info.contact of the signed-in user under each variant feature id', async () => {
    for (const feature of [
      'contactsapplicationfeature-id',
      'meetingcontactsapplicationfeature-id',
      'chattcontactsapplicationfeature-id',
    ]) {
      const res = await api(server.url, `/portal/features/contacts/${feature}/detail`, { token: child });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        info: { contact: { name: 'Demo', properties: { gender: 'female' } } },
      });
      const contact = (res.body as { info: { contact: Record<string, unknown> } }).info.contact;
      expect(typeof contact.id).toBe('number');
      expect(Date.parse(String(contact.createdDate))).not.toBeNaN();
    }
  });

  it('refuses an unknown X-App-Variant and accepts every variant of the spec', async () => {
    expect((await api(server.url, '/portal/accounts', { token: child, variant: 'Okänd' })).status).toBe(400);
    for (const variant of ['Barn', 'Gruppstod', 'Chatt', 'Peers', 'Assistent', 'Main']) {
      expect((await api(server.url, '/portal/accounts', { token: child, variant })).status).toBe(200);
    }
  });

  it('updates the own contact and refuses unknown property ids', async () => {
    const ok = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
      token: child,
      body: { properties: { birthYear: '2011' } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      info: { contact: { properties: { birthYear: '2011', gender: 'female' } } },
    });
    const bad = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
      token: child,
      body: { properties: { isAdmin: 'true' } },
    });
    expect(bad.status).toBe(400);
  });

  it('takes only the genders and birth years the forms offer (they label the child for staff)', async () => {
    const update = (properties: Record<string, string>) =>
      api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
        token: child,
        body: { properties },
      });
    const thisYear = new Date().getFullYear();
    const refused: Record<string, string>[] = [
      { gender: 'kurator' },
      { gender: '<b>Tjej</b>' },
      { birthYear: 'tjugo' },
      { birthYear: String(thisYear + 1) },
      { birthYear: String(thisYear - 121) },
      { birthYear: '2011 ' },
    ];
    for (const properties of refused) {
      expect((await update(properties)).status, JSON.stringify(properties)).toBe(400);
    }
    const accepted = await update({ gender: 'non-binary', birthYear: String(thisYear - 14) });
    expect(accepted.status).toBe(200);
    // Registration takes the same values only, and creates nothing when one is refused.
    const register = (properties: Record<string, string>) =>
      api(server.url, '/portal/api/accounts/registercontact', {
        body: { username: 'egen-etikett', password: 'blå-ballong-73', properties },
      });
    expect((await register({ gender: 'kurator', birthYear: '2012' })).status).toBe(400);
    expect((await register({ gender: 'female', birthYear: '1800' })).status).toBe(400);
    expect((await register({ gender: 'female', birthYear: '2012' })).status).toBe(201);
    expect(accepted.body).toMatchObject({
      info: { contact: { properties: { gender: 'non-binary', birthYear: String(thisYear - 14) } } },
    });
    expect((await update({ gender: 'female', birthYear: '2011' })).status).toBe(200);
  });

  it('lets group members read each other’s names and nobody else', async () => {
    const a = (await login(server.url, 'DEMOKOD-0001')).access_token;
    const b = (await login(server.url, 'DEMOKOD-0002')).access_token;
    const bId = ((await api(server.url, DETAIL, { token: b })).body as { info: { contact: { id: number } } })
      .info.contact.id;
    const path = `/portal/features/contacts/meetingcontactsapplicationfeature-id/contactname?contactId=${bId}`;
    expect(await api(server.url, path, { token: a })).toMatchObject({ status: 200, body: { name: 'Robin' } });
    expect((await api(server.url, path, { token: child })).status).toBe(403);
  });

  it('registers an account publicly, checks the username, and changes the password', async () => {
    const check = (username: string) =>
      api(server.url, '/portal/api/accounts/verifyusername', { body: { username, token: '' } });
    expect((await check('nytt-barn')).body).toEqual({ available: true });
    const created = await api(server.url, '/portal/api/accounts/registercontact', {
      body: { username: 'nytt-barn', password: 'blå-ballong-73', properties: { birthYear: '2012' } },
    });
    expect(created.status).toBe(201);
    expect((await check('nytt-barn')).body).toEqual({ available: false });
    expect((await check('demo')).body).toEqual({ available: false });
    const dup = await api(server.url, '/portal/api/accounts/registercontact', {
      body: { username: 'nytt-barn', password: 'blå-ballong-73' },
    });
    expect(dup.status).toBe(409);

    const token = (await login(server.url, 'nytt-barn', 'blå-ballong-73')).access_token;
    const wrong = await api(server.url, '/portal/api/accounts/changePassword', {
      token,
      body: { oldPassword: 'fel', password: 'nytt-losen-1' },
    });
    expect(wrong.status).toBe(400);
    const changed = await api(server.url, '/portal/api/accounts/changePassword', {
      token,
      body: { oldPassword: 'blå-ballong-73', password: 'nytt-losen-1' },
    });
    expect(changed.status).toBe(200);
    await expect(login(server.url, 'nytt-barn', 'blå-ballong-73')).rejects.toThrow();
    await login(server.url, 'nytt-barn', 'nytt-losen-1');
  });

  it('deletes the contact: the login and every token stop working and the name is erased', async () => {
    await api(server.url, '/portal/api/accounts/registercontact', {
      body: { username: 'ska-bort', password: 'blå-ballong-73' },
    });
    const tokens = await login(server.url, 'ska-bort', 'blå-ballong-73');
    const contactId = (
      (await api(server.url, DETAIL, { token: tokens.access_token })).body as {
        info: { contact: { id: number } };
      }
    ).info.contact.id;
    expect(
      (await api(server.url, '/portal/deleteContact', { token: tokens.access_token, body: {} })).status,
    ).toBe(200);
    expect((await api(server.url, '/portal/accounts', { token: tokens.access_token })).status).toBe(401);
    await expect(login(server.url, 'ska-bort', 'blå-ballong-73')).rejects.toThrow();
    const contact = await server.ctx.db
      .selectFrom('contacts')
      .select('name')
      .where('id', '=', contactId)
      .executeTakeFirstOrThrow();
    expect(contact.name).toBe('');
  });
});

describe('client logs', () => {
  it('stores a log for the signed-in user without the query or hash of the url', async () => {
    const res = await api(server.url, '/portal/createclientlogs', {
      token: child,
      body: {
        message: 'Något gick fel',
        stack: 'Error: x\n at y',
        url: 'https://app.example/tillfalle/3?kod=hemlig#x',
        level: 'error',
      },
    });
    expect(res.status).toBe(201);
    const row = await server.ctx.db
      .selectFrom('client_logs')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      message: 'Något gick fel',
      url: 'https://app.example/tillfalle/3',
      level: 'error',
      variant: 'Barn',
    });
  });

  it('refuses an empty message', async () => {
    expect(
      (await api(server.url, '/portal/createclientlogs', { token: child, body: { message: ' ' } })).status,
    ).toBe(400);
  });
});

describe('health and metrics', () => {
  it('answers /healthz and counts requests in /metrics', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await api(server.url, '/portal/accounts', { token: child });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/^hub_connections \d+$/m);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/portal\/accounts",status="200"\} [1-9]/);
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/portal\/accounts"\} [1-9]/,
    );
  });

  it('serves the runtime config with the variant and URLs of this origin', async () => {
    const config = (await (await fetch(`${server.url}/config.json`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      authUrl: server.url,
      apiUrl: `${server.url}/portal`,
      signalHubUrl: server.url,
      authClientId: 'portal-web',
      variant: 'Barn',
      // SPEC §1 gives the child app no application type.
      applicationType: null,
      features: { child: true, supportGroup: false },
    });
  });
});
