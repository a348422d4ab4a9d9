import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meeting } from '../../contract/meetings.ts';
import { isMeetingInProgress } from '../../contract/meeting-state.ts';
import type { GroupChatMessages } from '../../contract/staff.ts';
import { isOwnMessage } from '../../staff-console/group-leader/own-message.ts';
import {
  api,
  claimsOf,
  createStaffAccount,
  login,
  startTestServer,
  type TestServer,
} from '../../harness/test-server.ts';

/**
 * Two leaders of one group who share a display name: each sees only their own messages as theirs
 * in the console's group chat, whose messages come from the real staff API.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ variant: 'gruppstod' });
});
afterAll(async () => server?.dispose());

const GROUPSTOD = 'Gruppstod';

describe("the group leader's own messages", () => {
  it('are told by the author id, not the display name', async () => {
    const leader = (await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff'))
      .access_token;
    const userinfo = await fetch(`${server.url}/connect/userinfo`, {
      headers: { Authorization: `Bearer ${leader}` },
    });
    const leaderName = ((await userinfo.json()) as { name: string }).name;
    // A second leader of the same series, with the same name.
    const twinId = await createStaffAccount(
      server,
      'tvilling',
      'tvilling-losenord-1',
      ['group_leader'],
      leaderName,
    );
    const { series_id: seriesId } = await server.ctx.db
      .selectFrom('series_memberships')
      .select('series_id')
      .where('account_id', '=', claimsOf(leader).accountId)
      .executeTakeFirstOrThrow();
    await server.ctx.db
      .insertInto('series_memberships')
      .values({ series_id: seriesId, account_id: twinId, role: 'leader' })
      .execute();
    const twin = (await login(server.url, 'tvilling', 'tvilling-losenord-1', 'portal-staff')).access_token;

    const meetings = await api(server.url, '/portal/staff/meetings', { token: leader, variant: GROUPSTOD });
    const meeting = (meetings.body!.value as Meeting[]).find(isMeetingInProgress)!;
    await api(server.url, `/portal/staff/meetings/${meeting.id}/start`, {
      token: leader,
      body: {},
      variant: GROUPSTOD,
    });
    for (const [token, content] of [
      [leader, 'Hej från mig'],
      [twin, 'Hej från tvillingen'],
    ] as const) {
      const sent = await api(server.url, `/portal/staff/meetings/${meeting.id}/messages`, {
        token,
        body: { content },
        variant: GROUPSTOD,
      });
      expect(sent.status).toBeLessThan(300);
    }

    const read = await api(server.url, `/portal/staff/meetings/${meeting.id}/messages`, {
      token: leader,
      variant: GROUPSTOD,
    });
    const messages = (read.body as unknown as GroupChatMessages).value;
    const own = (accountId: number) =>
      messages.filter((m) => isOwnMessage(m, accountId)).map((m) => m.message);
    expect(messages.filter((m) => m.agentName === leaderName)).toHaveLength(2);
    expect(own(claimsOf(leader).accountId)).toEqual(['Hej från mig']);
    expect(own(twinId)).toEqual(['Hej från tvillingen']);
  });
});
