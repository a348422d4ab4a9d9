import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import type { Meeting } from '../../../contract/meetings.ts';
import { PERSONAL_CODE_ALPHABET } from '../../../server/staff/personal-code.ts';

let server: TestServer;
let leader: string;
let counsellor: string;
let participant: string;
let child: string;
let otherSeries: number;
const CONV = '/portal/features/conversations/conversationsapplication-id';
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';

interface Participant {
  accountId: number;
  name: string;
  presence: string;
}

beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
  leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')).access_token;
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  participant = (await login(server.url, 'DEMOKOD-0001')).access_token;
  child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
  // A series the demo leader does not lead: ids of other groups must give nothing away.
  const group = await server.ctx.db
    .insertInto('support_groups')
    .values({ name: 'Annan grupp', information_html: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  otherSeries = (
    await server.ctx.db
      .insertInto('series')
      .values({ group_id: group.id, subject: 'Hösten' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => server.dispose());

const call = (path: string, token?: string, body?: unknown) =>
  api(server.url, path, { token, body, variant: 'Gruppstod' });

async function participants(seriesId: number, query = '') {
  const res = await call(`/portal/staff/series/${seriesId}/participants${query}`, leader);
  expect(res.status).toBe(200);
  return (res.body as { value: Participant[] }).value;
}

describe('the group leader’s series', () => {
  it('lists only the series the leader leads, with group name and participant count', async () => {
    const res = await call('/portal/staff/series', leader);
    expect(res.status).toBe(200);
    expect((res.body as { value: unknown[] }).value).toEqual([
      {
        id: 1,
        subject: 'Vårens träffar',
        groupName: 'Stödgrupp för unga med separerade föräldrar',
        participantsCount: 3,
      },
    ]);
  });

  it('refuses everyone but the leader of the series', async () => {
    for (const path of [
      '/portal/staff/series',
      '/portal/staff/series/1/participants',
      `/portal/staff/series/${otherSeries}/participants`,
    ]) {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, participant)).status).toBe(403);
      expect((await call(path, child)).status).toBe(403);
      expect((await call(path, counsellor)).status).toBe(403);
    }
    expect((await call(`/portal/staff/series/${otherSeries}/participants`, leader)).status).toBe(403);
    expect((await call('/portal/staff/series/1/participants', undefined, { name: 'X' })).status).toBe(401);
    for (const token of [participant, child, counsellor]) {
      expect((await call('/portal/staff/series/1/participants', token, { name: 'X' })).status).toBe(403);
    }
    expect(
      (await call(`/portal/staff/series/${otherSeries}/participants`, leader, { name: 'X' })).status,
    ).toBe(403);
  });
});

describe('participants and their presence in the group chat', () => {
  it('shows who is connected to the running meeting’s chat, following SPEC §4', async () => {
    const before = await participants(1);
    expect(before.map((p) => p.name)).toEqual(['Alex', 'Robin', 'Sam']);
    expect(before.every((p) => p.presence === 'Disconnected')).toBe(true);

    const created = await call('/portal/staff/meetings', leader, {
      seriesId: 1,
      subject: 'Närvaroträff',
      description: '',
      startDate: new Date().toISOString(),
      duration: 60,
    });
    const meeting = created.body as unknown as Meeting;
    const started = await call(`/portal/staff/meetings/${meeting.id}/start`, leader, {});
    const conversationId = (started.body as unknown as Meeting).conversation!.id;

    const activity = (type: string) =>
      call(`${CONV}/activity`, participant, { conversation: conversationId, type, content: '' });
    expect((await activity('Connect')).status).toBe(200);
    const connected = await participants(1, `?meetingId=${meeting.id}`);
    expect(connected.find((p) => p.name === 'Alex')?.presence).toBe('Connected');
    expect(connected.find((p) => p.name === 'Robin')?.presence).toBe('Disconnected');

    // An old ping is "away" between 2 and 5 minutes, and gone after that.
    const agoIso = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const setPing = (minutes: number) =>
      server.ctx.db
        .updateTable('conversation_connections')
        .set({ connected_date: agoIso(minutes), last_pinged_date: agoIso(minutes) })
        .where('conversation_id', '=', conversationId)
        .execute();
    await setPing(3);
    expect((await participants(1, `?meetingId=${meeting.id}`)).find((p) => p.name === 'Alex')?.presence).toBe(
      'Away',
    );
    await setPing(6);
    expect((await participants(1, `?meetingId=${meeting.id}`)).find((p) => p.name === 'Alex')?.presence).toBe(
      'Disconnected',
    );

    await activity('Connect');
    expect((await participants(1)).find((p) => p.name === 'Alex')?.presence).toBe('Connected');
    await activity('Disconnect');
    expect((await participants(1)).find((p) => p.name === 'Alex')?.presence).toBe('Disconnected');
    expect((await call('/portal/staff/series/1/participants?meetingId=999999', leader)).status).toBe(404);
  });
});

describe('creating a participant', () => {
  it('answers a new random personal code once and stores only its digest', async () => {
    const res = await call('/portal/staff/series/1/participants', leader, { name: '  Nova  ' });
    expect(res.status).toBe(201);
    const body = res.body as { accountId: number; name: string; personalCode: string };
    expect(body.name).toBe('Nova');
    const symbol = `[${PERSONAL_CODE_ALPHABET}]`;
    expect(body.personalCode).toMatch(new RegExp(`^${symbol}{4}-${symbol}{4}-${symbol}{2}$`));

    const account = await server.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', body.accountId)
      .executeTakeFirstOrThrow();
    expect(account.personal_code_digest).not.toContain(body.personalCode);
    expect(account.username).toBeNull();
    // No replay store holds the code: replays keep only ids, and this call takes no key at all.
    const replays = await server.ctx.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(replays)).not.toContain(body.personalCode);

    // The new participant logs in with the code and sees the series' meetings.
    const token = (await login(server.url, body.personalCode)).access_token;
    const meetings = await call(`${MEETINGS}/meetings`, token);
    expect((meetings.body as { value: Meeting[] }).value.length).toBeGreaterThan(0);
    expect((await participants(1)).map((p) => p.name)).toContain('Nova');

    const second = await call('/portal/staff/series/1/participants', leader, { name: 'Nova' });
    expect((second.body as { personalCode: string }).personalCode).not.toBe(body.personalCode);
  });

  it('refuses an empty or too long name', async () => {
    expect((await call('/portal/staff/series/1/participants', leader, { name: '  ' })).status).toBe(400);
    expect(
      (await call('/portal/staff/series/1/participants', leader, { name: 'x'.repeat(101) })).status,
    ).toBe(400);
  });
});
