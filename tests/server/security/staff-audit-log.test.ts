import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { runMaintenance } from '../../../server/jobs/maintenance.ts';
import { api, claimsOf, createStaffAccount, login, type TestServer } from '../../../harness/test-server.ts';
import { registerChild, startTarget } from '../../../harness/attack.ts';
import type { AuditEntry } from '../../../contract/staff.ts';

/**
 * Accountability: nothing recorded what staff read or did. Every staff request and hub
 * subscription is now written down - who, when, which conversation or meeting, which action, the
 * answer - never the content; an administrator reads it, and it is pruned after
 * AUDIT_RETENTION_DAYS.
 */
let server: TestServer;
let kim: string;
let admin: string;
beforeAll(async () => {
  server = await startTarget({ config: { auditRetentionDays: 30 } });
  kim = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  admin = (await login(server.url, 'admin', 'admin-losenord', 'portal-staff')).access_token;
});
afterAll(async () => server?.dispose());
afterEach(() => vi.useRealTimers());

const audit = async (query: string, token = admin) => {
  const res = await api(server.url, `/portal/staff/audit?${query}`, { token });
  return { status: res.status, entries: (res.body as { value?: AuditEntry[] }).value ?? [] };
};

describe('the staff audit log', () => {
  it('records every read and write of a counsellor’s chat, and no content', async () => {
    const child = await registerChild(server);
    const chat = await api(server.url, '/portal/chat', {
      token: child.token,
      body: { subject: 'HEMLIGT ämne', text: 'HEMLIG text' },
    });
    const id = Number(chat.body!.id);
    await api(server.url, '/portal/staff/queue', { token: kim });
    await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: kim, body: {} });
    await api(server.url, `/portal/staff/conversations/${id}/messages`, { token: kim });
    await api(server.url, `/portal/staff/conversations/${id}/messages`, {
      token: kim,
      body: { content: 'HEMLIGT svar' },
    });
    const hub = new HubConnectionBuilder()
      .withUrl(`${server.url}/hubs/portalaccountevents`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => kim,
      })
      .configureLogging(LogLevel.None)
      .build();
    await hub.start();
    await hub.invoke('SubscribeToEntity', `Conversation:${id}`);
    await hub.stop();
    await api(server.url, `/portal/staff/conversations/${id}/resolve`, { token: kim, body: {} });

    const { accountId } = claimsOf(kim);
    const { status, entries } = await audit(`entityType=Conversation&entityId=${id}`);
    expect(status).toBe(200);
    const actions = entries.map((e) => `${e.action} ${e.status}`).reverse();
    expect(actions).toEqual([
      'POST /portal/staff/conversations/:id/accept 200',
      'GET /portal/staff/conversations/:id/messages 200',
      'POST /portal/staff/conversations/:id/messages 201',
      'HUB SubscribeToEntity 200',
      'POST /portal/staff/conversations/:id/resolve 200',
    ]);
    expect(entries.every((e) => e.accountId === accountId && e.entityId === id)).toBe(true);
    expect(
      (await audit(`accountId=${accountId}`)).entries.some((e) => e.action === 'GET /portal/staff/queue'),
    ).toBe(true);
    const table = JSON.stringify(await server.ctx.db.selectFrom('audit_log').selectAll().execute());
    expect(table).not.toMatch(/HEMLIG|child|barn-/);
  });

  it('records what was refused too', async () => {
    await createStaffAccount(server, 'nyfiken', 'nyfikens-losenord-3', ['counsellor']);
    const curious = (await login(server.url, 'nyfiken', 'nyfikens-losenord-3', 'portal-staff')).access_token;
    const child = await registerChild(server);
    const id = Number(
      (await api(server.url, '/portal/chat', { token: child.token, body: { text: 'Hej' } })).body!.id,
    );
    await api(server.url, `/portal/staff/conversations/${id}/accept`, { token: kim, body: {} });
    expect(
      (await api(server.url, `/portal/staff/conversations/${id}/messages`, { token: curious })).status,
    ).toBe(403);
    const { entries } = await audit(`accountId=${claimsOf(curious).accountId}`);
    expect(entries[0]).toMatchObject({
      action: 'GET /portal/staff/conversations/:id/messages',
      entityId: id,
      status: 403,
    });
  });

  it('is read by administrators only', async () => {
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const child = await registerChild(server);
    expect((await audit('', kim)).status).toBe(403);
    expect((await audit('', leader)).status).toBe(403);
    expect((await audit('', child.token)).status).toBe(403);
  });

  it('is pruned after its retention', async () => {
    expect((await audit('')).entries.length).toBeGreaterThan(0);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31 * 24 * 3600_000 });
    await runMaintenance(server.ctx);
    vi.useRealTimers();
    const left = await server.ctx.db.selectFrom('audit_log').selectAll().execute();
    // Only this test's own read of the log, made before the jump, could be younger: none is.
    expect(left).toEqual([]);
  });
});
