import type { Api, AppContext } from '../context.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../errors.ts';
import { personalCodeDigest } from '../auth/passwords.ts';
import { principalOf } from '../http/guard.ts';
import { assertLeads, ledSeriesIds } from './leader-access.ts';
import { acceptDisplayName } from '../security/display-name.ts';
import { PROVIDER } from '../../contract/first-screen.ts';
import { IdParams } from '../../contract/schemas/common.ts';
import { NewParticipantBody, ParticipantsQuery } from '../../contract/schemas/staff.ts';
import { newPersonalCode } from '../staff/personal-code.ts';
import { connectionState } from '../../contract/connection-state.ts';
import type {
  CreatedParticipant,
  LedSeries,
  ParticipantList,
  SeriesParticipant,
} from '../../contract/staff.ts';
import { MEETING_STATE } from '../../contract/meeting-state.ts';
import { insertAccounts } from '../auth/accounts.ts';
import { PARTICIPANT_NAME_MAX_LENGTH } from '../../contract/limits.ts';

const BASE = '/series';

/** The series the leader leads, each with its group's name and how many take part. */
async function ledSeries(ctx: AppContext, principal: Principal): Promise<LedSeries[]> {
  const { db } = ctx;
  if (!principal.roles.includes('group_leader')) throw new ApiError('forbidden');
  const ids = await ledSeriesIds(ctx, principal.accountId);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('series')
    .innerJoin('support_groups', 'support_groups.id', 'series.group_id')
    .select(['series.id', 'series.subject', 'support_groups.name as groupName'])
    .where('series.id', 'in', ids)
    .orderBy('support_groups.name')
    .orderBy('series.id')
    .execute();
  const counts = await db
    .selectFrom('series_memberships')
    .innerJoin('accounts', 'accounts.id', 'series_memberships.account_id')
    .select(['series_memberships.series_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('series_memberships.series_id', 'in', ids)
    .where('series_memberships.role', '=', 'participant')
    .where('accounts.deleted_date', 'is', null)
    .groupBy('series_memberships.series_id')
    .execute();
  return rows.map((s) => ({
    id: s.id,
    subject: s.subject,
    groupName: s.groupName,
    participantsCount: Number(counts.find((c) => c.series_id === s.id)?.n ?? 0),
  }));
}

/** Presence is read from the group chat of one meeting: the one asked for, else the series' running one. */
async function participantList(
  ctx: AppContext,
  principal: Principal,
  seriesId: number,
  meetingId: number | undefined,
): Promise<ParticipantList> {
  const { db } = ctx;
  await assertLeads(ctx, principal, seriesId);
  let meetingQuery = db
    .selectFrom('meetings')
    .select(['id', 'conversation_id'])
    .where('series_id', '=', seriesId)
    .where('deleted_date', 'is', null);
  meetingQuery = meetingId
    ? meetingQuery.where('id', '=', Number(meetingId))
    : meetingQuery
        .where('state', '=', MEETING_STATE.InProgress)
        .where('conversation_id', 'is not', null)
        .orderBy('start_date', 'desc');
  const meeting = await meetingQuery.executeTakeFirst();
  if (meetingId && !meeting) throw new ApiError('not_found');
  const members = await db
    .selectFrom('series_memberships')
    .innerJoin('accounts', 'accounts.id', 'series_memberships.account_id')
    .innerJoin('contacts', 'contacts.id', 'accounts.contact_id')
    .select(['accounts.id as accountId', 'contacts.id as contactId', 'contacts.name'])
    .where('series_memberships.series_id', '=', seriesId)
    .where('series_memberships.role', '=', 'participant')
    .where('accounts.deleted_date', 'is', null)
    .orderBy('contacts.name')
    .execute();
  const connections =
    meeting?.conversation_id != null
      ? await db
          .selectFrom('conversation_connections')
          .selectAll()
          .where('conversation_id', '=', meeting.conversation_id)
          .execute()
      : [];
  const now = new Date();
  const value: SeriesParticipant[] = members.map((m) => {
    const c = connections.find((x) => x.contact_id === m.contactId);
    const dates = {
      connectedDate: c?.connected_date ?? null,
      lastPingedDate: c?.last_pinged_date ?? null,
      disconnectedDate: c?.disconnected_date ?? null,
    };
    // Someone who never opened this chat is not "away": they are not there at all.
    return { ...m, ...dates, presence: c ? connectionState(dates, now) : 'Disconnected' };
  });
  return {
    value,
    meetingId: meeting?.id ?? null,
    conversationId: meeting?.conversation_id ?? null,
  };
}

/** A new participant with a fresh personal code, answered this once and stored only as its digest. */
async function addParticipant(
  ctx: AppContext,
  principal: Principal,
  seriesId: number,
  wantedName: string,
): Promise<CreatedParticipant> {
  const { db } = ctx;
  await assertLeads(ctx, principal, seriesId);
  // Shown beside the participant's messages: no invisible tricks, no staff title.
  const name = acceptDisplayName(wantedName, PROVIDER.name, PARTICIPANT_NAME_MAX_LENGTH);
  let code = newPersonalCode();
  let digest = await personalCodeDigest(code);
  // 10^15 codes make a clash practically impossible, but a clash would merge two people's logins.
  while (
    await db.selectFrom('accounts').select('id').where('personal_code_digest', '=', digest).executeTakeFirst()
  ) {
    code = newPersonalCode();
    digest = await personalCodeDigest(code);
  }
  const account = await db.transaction().execute(async (trx) => {
    const [made] = await insertAccounts(trx, [
      { name, roles: ['participant'], login: { codeDigest: digest } },
    ]);
    await trx
      .insertInto('series_memberships')
      .values({ series_id: seriesId, account_id: made!.accountId, role: 'participant' })
      .execute();
    return made!;
  });
  return { ...account, name, personalCode: code };
}

/** The group leader's series and their participants (the staff console's group-leader part). */
export function registerGroupLeaderSeriesRoutes(app: Api, ctx: AppContext) {
  app.get(BASE, async (req) => ({ value: await ledSeries(ctx, principalOf(req)) }));

  app.get(
    `${BASE}/:id/participants`,
    { schema: { params: IdParams, querystring: ParticipantsQuery } },
    async (req) => participantList(ctx, principalOf(req), req.params.id, req.query.meetingId),
  );

  // The code is answered once: only its digest is stored, as for every personal code. No
  // Idempotency-Key replay here on purpose: a replay store would keep the code itself.
  app.post(
    `${BASE}/:id/participants`,
    {
      preHandler: [ctx.limits.preHandler('staffCreate')],
      schema: { params: IdParams, body: NewParticipantBody },
    },
    async (req, reply) =>
      reply.code(201).send(await addParticipant(ctx, principalOf(req), req.params.id, req.body.name)),
  );
}
